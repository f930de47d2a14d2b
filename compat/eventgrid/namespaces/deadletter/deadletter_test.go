package deadletter

import (
	"encoding/json"
	"testing"
	"time"
)

func TestBlobPathIsNotZeroPadded(t *testing.T) {
	t.Parallel() // NS-6, seed example 2023/9/23/2
	at := time.Date(2023, 9, 23, 2, 59, 0, 0, time.UTC)
	got := BlobPath("mynamespace", "mytopic", "myeventsubscription", at, "480b2295-0c38-40d0-b25a-f34b30aac1a9")
	want := "mynamespace/mytopic/myeventsubscription/2023/9/23/2/480b2295-0c38-40d0-b25a-f34b30aac1a9.json"
	if got != want {
		t.Fatalf("got %s", got)
	}
	loc, err := ParseBlobPath(got)
	if err != nil || loc.Subscription != "myeventsubscription" || !loc.Hour.Equal(time.Date(2023, 9, 23, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("ParseBlobPath = %+v, %v", loc, err)
	}
	if got := BlobPath("n", "t", "s", time.Date(2024, 1, 5, 7, 0, 0, 0, time.FixedZone("x", 3600)), "g"); got != "n/t/s/2024/1/5/6/g.json" {
		t.Fatalf("UTC conversion: %s", got)
	}
}

func TestRecordWritesTheNS4Layout(t *testing.T) {
	t.Parallel() // NS-4
	r := Record{
		Event:                    json.RawMessage(`{"specversion":"1.0","id":"A1","source":"/s","type":"t","data":{"a":1}}`),
		CustomDeliveryProperties: map[string]string{"Custom-Header-1": "value1"},
		Reason:                   "Undeliverable due to client error", DeliveryAttempts: 3, DeliveryResult: "Unauthorized",
		PublishedAt:           time.Date(2023, 6, 19, 23, 28, 8, 306389900, time.UTC),
		LastDeliveryAttemptAt: time.Date(2023, 6, 19, 23, 28, 9, 0, time.UTC),
	}
	blob, err := MarshalBlob([]Record{r})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"event":{"specversion":"1.0","id":"A1","source":"/s","type":"t","data":{"a":1}},"customDeliveryProperties":{"Custom-Header-1":"value1"},"deadletterProperties":{"deadletterreason":"Undeliverable due to client error","deliveryattempts":3,"deliveryresult":"Unauthorized","publishutc":"2023-06-19T23:28:08.3063899Z","deliveryattemptutc":"2023-06-19T23:28:09.0000000Z"}}]`
	if string(blob) != want {
		t.Fatalf("blob\n%s\nwant\n%s", blob, want)
	}
	back, err := Parse(blob)
	if err != nil || len(back) != 1 {
		t.Fatalf("Parse: %v", err)
	}
	got := back[0]
	if got.Reason != r.Reason || got.DeliveryAttempts != 3 || !got.PublishedAt.Equal(r.PublishedAt) ||
		!got.LastDeliveryAttemptAt.Equal(r.LastDeliveryAttemptAt) || got.CustomDeliveryProperties["Custom-Header-1"] != "value1" ||
		string(got.Event) != string(r.Event) {
		t.Fatalf("round trip %+v", got)
	}
}

func TestParseAcceptsTheDocumentedVariants(t *testing.T) {
	t.Parallel()
	// The delivery page's capture: an array, capital L.
	capture := `[{"deadLetterProperties":{"deadletterreason":"Maximum delivery attempts was exceeded.","deliveryattempts":1,
		"deliveryresult":"Event was not acknowledged nor rejected.","publishutc":"2023-11-01T20:33:51.4521467Z",
		"deliveryattemptutc":"2023-11-01T20:33:52.3692079Z"},"event":{"id":"A234-1234-1234","specversion":"1.0","type":"t","source":"/s"}}]`
	recs, err := Parse([]byte(capture))
	if err != nil || len(recs) != 1 || recs[0].DeliveryAttempts != 1 || recs[0].Reason != "Maximum delivery attempts was exceeded." {
		t.Fatalf("capture: %+v, %v", recs, err)
	}
	// The dead-letter page's structured example: one object, attributes flattened.
	flat := `{"specversion":"1.0","type":"t","source":"/s","id":"A234","customDeliveryProperties":{"h":"v"},
		"deadletterProperties":{"deadletterreason":"r","deliveryattempts":3,"deliveryresult":"Unauthorized","publishutc":"2023-06-19T23:28:08.3063899Z"}}`
	recs, err = Parse([]byte(flat))
	if err != nil || len(recs) != 1 {
		t.Fatalf("flat: %v", err)
	}
	var ev map[string]any
	if err := json.Unmarshal(recs[0].Event, &ev); err != nil || ev["id"] != "A234" || ev["customDeliveryProperties"] != nil {
		t.Fatalf("flat event %s", recs[0].Event)
	}
	if _, err := Parse([]byte(`[{"event":{}}]`)); err == nil {
		t.Fatal("record without properties accepted")
	}
}
