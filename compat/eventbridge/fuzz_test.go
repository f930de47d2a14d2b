package eventbridge_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	gbeb "github.com/gridbridge/gridbridge/compat/eventbridge"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// fuzzOperations are the AWSEvents targets the fuzzer sends bodies to; the
// fuzzer picks one by index, or an unknown one past the end.
var fuzzOperations = []string{"PutEvents", "PutRule", "PutTargets", "CreateEventBus", "TestEventPattern",
	"CreateConnection", "CreateApiDestination", "CreateArchive", "StartReplay", "ListRules", "TagResource",
	"DescribeRule", "RemoveTargets", "UpdateConnection", "PutPermission"}

// FuzzAWSJSONRequest: any AWS JSON 1.1 body, to any operation, is answered
// in EventBridge's shape with a 2xx or 4xx; never a panic or a 5xx. Each
// run starts from an empty service, so nothing is ever delivered.
func FuzzAWSJSONRequest(f *testing.F) {
	for i, body := range []string{
		`{"Entries":[{"Source":"shop","DetailType":"d","Detail":"{\"a\":1}"}]}`,
		`{"Name":"r","EventPattern":"{\"source\":[\"shop\"]}","ScheduleExpression":"rate(5 minutes)"}`,
		`{"Rule":"r","Targets":[{"Id":"t","Arn":"arn:aws:sqs:us-east-1:000000000000:q","InputTransformer":{"InputPathsMap":{"a":"$.detail"},"InputTemplate":"<a>"}}]}`,
		`{"Name":"bus","Tags":[{"Key":"k","Value":"v"}]}`,
		`{"Event":"{\"source\":\"s\"}","EventPattern":"{\"source\":[\"s\"]}"}`,
		`{"Name":"c","AuthorizationType":"API_KEY","AuthParameters":{"ApiKeyAuthParameters":{"ApiKeyName":"k","ApiKeyValue":"v"}}}`,
		`{"Name":"d","ConnectionArn":"arn:aws:events:us-east-1:000000000000:connection/c/1","InvocationEndpoint":"https://x/*","HttpMethod":"POST"}`,
		`{"ArchiveName":"a","EventSourceArn":"arn:aws:events:us-east-1:000000000000:event-bus/default","RetentionDays":-1}`,
		`{"ReplayName":"r","EventStartTime":1e300,"EventEndTime":"x"}`,
		`{"Limit":0,"NextToken":"\u0000"}`,
		`{"ResourceARN":"arn","Tags":null}`,
		`{"Name":123}`, `[]`, `{`, ``, `{"Entries":[null]}`,
	} {
		f.Add(uint8(i), body)
	}
	f.Fuzz(func(t *testing.T, op uint8, body string) {
		target := "AWSEvents.Unknown"
		if int(op) < len(fuzzOperations) {
			target = "AWSEvents." + fuzzOperations[op]
		}
		eng := engine.New(engine.NewVirtualClock(t0, 0), engine.NewJournal(0))
		svc := gbeb.New(gbeb.Config{Engine: eng, SQS: sqs.New(sqs.Config{Clock: eng.Clock()}).Queues()})
		defer svc.Reset()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/events/aws4_request, SignedHeaders=host, Signature=x")
		rec := httptest.NewRecorder()
		svc.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q = %d %s", target, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"__type"`) {
			t.Fatalf("%s %q = %d without AWS's error shape: %s", target, body, rec.Code, rec.Body)
		}
	})
}
