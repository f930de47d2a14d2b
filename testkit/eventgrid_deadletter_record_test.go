package testkit

import (
	"strings"
	"testing"
	"time"
)

// The three record formats of EG-23, as Azure's docs show them.
func TestParseDeadLetterBlobReadsEveryRecordFormat(t *testing.T) {
	t.Parallel()
	blob := `[
	 {"id":"e1","eventTime":"2020-08-13T17:18:13.1647262Z","eventType":"T","dataVersion":"","metadataVersion":"1","topic":"/t","subject":"/a",
	  "data":{"n":12345678901234567890},"deadLetterReason":"MaxDeliveryAttemptsExceeded","deliveryAttempts":3,
	  "lastDeliveryOutcome":"NotFound","lastHttpStatusCode":404,"publishTime":"2020-08-13T17:18:14.0265758Z",
	  "lastDeliveryAttemptTime":"2020-08-13T17:18:14.0465788Z"},
	 {"id":"c1","source":"/s","specversion":"1.0","type":"T","data":{"a":1},"deadletterreason":"TimeToLiveExceeded",
	  "deliveryattempts":6,"lastdeliveryoutcome":"TimedOut","publishtime":"2020-08-13T17:18:14.0265758Z"},
	 {"id":"m1","eventTime":"2020-08-13T17:18:14.0265758Z","eventType":"Created","dataVersion":"1.0","metadataVersion":"1",
	  "topic":"/t","subject":"s","deadLetterReason":"UndeliverableDueToClientError","deliveryAttempts":1,
	  "lastDeliveryOutcome":"BadRequest","lastHttpStatusCode":400,"publishTime":"2020-08-13T17:18:14.0265758Z",
	  "data":{"orderId":"m1","kind":"Created"}}]`
	records, err := ParseDeadLetterBlob("dead/MY-SUB/2020/8/13/17/0f8c.json", []byte(blob))
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 3 {
		t.Fatalf("%d records", len(records))
	}
	eg, ce, custom := records[0], records[1], records[2]
	published := time.Date(2020, 8, 13, 17, 18, 14, 26575800, time.UTC)
	if eg.Format != DeadLetterEventGridSchema || eg.ID != "e1" || eg.Subscription != "MY-SUB" || eg.DeliveryAttempts != 3 ||
		eg.LastDeliveryOutcome != "NotFound" || eg.LastHTTPStatusCode != 404 || !eg.PublishTime.Equal(published) ||
		eg.LastDeliveryAttemptTime.IsZero() || string(eg.Data) != `{"n":12345678901234567890}` {
		t.Errorf("Event Grid record %+v", eg)
	}
	if strings.Contains(string(eg.Event), "deadLetterReason") || strings.Contains(string(eg.Event), "lastHttpStatusCode") ||
		!strings.HasPrefix(string(eg.Event), `{"id":"e1","eventTime":`) {
		t.Errorf("Event Grid event %s: dead-letter fields kept or order lost", eg.Event)
	}
	if ce.Format != DeadLetterCloudEventSchema || ce.DeadLetterReason != "TimeToLiveExceeded" || ce.DeliveryAttempts != 6 ||
		ce.LastHTTPStatusCode != 0 || !ce.LastDeliveryAttemptTime.IsZero() || string(ce.Event) != `{"id":"c1","source":"/s","specversion":"1.0","type":"T","data":{"a":1}}` {
		t.Errorf("CloudEvents record %+v, event %s", ce, ce.Event)
	}
	if custom.Format != DeadLetterEventGridSchema || string(custom.Data) != `{"orderId":"m1","kind":"Created"}` || custom.LastHTTPStatusCode != 400 {
		t.Errorf("custom record %+v", custom)
	}
}

func TestParseDeadLetterBlobRefusesWhatIsNotADeadLetter(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"id":"x"}`, `[{"id":"x"}]`, `[1]`, `not json`} {
		if _, err := ParseDeadLetterBlob("b.json", []byte(body)); err == nil {
			t.Errorf("%s parsed", body)
		}
	}
}
