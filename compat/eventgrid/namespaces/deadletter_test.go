package namespaces_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// azurite is the real Azurite the test script started, with a fresh
// container of the test's own: conn is its connection string, as the
// binary takes it with --azure-storage, and sink reads what the face wrote.
type azurite struct {
	conn      string
	account   string
	container string
	sink      *azblobsink.Sink
}

func newAzurite(t *testing.T) azurite {
	t.Helper()
	conn := testenv.AzureStorage(t)
	account, err := azblobsink.ParseConnectionString(conn)
	if err != nil {
		t.Fatal(err)
	}
	sdk, err := azblob.NewClientFromConnectionString(conn, &azblob.ClientOptions{
		ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	container := uniqueName("nsdl-")
	if _, err := sdk.CreateContainer(context.Background(), container, nil); err != nil {
		t.Fatalf("creating container %s: %v", container, err)
	}
	t.Cleanup(func() { _, _ = sdk.DeleteContainer(context.Background(), container, nil) })
	return azurite{conn: conn, account: account.Name, container: container, sink: azblobsink.New(account)}
}

func (a azurite) read(t *testing.T, p pullSetup) []namespaces.DeadLetterBlob {
	t.Helper()
	blobs, err := namespaces.ReadDeadLetters(context.Background(), a.sink.Reader(), a.account, a.container, p.ns.name, p.topic, p.sub)
	if err != nil {
		t.Fatal(err)
	}
	return blobs
}

func deadLettersOf(sink *engine.MemorySink, p pullSetup) ([]namespaces.DeadLetterBlob, error) {
	return namespaces.DeadLettersFromMemory(sink.List(), "acct", "dead", p.ns.name, p.topic, p.sub)
}

func TestRejectDeadLettersToAzuriteInTheNS4Layout(t *testing.T) {
	t.Parallel() // NS-2 reject, NS-4 record, NS-6 path
	az := newAzurite(t)
	h := newHarness(t, az.conn)
	p := h.pull(t, queueProps(60, 10, "", blobDeadLetter(az.account, az.container)))
	ctx := context.Background()
	h.clock.Advance(3 * time.Hour) // 13:00 UTC
	ev := newEvent(t, "order.created", map[string]any{"total": 12.5})
	ev.Extensions = map[string]any{"tenant": "t-1"}
	if _, err := p.sender.SendEvent(ctx, &ev, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(30 * time.Second)
	tok := *receiveNow(t, p.receiver, 1)[0].BrokerProperties.LockToken
	rej, err := p.receiver.RejectEvents(ctx, []string{tok}, nil)
	if err != nil || len(rej.SucceededLockTokens) != 1 {
		t.Fatalf("reject: %v %+v", err, rej)
	}
	entry := h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)[0]
	wantPrefix := az.account + "/" + az.container + "/" + p.ns.name + "/orders/billing/2026/3/1/13/"
	if !strings.HasPrefix(entry.Destination, wantPrefix) || !strings.HasSuffix(entry.Destination, ".json") ||
		entry.Outcome != deadletter.ReasonRejected || entry.Labels["subscription"] != "billing" {
		t.Fatalf("dead-letter entry %+v, want destination under %s", entry, wantPrefix)
	}

	blobs := az.read(t, p)
	if len(blobs) != 1 || len(blobs[0].Records) != 1 {
		t.Fatalf("blobs %+v", blobs)
	}
	rec := blobs[0].Records[0]
	if rec.Reason != deadletter.ReasonRejected || rec.DeliveryResult != deadletter.ResultRejected || rec.DeliveryAttempts != 1 ||
		!rec.PublishedAt.Equal(start.Add(3*time.Hour)) || !rec.LastDeliveryAttemptAt.Equal(start.Add(3*time.Hour+30*time.Second)) ||
		rec.CustomDeliveryProperties != nil {
		t.Fatalf("record %+v", rec)
	}
	var event map[string]any
	if err := json.Unmarshal(rec.Event, &event); err != nil || event["id"] != ev.ID || event["tenant"] != "t-1" ||
		event["data"].(map[string]any)["total"] != 12.5 {
		t.Fatalf("event %s", rec.Event)
	}
	// The raw blob is a JSON array keyed deadletterProperties (NS-4, NS-6).
	raw, err := az.sink.Reader().Read(ctx, az.account, az.container, blobs[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), `[{"event":{`) || !strings.Contains(string(raw), `"deadletterProperties":{"deadletterreason":"Rejected by client."`) ||
		!strings.Contains(string(raw), `"publishutc":"2026-03-01T13:00:00.0000000Z"`) {
		t.Fatalf("blob content %s", raw)
	}
}

func TestLockExpiringMaxDeliveryCountTimesDeadLetters(t *testing.T) {
	t.Parallel() // NS-2: not settled before the lock expired, max delivery count reached
	az := newAzurite(t)
	h := newHarness(t, az.conn)
	p := h.pull(t, queueProps(60, 2, "", blobDeadLetter(az.account, az.container)))
	ev := newEvent(t, "t", "x")
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	for n := int32(1); n <= 2; n++ {
		got := receiveNow(t, p.receiver, 1)
		if len(got) != 1 || *got[0].BrokerProperties.DeliveryCount != n {
			t.Fatalf("delivery %d: %+v", n, got)
		}
		h.clock.Advance(time.Minute)
	}
	entry := h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)[0]
	if !entry.Time.Equal(start.Add(2 * time.Minute)) {
		t.Fatalf("dead-lettered at %v", entry.Time)
	}
	rec := az.read(t, p)[0].Records[0]
	if rec.Reason != "Maximum delivery attempts was exceeded." || rec.DeliveryResult != "Event was not acknowledged nor rejected." ||
		rec.DeliveryAttempts != 2 || !rec.LastDeliveryAttemptAt.Equal(start.Add(time.Minute)) {
		t.Fatalf("record %+v", rec)
	}
}

func TestBinaryModeEventIsDeadLetteredWithDataBase64(t *testing.T) {
	t.Parallel() // NS-3, NS-5
	az := newAzurite(t)
	h := newHarness(t, az.conn)
	p := h.pull(t, queueProps(60, 10, "", blobDeadLetter(az.account, az.container)))
	payload := []byte{0x00, 0x01, 0xfe, 0xff, 'x'}
	resp := h.rawRequest(t, http.MethodPost, dataPath(p.ns.name, "/topics/orders:publish?api-version=2024-06-01"), http.Header{
		"Authorization":           {"SharedAccessKey " + p.ns.key},
		"Content-Type":            {"application/vnd.apache.thrift.binary"},
		"Ce-Specversion":          {"1.0"},
		"Ce-Type":                 {"com.example.someevent"},
		"Ce-Source":               {"/mycontext"},
		"Ce-Id":                   {"A234-1234-1234"},
		"Ce-Time":                 {"2018-04-05T17:31:00Z"},
		"Ce-Comexampleextension1": {"value"},
	}, string(payload))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("binary publish: %d", resp.StatusCode)
	}
	got := receiveNow(t, p.receiver, 1)
	if len(got) != 1 || string(got[0].Event.Data.([]byte)) != string(payload) ||
		*got[0].Event.DataContentType != "application/vnd.apache.thrift.binary" || got[0].Event.Extensions["comexampleextension1"] != "value" {
		t.Fatalf("received %+v", got)
	}
	if _, err := p.receiver.RejectEvents(context.Background(), []string{*got[0].BrokerProperties.LockToken}, nil); err != nil {
		t.Fatal(err)
	}
	h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: "A234-1234-1234"}, 1)
	rec := az.read(t, p)[0].Records[0]
	var event map[string]any
	if err := json.Unmarshal(rec.Event, &event); err != nil {
		t.Fatal(err)
	}
	if event["data_base64"] != base64.StdEncoding.EncodeToString(payload) || event["data"] != nil ||
		event["datacontenttype"] != "application/vnd.apache.thrift.binary" || event["comexampleextension1"] != "value" {
		t.Fatalf("dead-lettered event %s", rec.Event)
	}
}

func TestMissingContainerDropsAtOnce(t *testing.T) {
	t.Parallel() // NS-1 docs: a destination that does not exist drops the event
	az := newAzurite(t)
	h := newHarness(t, az.conn)
	p := h.pull(t, queueProps(60, 10, "", blobDeadLetter(az.account, "no-such-container")))
	ev := newEvent(t, "t", "x")
	p.send(t, ev)
	p.rejectNext(t)
	drop := h.waitJournal(t, engine.Filter{Kind: engine.KindDrop, EventID: ev.ID}, 1)[0]
	if drop.Outcome != engine.ReasonDeadLetterNotFound || !drop.Time.Equal(start) {
		t.Fatalf("drop %+v", drop)
	}
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func TestStorageDownRetriesOnTheNS7ScheduleThenDrops(t *testing.T) {
	t.Parallel() // NS-7, NS-9 (deliveryRetryPeriodInDays), D-DROP
	down := fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=http://127.0.0.1:%d/%s;",
		azblobsink.DevAccountName, azblobsink.DevAccountKey, closedPort(t), azblobsink.DevAccountName)
	h := newHarness(t, down)
	dl := blobDeadLetter(azblobsink.DevAccountName, "deadletters")
	p := h.pull(t, queueProps(60, 10, "", dl))
	// One day of retries instead of the default two, set the way the seed's
	// template does (a field the SDK model lacks).
	body := `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{"deadLetterDestinationWithResourceIdentity":{
	  "deliveryRetryPeriodInDays":1,"endpointType":"StorageBlob","storageBlob":{"blobContainerName":"deadletters",
	  "resourceId":"/subscriptions/0/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/devstoreaccount1"}}}}}}`
	if resp := h.rawRequest(t, http.MethodPatch, armPath(p.ns.name, "/topics/orders/eventSubscriptions/billing"), nil, body); resp.StatusCode != 200 {
		t.Fatalf("patch: %d", resp.StatusCode)
	}
	ev := newEvent(t, "t", "x")
	p.send(t, ev)
	p.rejectNext(t)
	h.waitJournal(t, engine.Filter{Kind: engine.KindAttempt, Outcome: "DeadLetterWriteFailed", EventID: ev.ID}, 1)
	h.clock.Advance(25 * time.Hour)

	failed := h.journal.Query(engine.Filter{Kind: engine.KindAttempt, Outcome: "DeadLetterWriteFailed", EventID: ev.ID})
	// 0, 10 s, 1m10s, 6m10s, then every 5 minutes up to the day's end.
	want := []time.Duration{0, 10 * time.Second, 70 * time.Second, 370 * time.Second, 670 * time.Second}
	for i, d := range want {
		if got := failed[i].Time.Sub(start); got != d {
			t.Fatalf("write %d at +%v, want +%v", i+1, got, d)
		}
	}
	last := failed[len(failed)-1].Time.Sub(start)
	if last > 24*time.Hour || last <= 24*time.Hour-5*time.Minute {
		t.Fatalf("last write at +%v, want within the last 5 minutes of the day", last)
	}
	if n := len(failed); n != 4+int((24*time.Hour-370*time.Second)/(5*time.Minute)) {
		t.Fatalf("%d failed writes", n)
	}
	drops := h.journal.Query(engine.Filter{Kind: engine.KindDrop, EventID: ev.ID})
	if len(drops) != 1 || drops[0].Outcome != engine.ReasonDeadLetterUnavailable || drops[0].Time.Sub(start) != last {
		t.Fatalf("drops %+v", drops)
	}
	if n := len(h.journal.Query(engine.Filter{Kind: engine.KindDeadLetter})); n != 0 {
		t.Fatalf("%d dead letters written to a storage account that is down", n)
	}
}

func TestRepublishSendsDeadLettersBackUnchanged(t *testing.T) {
	t.Parallel() // NS-10
	h := newHarness(t)
	sink := h.sink
	p := h.pull(t, queueProps(60, 10, "", blobDeadLetter("acct", "dead")))
	ctx := context.Background()
	ev := newEvent(t, "order.created", map[string]any{"total": 3})
	ev.Extensions = map[string]any{"tenant": "t-1"}
	p.send(t, ev)
	p.rejectNext(t)
	h.waitJournal(t, engine.Filter{Kind: engine.KindDeadLetter, EventID: ev.ID}, 1)
	blobs, err := deadLettersOf(sink, p)
	if err != nil || len(blobs) != 1 {
		t.Fatalf("dead letters: %v %d", err, len(blobs))
	}
	if err := namespaces.Republish(ctx, p.sender, blobs[0].Records); err != nil {
		t.Fatal(err)
	}
	again := receiveNow(t, p.receiver, 1)
	if len(again) != 1 || again[0].Event.ID != ev.ID || string(again[0].Event.Data.([]byte)) != `{"total":3}` ||
		again[0].Event.Extensions["tenant"] != "t-1" || *again[0].BrokerProperties.DeliveryCount != 1 {
		t.Fatalf("re-published event %+v", again)
	}
}
