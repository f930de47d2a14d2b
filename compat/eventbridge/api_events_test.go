package eventbridge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func entry(detail string) types.PutEventsRequestEntry {
	return types.PutEventsRequestEntry{Source: aws.String("shop.orders"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(detail)}
}

func TestPutEventsEntries(t *testing.T) {
	h, c := startTest(t)
	noSource := entry(`{}`)
	noSource.Source = nil
	noType := entry(`{}`)
	noType.DetailType = nil
	noDetail := entry(`{}`)
	noDetail.Detail = nil
	unknownBus := entry(`{"a":1}`)
	unknownBus.EventBusName = aws.String("nope")
	out := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{
		entry(`{"id": 1}`), noSource, noType, noDetail, entry(`NotJSON`), entry(`[]`), entry(`"NotJSON"`), unknownBus,
	}}))
	if out.FailedEntryCount != 6 || len(out.Entries) != 8 {
		t.Fatalf("PutEvents: %d failed of %d", out.FailedEntryCount, len(out.Entries))
	}
	want := [][2]string{
		{"", ""},
		{"InvalidArgument", "Parameter Source is not valid. Reason: Source is a required argument."},
		{"InvalidArgument", "Parameter DetailType is not valid. Reason: DetailType is a required argument."},
		{"InvalidArgument", "Parameter Detail is not valid. Reason: Detail is a required argument."},
		{"MalformedDetail", "Detail is malformed."},
		{"MalformedDetail", "Detail is malformed."},
		{"MalformedDetail", "Detail is malformed."},
		{"", ""},
	}
	for i, w := range want {
		e := out.Entries[i]
		if aws.ToString(e.ErrorCode) != w[0] || aws.ToString(e.ErrorMessage) != w[1] || (w[0] == "") != (e.EventId != nil) {
			t.Errorf("entry %d: %s %q id=%v; want %s %q", i, aws.ToString(e.ErrorCode), aws.ToString(e.ErrorMessage), e.EventId, w[0], w[1])
		}
	}
	// The event for the missing bus is accepted, then dropped where the journal shows it.
	drops := h.Engine.Journal().Query(engine.Filter{Kind: engine.KindDrop, EventID: aws.ToString(out.Entries[7].EventId)})
	if len(drops) != 1 || drops[0].Outcome != "EventBusNotFound" {
		t.Fatalf("drop of the unknown-bus event: %+v", drops)
	}
	pubs := h.Engine.Journal().Query(engine.Filter{Kind: engine.KindPublish, Labels: map[string]string{"cloud": "eventbridge", "bus": "default"}})
	if len(pubs) != 1 || pubs[0].EventIDs[0] != aws.ToString(out.Entries[0].EventId) {
		t.Fatalf("publish journal: %+v", pubs)
	}
}

func TestPutEventsRequestLimits(t *testing.T) {
	h, c := startTest(t)
	var eleven []types.PutEventsRequestEntry
	for range 11 {
		eleven = append(eleven, entry(`{}`))
	}
	_, err := h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: eleven})
	apiError(t, err, "ValidationException", "")
	if msg := err.Error(); !strings.Contains(msg, "1 validation error detected: Value '[PutEventsRequestEntry(time=null, source=shop.orders, resources=null, detailType=OrderPlaced, detail={}, eventBusName=null, traceHeader=null), ") ||
		!strings.Contains(msg, "at 'entries' failed to satisfy constraint: Member must have length less than or equal to 10") {
		t.Fatalf("11 entries: %v", err)
	}
	big := entry(`{"x":"` + strings.Repeat("a", 256*1024) + `"}`)
	_, err = h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{big}})
	apiError(t, err, "ValidationException", "Total size of the entries in the request is over the limit.")
	_, err = h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{}})
	apiError(t, err, "ValidationException", "1 validation error detected: Value '[]' at 'entries' failed to satisfy constraint: Member must have length greater than or equal to 1")
}

func TestPutEventsEnvelope(t *testing.T) {
	h, c := startTest(t)
	putRule(t, h, "r", "", orderPattern)
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("r"), Targets: []types.Target{{Id: aws.String("q"), Arn: aws.String(queueArn)}}}))
	e := entry(`{ "b": 2, "a": [1.50, "x<y"] }`)
	e.Time = aws.Time(time.Date(2025, 12, 31, 23, 59, 58, 750e6, time.UTC))
	e.Resources = []string{"arn:aws:s3:::r1"}
	out := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{e}}))
	h.settle()
	msgs := h.sqs.Messages(queueArn)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	want := `{"version":"0","id":"` + aws.ToString(out.Entries[0].EventId) + `","detail-type":"OrderPlaced","source":"shop.orders","account":"123456789012",` +
		`"time":"2025-12-31T23:59:58Z","region":"us-east-1","resources":["arn:aws:s3:::r1"],"detail":{"b":2,"a":[1.50,"x<y"]}}`
	if string(msgs[0].Body) != want {
		t.Fatalf("envelope:\n got  %s\n want %s", msgs[0].Body, want)
	}
}

func TestTestEventPattern(t *testing.T) {
	h, c := startTest(t)
	event := `{"id":"1","account":"123456789012","source":"shop.orders","time":"2026-01-01T00:00:00Z","region":"us-east-1","detail-type":"x","detail":{}}`
	res := must[*ebsdk.TestEventPatternOutput](t)(h.client.TestEventPattern(c, &ebsdk.TestEventPatternInput{EventPattern: aws.String(orderPattern), Event: aws.String(event)}))
	if !res.Result {
		t.Fatal("pattern should match")
	}
	res = must[*ebsdk.TestEventPatternOutput](t)(h.client.TestEventPattern(c, &ebsdk.TestEventPatternInput{EventPattern: aws.String(`{"source":["other"]}`), Event: aws.String(event)}))
	if res.Result {
		t.Fatal("pattern should not match")
	}
	for _, bad := range []string{`"just a string"`, `[1,2]`, `{"id":"1","source":"x"}`, `not json`} {
		_, err := h.client.TestEventPattern(c, &ebsdk.TestEventPatternInput{EventPattern: aws.String(orderPattern), Event: aws.String(bad)})
		apiError(t, err, "ValidationException", "Parameter Event is not valid.")
	}
	_, err := h.client.TestEventPattern(c, &ebsdk.TestEventPatternInput{EventPattern: aws.String(`[1]`), Event: aws.String(event)})
	apiError(t, err, "InvalidEventPatternException", "Event pattern is not valid. Reason: Filter is not an object")
}
