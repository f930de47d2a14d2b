package resource

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
)

// DeadLetterDestination is a subscription's dead-letter destination: a blob
// container of a storage account (EG-19).
type DeadLetterDestination struct {
	EndpointType      string // always StorageBlob
	ResourceID        string
	BlobContainerName string
	Other             map[string]json.RawMessage
}

type deadLetterJSON struct {
	EndpointType *string                    `json:"endpointType"`
	Properties   map[string]json.RawMessage `json:"properties"`
}

func decodeDeadLetter(field string, raw json.RawMessage) (*DeadLetterDestination, *arm.Error) {
	var w deadLetterJSON
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, arm.BadRequest("%s must be an object with endpointType and properties.", field)
	}
	if w.EndpointType == nil {
		return nil, arm.BadRequest("%s.endpointType is required.", field)
	}
	typ, err := canonical(field+".endpointType", *w.EndpointType, "StorageBlob")
	if err != nil {
		return nil, err
	}
	d := &DeadLetterDestination{EndpointType: typ, Other: make(map[string]json.RawMessage)}
	for k, v := range w.Properties {
		d.Other[k] = v
	}
	if raw, ok := pop(d.Other, "resourceId"); ok {
		if json.Unmarshal(raw, &d.ResourceID) != nil {
			return nil, arm.BadRequest("%s.properties.resourceId must be a string.", field)
		}
	}
	if raw, ok := pop(d.Other, "blobContainerName"); ok {
		if json.Unmarshal(raw, &d.BlobContainerName) != nil {
			return nil, arm.BadRequest("%s.properties.blobContainerName must be a string.", field)
		}
	}
	if d.ResourceID == "" || d.BlobContainerName == "" {
		return nil, arm.BadRequest("%s needs properties.resourceId (the storage account) and properties.blobContainerName.", field)
	}
	// Refused here, at create or update, as ARM does: a destination that
	// cannot be written to would otherwise lose every dead letter later.
	if _, err := deadletter.ParseDestination(d.ResourceID, d.BlobContainerName); err != nil {
		return nil, arm.BadRequest("%s is invalid: %s.", field, err)
	}
	return d, nil
}

func (d *DeadLetterDestination) json() any {
	props := make(map[string]any, len(d.Other)+2)
	for k, v := range d.Other {
		props[k] = v
	}
	props["resourceId"] = d.ResourceID
	props["blobContainerName"] = d.BlobContainerName
	return struct {
		EndpointType string         `json:"endpointType"`
		Properties   map[string]any `json:"properties"`
	}{d.EndpointType, props}
}
