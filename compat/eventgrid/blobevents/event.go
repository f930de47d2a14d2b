package blobevents

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

// Event types of the blob service.
const (
	TypeBlobCreated = "Microsoft.Storage.BlobCreated"
	TypeBlobDeleted = "Microsoft.Storage.BlobDeleted"
)

// Identity is what Event needs besides the change.
type Identity struct {
	// AccountID is the storage account's ARM id: the events' topic.
	AccountID string
	// Sequence orders the account's blob events (data.sequencer).
	Sequence uint64
	// NewID makes the event id and the request ids.
	NewID func() string
	// Now is when the change was seen (eventTime and publish time).
	Now time.Time
}

type dataJSON struct {
	API                string `json:"api"`
	ClientRequestID    string `json:"clientRequestId"`
	RequestID          string `json:"requestId"`
	ETag               string `json:"eTag,omitempty"`
	ContentType        string `json:"contentType"`
	ContentLength      *int64 `json:"contentLength,omitempty"`
	BlobType           string `json:"blobType"`
	URL                string `json:"url"`
	Sequencer          string `json:"sequencer"`
	StorageDiagnostics struct {
		BatchID string `json:"batchId"`
	} `json:"storageDiagnostics"`
}

type eventJSON struct {
	Topic           string    `json:"topic"`
	Subject         string    `json:"subject"`
	EventType       string    `json:"eventType"`
	ID              string    `json:"id"`
	Data            *dataJSON `json:"data"`
	DataVersion     string    `json:"dataVersion"`
	MetadataVersion string    `json:"metadataVersion"`
	EventTime       string    `json:"eventTime"`
}

// Subject is a blob's event subject, as Azure writes it.
func Subject(containerName, blobName string) string {
	return "/blobServices/default/containers/" + containerName + "/blobs/" + blobName
}

// Event is the Event Grid event of c, in Event Grid schema, with the data
// fields Azure's blob events carry. A listing cannot see the request that
// made the change, so api is PutBlob (BlobCreated) or DeleteBlob
// (BlobDeleted), and clientRequestId, requestId and the diagnostics batch
// id are new ids, not the client's.
func Event(c Change, id Identity) *egevent.Event {
	evType, api := TypeBlobCreated, "PutBlob"
	if c.Deleted {
		evType, api = TypeBlobDeleted, "DeleteBlob"
	}
	d := &dataJSON{
		API: api, ClientRequestID: id.NewID(), RequestID: id.NewID(),
		ContentType: c.ContentType, BlobType: c.BlobType, URL: c.URL,
		Sequencer: fmt.Sprintf("%032x", id.Sequence),
	}
	d.StorageDiagnostics.BatchID = id.NewID()
	if !c.Deleted {
		length := c.ContentLength
		d.ETag, d.ContentLength = c.ETag, &length
	}
	ev := &egevent.Event{
		ID: id.NewID(), Type: evType, Subject: Subject(c.Container, c.Name), Time: id.Now.UTC(),
		Schema: egevent.EventGridSchema, Topic: id.AccountID, PublishedAt: id.Now,
	}
	raw, _ := json.Marshal(eventJSON{
		Topic: ev.Topic, Subject: ev.Subject, EventType: ev.Type, ID: ev.ID, Data: d,
		MetadataVersion: "1", EventTime: ev.Time.Format(time.RFC3339Nano),
	})
	ev.Raw = raw
	return ev
}
