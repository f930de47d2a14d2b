package armmodel

import (
	"encoding/json"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
)

// DeadLetterWithResourceIdentity is deadLetterDestinationWithResourceIdentity
// in the API's shape:
//
//	{"identity":{…},"deadLetterDestination":{"endpointType":"StorageBlob",
//	  "properties":{"resourceId":…,"blobContainerName":…}},"deliveryRetryPeriodInDays":2}
//
// deliveryRetryPeriodInDays is not in the SDK model; it is echoed only when
// it was sent (NS-9).
type DeadLetterWithResourceIdentity struct {
	Identity                  json.RawMessage        `json:"identity,omitempty"`
	DeadLetterDestination     *DeadLetterDestination `json:"deadLetterDestination,omitempty"`
	DeliveryRetryPeriodInDays *int                   `json:"deliveryRetryPeriodInDays,omitempty"`
}

// DeadLetterDestination is a storage-blob dead-letter destination.
type DeadLetterDestination struct {
	EndpointType string                 `json:"endpointType"`
	Properties   *StorageBlobProperties `json:"properties,omitempty"`
}

// StorageBlobProperties name the storage account and container.
type StorageBlobProperties struct {
	ResourceID        string `json:"resourceId,omitempty"`
	BlobContainerName string `json:"blobContainerName,omitempty"`
}

// UnmarshalJSON also reads the seed's template shape (NS-9), in which the
// destination sits at the top level as endpointType plus a "StorageBlob" or
// "storageBlob" object, and normalises it to the API's shape.
func (d *DeadLetterWithResourceIdentity) UnmarshalJSON(data []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	field := func(name string) json.RawMessage {
		for k, v := range obj {
			if strings.EqualFold(k, name) {
				return v
			}
		}
		return nil
	}
	var out DeadLetterWithResourceIdentity
	if raw := field("identity"); len(raw) > 0 && string(raw) != "null" {
		out.Identity = raw
	}
	if raw := field("deliveryRetryPeriodInDays"); len(raw) > 0 && string(raw) != "null" {
		var days int
		if err := json.Unmarshal(raw, &days); err != nil {
			return arm.BadRequest("The deliveryRetryPeriodInDays of the dead-letter destination must be an integer.")
		}
		out.DeliveryRetryPeriodInDays = &days
	}
	if raw := field("deadLetterDestination"); len(raw) > 0 && string(raw) != "null" {
		var dest DeadLetterDestination
		if err := json.Unmarshal(raw, &dest); err != nil {
			return arm.BadRequest("The deadLetterDestination must be an object with endpointType and properties.")
		}
		out.DeadLetterDestination = &dest
	} else if raw := field("storageBlob"); len(raw) > 0 && string(raw) != "null" {
		dest := DeadLetterDestination{Properties: &StorageBlobProperties{}}
		if err := json.Unmarshal(raw, dest.Properties); err != nil {
			return arm.BadRequest("The StorageBlob dead-letter destination must be an object with blobContainerName and resourceId.")
		}
		if rawType := field("endpointType"); len(rawType) > 0 {
			_ = json.Unmarshal(rawType, &dest.EndpointType)
		} else {
			dest.EndpointType = "StorageBlob"
		}
		out.DeadLetterDestination = &dest
	}
	*d = out
	return nil
}

// DeadLetterTarget is a validated dead-letter destination.
type DeadLetterTarget struct {
	// Account is the storage account name from the resource id.
	Account   string
	Container string
	// RetryPeriodDays is deliveryRetryPeriodInDays (1..2, default 2).
	RetryPeriodDays int
}

// validate checks the destination and canonicalises its enum.
func (d *DeadLetterWithResourceIdentity) validate() (*DeadLetterTarget, *arm.Error) {
	dest := d.DeadLetterDestination
	if dest == nil {
		return nil, arm.BadRequest("The dead-letter destination must specify deadLetterDestination with endpointType StorageBlob.")
	}
	kind, ok := canonical(dest.EndpointType, "StorageBlob")
	if !ok {
		return nil, arm.BadRequest("The dead-letter endpointType '%s' is not supported: Azure Blob Storage (StorageBlob) is the only dead-letter destination.", dest.EndpointType)
	}
	dest.EndpointType = kind
	if dest.Properties == nil || dest.Properties.BlobContainerName == "" {
		return nil, arm.BadRequest("The dead-letter destination must specify blobContainerName.")
	}
	account, ok := storageAccountName(dest.Properties.ResourceID)
	if !ok {
		return nil, arm.BadRequest("The dead-letter resourceId '%s' is not a storage account id of the form /subscriptions/{id}/resourceGroups/{rg}/providers/Microsoft.Storage/storageAccounts/{name}.", dest.Properties.ResourceID)
	}
	// The same rules as a topic's event subscription: refused at create or
	// update, never accepted and then silently unusable.
	if _, err := deadletter.ParseDestination(dest.Properties.ResourceID, dest.Properties.BlobContainerName); err != nil {
		return nil, arm.BadRequest("The dead-letter destination is invalid: %s.", err)
	}
	t := &DeadLetterTarget{Account: account, Container: dest.Properties.BlobContainerName, RetryPeriodDays: 2}
	if p := d.DeliveryRetryPeriodInDays; p != nil {
		if *p < 1 || *p > 2 {
			return nil, arm.BadRequest("The deliveryRetryPeriodInDays value %d is out of range: it must be 1 or 2.", *p)
		}
		t.RetryPeriodDays = *p
	}
	return t, nil
}

// storageAccountName reads the account name from a storage account resource
// id (a container-level id, …/blobServices/default/containers/x, works too).
func storageAccountName(id string) (string, bool) {
	segs := strings.Split(strings.Trim(id, "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		if strings.EqualFold(segs[i], "storageAccounts") && i >= 2 &&
			strings.EqualFold(segs[i-1], "Microsoft.Storage") && segs[i+1] != "" {
			return segs[i+1], true
		}
	}
	return "", false
}
