package eventbridge_test

import (
	"testing"
)

// operations lists every operation GridBridge serves.
var operations = []string{
	"CreateEventBus", "DescribeEventBus", "ListEventBuses", "UpdateEventBus", "DeleteEventBus", "PutPermission", "RemovePermission",
	"PutRule", "DescribeRule", "ListRules", "DeleteRule", "EnableRule", "DisableRule",
	"PutTargets", "RemoveTargets", "ListTargetsByRule", "ListRuleNamesByTarget", "PutEvents", "TestEventPattern",
	"TagResource", "UntagResource", "ListTagsForResource",
	"CreateArchive", "DescribeArchive", "ListArchives", "UpdateArchive", "DeleteArchive",
	"StartReplay", "DescribeReplay", "ListReplays", "CancelReplay",
	"CreateConnection", "DescribeConnection", "ListConnections", "UpdateConnection", "DeauthorizeConnection", "DeleteConnection",
	"CreateApiDestination", "DescribeApiDestination", "ListApiDestinations", "UpdateApiDestination", "DeleteApiDestination",
}

// TestBadInputNeverFails5xx sends every operation a range of malformed and
// half-formed bodies: each must be answered, and never with a 5xx.
func TestBadInputNeverFails5xx(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	bodies := []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"Name":null}`, `{"Name":""}`, `{"Name":"x"}`, `{"Name":{}}`, `{"Name":[1]}`,
		`{"Name":"r","EventPattern":"{\"a\":[1]}","EventBusName":"arn:aws:events:us-east-1:123456789012:event-bus/x"}`,
		`{"Rule":"r","Targets":[null]}`, `{"Rule":"r","Targets":[{}]}`, `{"Rule":"r","Ids":[null]}`, `{"Rule":"r","Ids":[]}`,
		`{"Entries":[{}]}`, `{"Entries":[null,{"Source":"a","DetailType":"b","Detail":"{}","Resources":[null]}]}`,
		`{"Entries":[{"Source":"a","DetailType":"b","Detail":"{}","Time":1e300}]}`,
		`{"EventPattern":"{}","Event":"null"}`, `{"EventPattern":null,"Event":null}`,
		`{"ResourceARN":"arn:aws:events:us-east-1:1:rule/a/b/c"}`, `{"ResourceARN":"x","Tags":[{}]}`, `{"ResourceARN":"x","TagKeys":[null]}`,
		`{"ArchiveName":"a","EventSourceArn":"arn:x"}`, `{"ReplayName":"r","Destination":{},"EventSourceArn":"x","EventStartTime":1,"EventEndTime":2}`,
		`{"Name":"c","AuthorizationType":"BASIC","AuthParameters":{}}`, `{"Name":"c","AuthorizationType":"OAUTH_CLIENT_CREDENTIALS","AuthParameters":{"OAuthParameters":{}}}`,
		`{"Name":"d","ConnectionArn":"x","InvocationEndpoint":"","HttpMethod":"X","InvocationRateLimitPerSecond":0}`,
		`{"Limit":-1,"NextToken":""}`, `{"NextToken":"!!"}`, `{"EventBusName":"a/b"}`,
		`{"Name":"r","EventPattern":"` + `{\"a\":` + `"}`, `{"Name":"r","ScheduleExpression":"rate(99999999999 days)"}`,
	}
	for _, op := range operations {
		for _, body := range bodies {
			r := h.raw(op, body)
			if r.Status >= 500 || r.Status == 0 {
				t.Errorf("%s %s: status %d: %s", op, body, r.Status, r.Text)
			}
			if r.Status >= 400 && r.Header.Get("X-Amzn-ErrorType") == "" {
				t.Errorf("%s %s: error without X-Amzn-ErrorType: %s", op, body, r.Text)
			}
		}
	}
}
