package deadletter_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// The seed's examples (000, "发送事件格式"), each rebuilt from its event and
// the facts its record states, must come out byte for byte (compacted).
func TestEG23_RecordFormats(t *testing.T) {
	t.Parallel()
	const seedTopic = "/subscriptions/000000000-0000-0000-0000-00000000000000/resourceGroups/rgwithoutpolicy/providers/Microsoft.Storage/storageAccounts/myegteststgfoo"
	// The seeds and the records the cloud wrote for them are in testdata/.
	seedEG := string(facetest.Golden(t, "seed-eventgrid.json"))
	seedCE := string(facetest.Golden(t, "seed-cloudevents.json"))
	seedCustom := string(facetest.Golden(t, "seed-custom.json"))
	const customTopic = "/subscriptions/00000000000-0000-0000-0000-000000000000000/resourceGroups/rgwithoutpolicy/providers/Microsoft.EventGrid/topics/myCustomSchemaTopic"

	tests := []struct {
		name    string
		event   *egevent.Event
		outcome engine.Outcome
		attempt time.Time
		want    string
	}{
		{
			name: "event grid schema (seed)",
			event: &egevent.Event{
				ID: "93902694-901e-008f-6f95-7153a806873c", Schema: egevent.EventGridSchema, Raw: json.RawMessage(seedEG),
				Topic: seedTopic, PublishedAt: mustTime("2020-08-13T17:18:14.0265758Z"),
			},
			outcome: engine.Outcome{Name: "NotFound"},
			attempt: mustTime("2020-08-13T17:18:14.0465788Z"),
			want:    string(facetest.Golden(t, "record-eventgrid.json")),
		},
		{
			name: "event grid schema with an HTTP status",
			event: &egevent.Event{
				ID: "93902694-901e-008f-6f95-7153a806873c", Schema: egevent.EventGridSchema, Raw: json.RawMessage(seedEG),
				Topic: seedTopic, PublishedAt: mustTime("2020-08-13T17:18:14.0265758Z"),
			},
			outcome: engine.Outcome{Status: 404}, // name derived: NotFound
			attempt: mustTime("2020-08-13T17:18:14.0465788Z"),
			want:    string(facetest.Golden(t, "record-eventgrid-status.json")),
		},
		{
			// As the Go SDK publishes: its own key order, nine fractional
			// digits, no topic or metadataVersion. Order and values are kept;
			// the envelope fields the cloud stamps are added.
			name: "event grid schema as the Go SDK publishes it",
			event: &egevent.Event{
				ID: "id1", Schema: egevent.EventGridSchema, DataVersion: "", Topic: topicID,
				Raw:         json.RawMessage(`{"data":{"z":1,"a":1.50,"big":12345678901234567890},"eventTime":"2024-01-02T03:04:05.123456789Z","eventType":"T","id":"id1","subject":"a&b"}`),
				PublishedAt: time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.FixedZone("x", 3600)),
			},
			outcome: engine.Outcome{Name: "Busy", Status: 503},
			attempt: time.Date(2024, 1, 2, 2, 4, 45, 0, time.UTC),
			want: `{"data":{"z":1,"a":1.50,"big":12345678901234567890},"eventTime":"2024-01-02T03:04:05.123456789Z","eventType":"T","id":"id1","subject":"a&b",` +
				`"dataVersion":"","metadataVersion":"1","topic":"` + topicID + `",` +
				`"deadLetterReason":"MaxDeliveryAttemptsExceeded","deliveryAttempts":1,"lastDeliveryOutcome":"Busy","lastHttpStatusCode":503,` +
				`"publishTime":"2024-01-02T02:04:05.1234567Z","lastDeliveryAttemptTime":"2024-01-02T02:04:45.0000000Z"}`,
		},
		{
			// Only top-level keys count: "topic" inside data or inside a
			// string does not; an escaped key is still the key it spells.
			name: "event grid schema: which envelope keys are present",
			event: &egevent.Event{
				ID: "id2", Schema: egevent.EventGridSchema, DataVersion: "2.0", Topic: topicID,
				Raw:         json.RawMessage(`{"id":"id2","subject":"a,\"topic\":{[x","data":{"topic":"t","l":[{"metadataVersion":"1"}]},"dataVers\u0069on":"2.0"}`),
				PublishedAt: mustTime("2024-01-02T03:04:05Z"),
			},
			outcome: engine.Outcome{Name: "Busy", Status: 503},
			attempt: mustTime("2024-01-02T03:04:06Z"),
			want: `{"id":"id2","subject":"a,\"topic\":{[x","data":{"topic":"t","l":[{"metadataVersion":"1"}]},"dataVers\u0069on":"2.0",` +
				`"metadataVersion":"1","topic":"` + topicID + `",` +
				`"deadLetterReason":"MaxDeliveryAttemptsExceeded","deliveryAttempts":1,"lastDeliveryOutcome":"Busy","lastHttpStatusCode":503,` +
				`"publishTime":"2024-01-02T03:04:05.0000000Z","lastDeliveryAttemptTime":"2024-01-02T03:04:06.0000000Z"}`,
		},
		{
			name: "cloudevents 1.0 (seed)",
			event: &egevent.Event{
				ID: "caee971c-3ca0-4254-8f99-1395b394588e", Schema: egevent.CloudEventSchemaV10, Raw: json.RawMessage(seedCE),
				PublishedAt: mustTime("2020-08-13T21:21:36.4018726Z"),
			},
			outcome: engine.Outcome{Name: "NotFound", Status: 404},
			attempt: mustTime("2020-08-13T21:21:37Z"),
			want:    string(facetest.Golden(t, "record-cloudevents.json")),
		},
		{
			name: "custom input schema (seed)",
			event: &egevent.Event{
				ID: "8bc07e6f-0885-4729-90e4-7c3f052bd754", Type: "myEventType", Subject: "subjectDefault", DataVersion: "1.0",
				Time: mustTime("2020-08-13T18:11:29.4121391Z"), Schema: egevent.CustomInputSchema, Raw: json.RawMessage(seedCustom),
				Topic: customTopic, PublishedAt: mustTime("2020-08-13T18:11:29.4121391Z"),
			},
			outcome: engine.Outcome{Name: "NotFound"},
			attempt: mustTime("2020-08-13T18:11:29.4277644Z"),
			want:    string(facetest.Golden(t, "record-custom.json")),
		},
		{
			name: "custom input schema, eventTime not mapped",
			event: &egevent.Event{
				ID: "c1", Type: "T", Subject: "s", Schema: egevent.CustomInputSchema, Topic: customTopic,
				Raw: json.RawMessage(`{"k":[1,2]}`), PublishedAt: mustTime("2020-08-13T18:11:29Z"),
			},
			outcome: engine.Outcome{Name: "Busy", Status: 503},
			attempt: mustTime("2020-08-13T18:11:30Z"),
			want: `{"id":"c1","eventTime":"2020-08-13T18:11:29.0000000Z","eventType":"T","dataVersion":"","metadataVersion":"1",` +
				`"topic":"` + customTopic + `","subject":"s","deadLetterReason":"MaxDeliveryAttemptsExceeded","deliveryAttempts":1,` +
				`"lastDeliveryOutcome":"Busy","lastHttpStatusCode":503,"publishTime":"2020-08-13T18:11:29.0000000Z",` +
				`"lastDeliveryAttemptTime":"2020-08-13T18:11:30.0000000Z","data":{"k":[1,2]}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			batch := &engine.Batch{
				Items:    []*engine.Item{{ID: tt.event.ID, PublishedAt: tt.event.PublishedAt, Meta: tt.event}},
				Attempts: 1, FirstAttemptAt: tt.attempt, LastAttemptAt: tt.attempt, LastOutcome: tt.outcome,
			}
			got, err := builder().Build(batch, retry.ReasonMaxDeliveryAttemptsExceeded, tt.attempt)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d dead letters, want 1 blob", len(got))
			}
			if want := "[" + compact(t, tt.want) + "]"; string(got[0].Body) != want {
				t.Fatalf("record\n got %s\nwant %s", got[0].Body, want)
			}
			if got[0].ContentType != "application/json" || len(got[0].EventIDs) != 1 || got[0].EventIDs[0] != tt.event.ID {
				t.Fatalf("dead letter %+v", got[0])
			}
		})
	}
}

func TestEG23_OneBlobPerBatch(t *testing.T) {
	t.Parallel()
	sink := engine.NewMemorySink()
	r := newRoute(t, routetest.Status(400), retry.Config{}, builder(), sink, 3)
	r.advanceTo(57 * time.Minute) // the blob is written at 09:02: named for hour 9
	r.publish(egEvent("e1"), egEvent("e2"), egEvent("e3"))
	r.advanceTo(time.Hour + 2*time.Minute)
	letters := sink.List()
	if len(letters) != 1 {
		t.Fatalf("%d blobs, want 1 for the batch", len(letters))
	}
	dl := letters[0]
	if want := "devstoreaccount1/deadletters/ORDERS-SUB/2026/3/10/9/blob-1.json"; dl.Destination != want {
		t.Fatalf("blob %q, want %q", dl.Destination, want)
	}
	var recs []map[string]any
	if err := json.Unmarshal(dl.Body, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(dl.EventIDs, ",") != "e1,e2,e3" {
		t.Fatalf("blob holds %d records for %v, want e1..e3", len(recs), dl.EventIDs)
	}
	for i, rec := range recs {
		if rec["id"] != dl.EventIDs[i] || rec["deadLetterReason"] != retry.ReasonUndeliverableDueToClientError ||
			rec["lastHttpStatusCode"] != 400.0 || rec["publishTime"] != "2026-03-10T08:57:00.0000000Z" ||
			rec["lastDeliveryAttemptTime"] != "2026-03-10T08:57:00.0000000Z" {
			t.Fatalf("record %d: %v", i, rec)
		}
	}
}

func TestEG23_BuildErrors(t *testing.T) {
	t.Parallel()
	good := egEvent("e1")
	tests := []struct {
		name string
		b    deadletter.Builder
		meta any
	}{
		{"not an Event Grid event", builder(), "raw"},
		{"nil event", builder(), (*egevent.Event)(nil)},
		{"event grid event not an object", builder(), &egevent.Event{ID: "x", Schema: egevent.EventGridSchema, Raw: json.RawMessage(`[1]`)}},
		{"invalid JSON", builder(), &egevent.Event{ID: "x", Schema: egevent.CloudEventSchemaV10, Raw: json.RawMessage(`{"id":`)}},
		{"unknown schema", builder(), &egevent.Event{ID: "x", Schema: "Avro", Raw: json.RawMessage(`{}`)}},
		{"no subscription name", deadletter.Builder{Dest: dest}, good},
		{"no destination", deadletter.Builder{SubscriptionName: "s"}, good},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			batch := &engine.Batch{Items: []*engine.Item{{ID: "x", Meta: tt.meta}}, Attempts: 1}
			if got, err := tt.b.Build(batch, "r", t0); err == nil {
				t.Fatalf("Build succeeded: %s", got[0].Body)
			}
		})
	}
}

func TestEG26_SecretsNeverInRecords(t *testing.T) {
	t.Parallel()
	// A delivery carries a secret custom header; the endpoint even echoes it
	// in its error. The record is built from the event and the outcome's
	// name and status only, so the secret cannot reach it.
	const secret = "s3cr3t-delivery-property"
	leaky := func(ctx context.Context, a *engine.Attempt) engine.Outcome {
		return engine.Outcome{
			Status: 500, Name: "Busy", Message: "upstream rejected X-Api-Key " + secret,
			Request: &engine.RecordedRequest{Method: "POST", Header: map[string][]string{"X-Api-Key": {secret}}},
		}
	}
	sink := engine.NewMemorySink()
	r := newRoute(t, engine.DestinationFunc(leaky), retry.Config{MaxDeliveryAttempts: 1}, builder(), sink, 1)
	r.publish(egEvent("e1"))
	r.advanceTo(10 * time.Minute)
	letters := sink.List()
	if len(letters) != 1 {
		t.Fatalf("%d dead letters, want 1", len(letters))
	}
	if strings.Contains(string(letters[0].Body), secret) {
		t.Fatalf("dead letter holds the secret: %s", letters[0].Body)
	}
}

// An event converted to CloudEvents for delivery is dead-lettered as the
// CloudEvent its endpoint received; other pairings keep the input shape.
func TestEG23_RecordByDeliverySchema(t *testing.T) {
	t.Parallel()
	const delivered = `{"specversion":"1.0","id":"e1","source":"` + topicID + `","type":"Contoso.Order","subject":"orders/1","time":"2026-03-10T08:00:00Z","data":{"n":1}}`
	const ceFacts = `"deadletterreason":"TimeToLiveExceeded","deliveryattempts":2,"lastdeliveryoutcome":"Busy","publishtime":"2026-03-10T08:00:00.0000000Z"}`
	custom := &egevent.Event{ID: "e1", Type: "Contoso.Order", Subject: "orders/1", Schema: egevent.CustomInputSchema,
		Raw: json.RawMessage(`{"n":1}`), Topic: topicID}
	tests := []struct {
		name     string
		event    *egevent.Event
		delivery egevent.Schema
		body     string
		want     string
	}{
		{"event grid → cloudevents", egEvent("e1"), egevent.CloudEventSchemaV10, delivered,
			strings.TrimSuffix(delivered, "}") + "," + ceFacts},
		{"custom → cloudevents", custom, egevent.CloudEventSchemaV10, delivered,
			strings.TrimSuffix(delivered, "}") + "," + ceFacts},
		{"event grid → event grid: the published event", egEvent("e1"), egevent.EventGridSchema, `{"ignored":true}`,
			`{"data":{"n":1},"dataVersion":"1.0","eventTime":"2026-03-10T08:00:00Z","eventType":"Contoso.Order","id":"e1","subject":"orders/1",` +
				`"metadataVersion":"1","topic":"` + topicID + `","deadLetterReason":"TimeToLiveExceeded","deliveryAttempts":2,` +
				`"lastDeliveryOutcome":"Busy","lastHttpStatusCode":503,"publishTime":"2026-03-10T08:00:00.0000000Z","lastDeliveryAttemptTime":"2026-03-10T08:00:10.0000000Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.event.PublishedAt = t0
			b := builder()
			b.DeliverySchema = tt.delivery
			batch := &engine.Batch{
				Items:    []*engine.Item{{ID: "e1", Body: []byte(tt.body), PublishedAt: t0, Meta: tt.event}},
				Attempts: 2, LastAttemptAt: t0.Add(10 * time.Second), LastOutcome: engine.Outcome{Name: "Busy", Status: 503},
			}
			got, err := b.Build(batch, retry.ReasonTimeToLiveExceeded, t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if want := "[" + tt.want + "]"; string(got[0].Body) != want {
				t.Fatalf("record\n got %s\nwant %s", got[0].Body, want)
			}
		})
	}
}
