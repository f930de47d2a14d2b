package blobevents

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
)

func TestEventCarriesAzuresBlobFields(t *testing.T) {
	t.Parallel()
	n := 0
	id := Identity{AccountID: "/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/a", Sequence: 0x2a,
		NewID: func() string { n++; return "id-" + strconv.Itoa(n) }, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	created := Event(Change{Blob: Blob{Container: "c", Name: "d/x.txt", ETag: "0x8D", ContentType: "text/plain", ContentLength: 5, BlobType: "BlockBlob"},
		URL: "http://h/a/c/d/x.txt"}, id)
	var got map[string]any
	if err := json.Unmarshal(created.Raw, &got); err != nil {
		t.Fatal(err)
	}
	data, _ := got["data"].(map[string]any)
	if created.Type != TypeBlobCreated || created.Schema != egevent.EventGridSchema || got["topic"] != id.AccountID ||
		got["subject"] != "/blobServices/default/containers/c/blobs/d/x.txt" || got["eventType"] != TypeBlobCreated ||
		got["metadataVersion"] != "1" || got["dataVersion"] != "" || got["eventTime"] != "2026-01-01T00:00:00Z" {
		t.Errorf("envelope %s", created.Raw)
	}
	if data["api"] != "PutBlob" || data["eTag"] != "0x8D" || data["contentType"] != "text/plain" || data["contentLength"] != 5.0 ||
		data["blobType"] != "BlockBlob" || data["url"] != "http://h/a/c/d/x.txt" || data["sequencer"] != "0000000000000000000000000000002a" ||
		data["clientRequestId"] == "" || data["requestId"] == "" || data["storageDiagnostics"].(map[string]any)["batchId"] == "" {
		t.Errorf("data %v", data)
	}

	deleted := Event(Change{Deleted: true, Blob: Blob{Container: "c", Name: "x", ETag: "0x8D", BlobType: "BlockBlob"}, URL: "u"}, id)
	got = nil
	_ = json.Unmarshal(deleted.Raw, &got)
	data, _ = got["data"].(map[string]any)
	if deleted.Type != TypeBlobDeleted || data["api"] != "DeleteBlob" {
		t.Errorf("deleted %s", deleted.Raw)
	}
	if _, ok := data["contentLength"]; ok {
		t.Errorf("BlobDeleted carries contentLength: %s", deleted.Raw)
	}
	if _, ok := data["eTag"]; ok {
		t.Errorf("BlobDeleted carries eTag: %s", deleted.Raw)
	}
}

func TestEscapeBlobNameKeepsSlashes(t *testing.T) {
	t.Parallel()
	if got := escapeBlobName("a b/c?d"); got != "a%20b/c%3Fd" {
		t.Fatalf("%q", got)
	}
}
