package eventsv2

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestEB_D1_EventBusLifecycle(t *testing.T) {
	h := startTest(t)
	var created eventBusShape
	h.mustCall("CreateEventBus", m{"Name": "orders", "Description": "order events", "RetentionPeriodInSeconds": 3600}, &created)
	if !strings.HasPrefix(created.EventBusArn, "arn:aws:events:us-east-1:111122223333:event-busv2/orders/") {
		t.Fatalf("bus ARN %q", created.EventBusArn)
	}
	if created.RetentionPeriodInSeconds != 3600 || created.Description != "order events" || created.CreationTime == nil || !created.CreationTime.Equal(t0) {
		t.Fatalf("created = %+v", created)
	}
	h.wantAPIError("CreateEventBus", m{"Name": "orders"}, "ResourceAlreadyExistsException", "Event bus orders already exists.")

	for _, id := range []string{"orders", created.EventBusArn} {
		var got eventBusShape
		h.mustCall("DescribeEventBus", m{"Name": id}, &got)
		if got.EventBusArn != created.EventBusArn || got.Name != "orders" {
			t.Fatalf("describe %s = %+v", id, got)
		}
	}
	// A stale ARN (a re-created bus has a new id) is not the bus.
	stale := strings.TrimSuffix(created.EventBusArn, created.EventBusArn[strings.LastIndex(created.EventBusArn, "/")+1:]) + "0000"
	h.wantAPIError("DescribeEventBus", m{"Name": stale}, "ResourceNotFoundException", "does not exist")
	h.wantAPIError("DescribeEventBus", m{"Name": "nope"}, "ResourceNotFoundException", "Event bus nope does not exist.")

	var def eventBusShape
	h.mustCall("CreateEventBus", m{"Name": "payments"}, &def)
	if def.RetentionPeriodInSeconds != int64(defaultRetention/time.Second) {
		t.Fatalf("default retention = %d", def.RetentionPeriodInSeconds)
	}

	// Another account sees its own buses only.
	other := *h.api
	other.account = "444455556666"
	var none listEventBusesOutput
	if err := other.call("ListEventBuses", m{}, &none); err != nil || len(none.EventBuses) != 0 {
		t.Fatalf("other account lists %+v, %v", none, err)
	}

	var page1, page2 listEventBusesOutput
	h.mustCall("ListEventBuses", m{"MaxResults": 1}, &page1)
	if len(page1.EventBuses) != 1 || page1.EventBuses[0].Name != "orders" || page1.NextToken == "" {
		t.Fatalf("page 1 = %+v", page1)
	}
	h.mustCall("ListEventBuses", m{"MaxResults": 1, "NextToken": page1.NextToken}, &page2)
	if len(page2.EventBuses) != 1 || page2.EventBuses[0].Name != "payments" || page2.NextToken != "" {
		t.Fatalf("page 2 = %+v", page2)
	}
	var prefixed listEventBusesOutput
	h.mustCall("ListEventBuses", m{"NamePrefix": "pay"}, &prefixed)
	if len(prefixed.EventBuses) != 1 || prefixed.EventBuses[0].Name != "payments" {
		t.Fatalf("prefix = %+v", prefixed)
	}
	h.wantAPIError("ListEventBuses", m{"NextToken": "!!"}, "ValidationException", "NextToken")

	h.createSubscriber(m{"Name": "s1", "EventBusArn": created.EventBusArn, "InvokeConfiguration": m{"TargetArn": "arn:aws:lambda:us-east-1:111122223333:function:f"}})
	h.wantAPIError("DeleteEventBus", m{"Name": "orders"}, "ValidationException", "still has 1 subscriber(s) (s1)")
	h.mustCall("DeleteSubscriber", m{"Name": "s1"}, nil)
	h.mustCall("DeleteEventBus", m{"Name": created.EventBusArn}, nil)
	h.wantAPIError("DeleteEventBus", m{"Name": "orders"}, "ResourceNotFoundException")
}

func TestEB_D1_SubscriberLifecycle(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	created := h.createSubscriber(m{
		"Name": "large-orders", "EventBusArn": bus, "Description": "big ones",
		"FilterConfiguration":    m{"Filters": []m{{"Scope": "EVENT", "Pattern": `{"detail":{"total":[{"numeric":[">",100]}]}}`}}},
		"InvokeConfiguration":    m{"TargetArn": "arn:aws:sqs:us-east-1:111122223333:large-orders", "RoleArn": "arn:aws:iam::111122223333:role/EventBusDeliveryRole"},
		"OnFailureConfiguration": m{"Arn": memoryDLQ},
	})
	if !strings.HasPrefix(created.SubscriberArn, "arn:aws:events:us-east-1:111122223333:subscriber/large-orders/") {
		t.Fatalf("subscriber ARN %q", created.SubscriberArn)
	}
	// EB-2 defaults are reported as in effect.
	if *created.RetryPolicy.MaxRetryAttempts != 5 || *created.RetryPolicy.MaxEventAgeInSeconds != 300 {
		t.Fatalf("retry policy = %+v", created.RetryPolicy)
	}
	if created.StartingPosition != StartingLatest || *created.InvokeConfiguration.MaxBatchSize != 1 || *created.InvokeConfiguration.InvocationTimeoutSeconds != 30 {
		t.Fatalf("created = %+v", created)
	}
	h.wantAPIError("CreateSubscriber", m{"Name": "large-orders", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": "https://example.com/hook"}},
		"ResourceAlreadyExistsException", "Subscriber large-orders already exists.")

	var byARN, byName subscriberShape
	h.mustCall("DescribeSubscriber", m{"Name": created.SubscriberArn}, &byARN)
	h.mustCall("DescribeSubscriber", m{"Name": "large-orders"}, &byName)
	a, _ := json.Marshal(byARN)
	b, _ := json.Marshal(byName)
	c, _ := json.Marshal(created)
	if string(a) != string(b) || string(a) != string(c) {
		t.Fatalf("describe differs:\n%s\n%s\n%s", a, b, c)
	}

	h.advance(time.Minute)
	var updated subscriberShape
	h.mustCall("UpdateSubscriber", m{"Name": "large-orders", "RetryPolicy": m{"MaxRetryAttempts": 0}, "OnFailureConfiguration": m{"Arn": ""}}, &updated)
	if *updated.RetryPolicy.MaxRetryAttempts != 0 || *updated.RetryPolicy.MaxEventAgeInSeconds != 300 || updated.OnFailureConfiguration != nil {
		t.Fatalf("updated = %+v", updated)
	}
	if updated.FilterConfiguration == nil || updated.Description != "big ones" || !updated.LastModifiedTime.Equal(t0.Add(time.Minute)) {
		t.Fatalf("update lost settings: %+v", updated)
	}

	other := h.createBus("payments")
	h.createSubscriber(m{"Name": "audit", "EventBusArn": other, "InvokeConfiguration": m{"TargetArn": "https://example.com/audit"}})
	var onOrders, all listSubscribersOutput
	h.mustCall("ListSubscribers", m{"EventBusArn": bus}, &onOrders)
	h.mustCall("ListSubscribers", m{}, &all)
	if len(onOrders.Subscribers) != 1 || onOrders.Subscribers[0].Name != "large-orders" || len(all.Subscribers) != 2 {
		t.Fatalf("list on bus = %+v, all = %d", onOrders.Subscribers, len(all.Subscribers))
	}

	h.mustCall("DeleteSubscriber", m{"Name": created.SubscriberArn}, nil)
	h.wantAPIError("DescribeSubscriber", m{"Name": "large-orders"}, "ResourceNotFoundException", "Subscriber large-orders does not exist.")
	h.wantAPIError("DeleteSubscriber", m{"Name": created.SubscriberArn}, "ResourceNotFoundException")
}

// TestEB2_EB_D1_Validation checks that every limit is enforced on the
// server with a message that names the member and the rule.
func TestEB2_EB_D1_Validation(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	base := func(extra m) m {
		in := m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": "https://example.com/x"}}
		for k, v := range extra {
			in[k] = v
		}
		return in
	}
	cases := []struct {
		name string
		in   m
		code string
		want []string
	}{
		{"EB-2 MaxRetryAttempts above 185", base(m{"RetryPolicy": m{"MaxRetryAttempts": 186}}), "ValidationException",
			[]string{"1 validation error detected: Value '186' at 'retryPolicy.maxRetryAttempts' failed to satisfy constraint: Member must have value less than or equal to 185"}},
		{"EB-2 MaxRetryAttempts below 0", base(m{"RetryPolicy": m{"MaxRetryAttempts": -1}}), "ValidationException",
			[]string{"Value '-1' at 'retryPolicy.maxRetryAttempts'", "greater than or equal to 0"}},
		{"EB-2 MaxEventAgeInSeconds below 60", base(m{"RetryPolicy": m{"MaxEventAgeInSeconds": 59}}), "ValidationException",
			[]string{"Value '59' at 'retryPolicy.maxEventAgeInSeconds'", "greater than or equal to 60"}},
		{"EB-2 MaxEventAgeInSeconds above 86400", base(m{"RetryPolicy": m{"MaxEventAgeInSeconds": 86401}}), "ValidationException",
			[]string{"less than or equal to 86400"}},
		{"two violations at once", base(m{"RetryPolicy": m{"MaxRetryAttempts": 200, "MaxEventAgeInSeconds": 1}}), "ValidationException",
			[]string{"2 validation errors detected"}},
		{"missing name and invoke configuration", m{"EventBusArn": bus}, "ValidationException",
			[]string{"Value null at 'name' failed to satisfy constraint: Member must not be null", "'invokeConfiguration'"}},
		{"bad name", base(m{"Name": "a b"}), "ValidationException", []string{"Member must satisfy regular expression pattern"}},
		{"bad starting position", base(m{"StartingPosition": "EARLIEST"}), "ValidationException", []string{"enum value set: [LATEST, POINT_IN_TIME]"}},
		{"POINT_IN_TIME without configuration", base(m{"StartingPosition": "POINT_IN_TIME"}), "ValidationException", []string{"requires a PointInTimeConfiguration"}},
		{"LATEST with a point in time", base(m{"PointInTimeConfiguration": m{"PointType": "TIMESTAMP", "StartingPoint": t0.Unix()}}), "ValidationException", []string{"only to StartingPosition POINT_IN_TIME"}},
		{"end before start", base(m{"StartingPosition": "POINT_IN_TIME", "PointInTimeConfiguration": m{"PointType": "TIMESTAMP", "StartingPoint": t0.Unix(), "EndPoint": t0.Unix() - 1}}),
			"ValidationException", []string{"EndPoint must not be before StartingPoint"}},
		{"bad point type", base(m{"StartingPosition": "POINT_IN_TIME", "PointInTimeConfiguration": m{"PointType": "SEQUENCE", "StartingPoint": t0.Unix()}}),
			"ValidationException", []string{"enum value set: [TIMESTAMP]"}},
		{"bad scope", base(m{"FilterConfiguration": m{"Filters": []m{{"Scope": "HEADERS", "Pattern": `{"a":["b"]}`}}}}), "ValidationException",
			[]string{"'filterConfiguration.filters.1.member.scope'"}},
		{"bad pattern", base(m{"FilterConfiguration": m{"Filters": []m{{"Scope": "EVENT", "Pattern": `{"a":"b"}`}}}}), "InvalidEventPatternException",
			[]string{"Event pattern is not valid. Reason:"}},
		{"no filters", base(m{"FilterConfiguration": m{"Filters": []m{}}}), "ValidationException", []string{"filterConfiguration.filters"}},
		{"target not an ARN", base(m{"InvokeConfiguration": m{"TargetArn": "large-orders"}}), "ValidationException", []string{"Parameter InvokeConfiguration.TargetArn is not valid"}},
		{"role not a role", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "RoleArn": "arn:aws:iam::111122223333:user/bob"}}), "ValidationException", []string{"is not an IAM role ARN"}},
		{"batch size 11", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "MaxBatchSize": 11}}), "ValidationException", []string{"'invokeConfiguration.maxBatchSize'"}},
		{"timeout 0", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "InvocationTimeoutSeconds": 0}}), "ValidationException", []string{"'invokeConfiguration.invocationTimeoutSeconds'"}},
		{"input and transformer", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "Input": "$.detail", "Transformer": m{"InputTemplate": "{}"}}}), "ValidationException", []string{"Only one of Input or Transformer"}},
		{"input not a path", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "Input": "detail"}}), "ValidationException", []string{"is not a JSONPath"}},
		{"unknown placeholder", base(m{"InvokeConfiguration": m{"TargetArn": "https://example.com/x", "Transformer": m{"InputTemplate": `{"a":<nope>}`}}}), "ValidationException", []string{"invalid placeholder nope"}},
		{"dead-letter queue not SQS", base(m{"OnFailureConfiguration": m{"Arn": "arn:aws:sns:us-east-1:111122223333:t"}}), "ValidationException", []string{"dead-letter records go to SQS queues only"}},
		{"EB-10 FIFO target with a standard queue", base(m{"InvokeConfiguration": m{"TargetArn": "arn:aws:sqs:us-east-1:111122223333:q.fifo"}, "OnFailureConfiguration": m{"Arn": memoryDLQ}}), "ValidationException", []string{"must be a FIFO queue"}},
		{"unknown bus", base(m{"EventBusArn": "arn:aws:events:us-east-1:111122223333:event-busv2/nope/1"}), "ResourceNotFoundException", []string{"does not exist"}},
		{"bus ARN of another kind", base(m{"EventBusArn": "arn:aws:events:us-east-1:111122223333:event-bus/default"}), "ValidationException", []string{"is not an event bus v2 ARN"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h.t = t
			h.wantAPIError("CreateSubscriber", tc.in, tc.code, tc.want...)
		})
	}
	h.t = t
	var none listSubscribersOutput
	h.mustCall("ListSubscribers", m{}, &none)
	if len(none.Subscribers) != 0 {
		t.Fatalf("a rejected request created %+v", none.Subscribers)
	}
	h.wantAPIError("CreateEventBus", m{"Name": "x", "RetentionPeriodInSeconds": 60}, "ValidationException", "retentionPeriodInSeconds", "greater than or equal to 3600")
}

// TestEB_D1_BadInputNeverPanicsNever5xx throws malformed and mistyped
// bodies at every operation: each gets a 4xx AWS error.
func TestEB_D1_BadInputNeverPanicsNever5xx(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	bodies := []string{
		``, `null`, `[]`, `"x"`, `42`, `{`, `{"Name":`, `{"Name":1}`, `{"Name":null}`, `{"Name":{}}`, `{"Name":[]}`,
		`{"Name":"` + strings.Repeat("a", 5000) + `"}`, `{"Entries":{}}`, `{"Entries":[1]}`, `{"Entries":[{"Time":"yesterday"}]}`,
		`{"Entries":[{"Time":1e300}]}`, `{"Entries":[{}]}`, `{"MaxResults":-5}`, `{"MaxResults":1.5}`, `{"NextToken":""}`,
		`{"RetryPolicy":{"MaxRetryAttempts":"5"}}`, `{"RetryPolicy":{"MaxRetryAttempts":99999999999}}`,
		`{"Name":"s","EventBusArn":"` + bus + `","InvokeConfiguration":{"TargetArn":"https://x"},"FilterConfiguration":{"Filters":[{}]}}`,
		`{"Name":"s","EventBusArn":"` + bus + `","InvokeConfiguration":{"TargetArn":"https://x"},"FilterConfiguration":{"Filters":null}}`,
		`{"Name":"s","EventBusArn":"` + bus + `","InvokeConfiguration":{"TargetArn":"https://x"},"PointInTimeConfiguration":{}}`,
		`{"Name":"s","EventBusArn":"` + bus + `","InvokeConfiguration":{"TargetArn":"https://x"},"StartingPosition":"POINT_IN_TIME","PointInTimeConfiguration":{"PointType":"TIMESTAMP","StartingPoint":"not a time"}}`,
		`{"Name":"s","EventBusArn":"` + bus + `","InvokeConfiguration":{"TargetArn":"https://x","Transformer":{"InputPathsMap":{"a":"nope"},"InputTemplate":"<a>"}}}`,
		`{"Name":"arn:aws:events:us-east-1:111122223333:subscriber/x"}`, `{"Name":"arn:"}`, `{"EventBusArn":"arn:aws:events:::"}`,
	}
	for _, o := range operations() {
		for _, body := range bodies {
			status, header, resp, err := h.api.raw(o.name, []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			if status >= 500 {
				t.Errorf("%s %s: %d %s", o.name, body, status, resp)
			}
			if status != http.StatusOK && header.Get("X-Amzn-ErrorType") == "" {
				t.Errorf("%s %s: %d without X-Amzn-ErrorType", o.name, body, status)
			}
		}
	}
	h.wantAPIError("Frobnicate", m{}, "UnknownOperationException", "Frobnicate")
	status, header, _, _ := h.api.raw("CreateEventBus", []byte(`{"Name":`))
	if status != http.StatusBadRequest || header.Get("X-Amzn-ErrorType") != "SerializationException" {
		t.Fatalf("malformed JSON: %d %s", status, header.Get("X-Amzn-ErrorType"))
	}
}

func TestEB_D1_PutEventsPerEntryResults(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	var out putEventsOutput
	h.mustCall("PutEvents", m{"Entries": []m{
		{"EventBusArn": bus, "Source": "s", "DetailType": "d", "Detail": `{"ok":true}`},
		{"EventBusArn": bus, "DetailType": "d", "Detail": `{}`},
		{"EventBusArn": bus, "Source": "s", "DetailType": "d", "Detail": `[1]`},
		{"EventBusArn": "nope", "Source": "s", "DetailType": "d", "Detail": `{}`},
		{"EventBusArn": "orders", "Source": "s", "DetailType": "d", "Detail": `{}`, "EventGroupId": strings.Repeat("g", 129)},
		{"EventBusArn": "orders", "Source": "s", "DetailType": "d", "Detail": `{}`, "Time": "2026-09-16T18:00:00Z"},
	}}, &out)
	want := []string{"", "InvalidArgument", "MalformedDetail", "ResourceNotFoundException", "InvalidArgument", ""}
	if out.FailedEntryCount != 4 || len(out.Entries) != len(want) {
		t.Fatalf("out = %+v", out)
	}
	for i, w := range want {
		if out.Entries[i].ErrorCode != w || (w == "") != (out.Entries[i].EventId != "") {
			t.Errorf("entry %d = %+v, want code %q", i, out.Entries[i], w)
		}
	}
	tooMany := make([]m, 11)
	for i := range tooMany {
		tooMany[i] = m{"EventBusArn": bus, "Source": "s", "DetailType": "d", "Detail": `{}`}
	}
	h.wantAPIError("PutEvents", m{"Entries": tooMany}, "ValidationException", "'entries'", "less than or equal to 10")
	h.wantAPIError("PutEvents", m{"Entries": []m{{"EventBusArn": bus, "Source": "s", "DetailType": "d", "Detail": `{"a":"` + strings.Repeat("x", 300_000) + `"}`}}},
		"ValidationException", "Total size of the entries in the request is over the limit.")
}

// TestEB_D1_DeduplicationId checks that a repeated DeduplicationId within
// the window gets the first event's id and is delivered once.
func TestEB_D1_DeduplicationId(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	sub := h.createSubscriber(m{"Name": "s", "EventBusArn": bus, "InvokeConfiguration": m{"TargetArn": "arn:aws:lambda:us-east-1:111122223333:function:f"}})
	first := h.put(bus, m{"DeduplicationId": "order-1"})
	again := h.put(bus, m{"DeduplicationId": "order-1"})
	h.advance(deduplicationWindow)
	later := h.put(bus, m{"DeduplicationId": "order-1"})
	h.settle()
	if first[0] != again[0] || later[0] == first[0] {
		t.Fatalf("ids %v %v %v", first, again, later)
	}
	if n := len(h.journal("delivered", sub.SubscriberArn)); n != 2 {
		t.Fatalf("delivered %d times, want 2", n)
	}
}

func TestEB_D1_AccountAndRegionFromSignature(t *testing.T) {
	h := startTest(t)
	c := *h.api
	c.account, c.region = "AKIDEXAMPLE", "eu-west-1"
	var out eventBusShape
	if err := c.call("CreateEventBus", m{"Name": "orders"}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "arn:aws:events:eu-west-1:000000000000:event-busv2/orders/"; !strings.HasPrefix(out.EventBusArn, want) {
		t.Fatalf("ARN %s, want prefix %s", out.EventBusArn, want)
	}
	// The ARN names the account and region, so any caller can use it.
	h.mustCall("DescribeEventBus", m{"Name": out.EventBusArn}, nil)
	h.wantAPIError("DescribeEventBus", m{"Name": "orders"}, "ResourceNotFoundException")
}

// TestEB_D1_OtherTargetsOnSlashUntouched checks the header matcher: a
// request to "/" with another X-Amz-Target is not answered by this face.
func TestEB_D1_OtherTargetsOnSlashUntouched(t *testing.T) {
	h := startTest(t)
	for _, target := range []string{"AWSEvents.PutRule", "AWSEventsV2", "AmazonSQS.SendMessage", ""} {
		req, _ := http.NewRequest(http.MethodPost, h.api.url+"/", strings.NewReader(`{}`))
		if target != "" {
			req.Header.Set("X-Amz-Target", target)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTeapot {
			t.Errorf("X-Amz-Target %q reached the v2 face: %d", target, resp.StatusCode)
		}
	}
}

// TestEB_D1_GroupAndDeduplicationIdCharacters: the ids a FIFO queue
// receives follow SQS's character rule; a CR LF, NUL or space is refused
// per entry, not accepted and failed at delivery.
func TestEB_D1_GroupAndDeduplicationIdCharacters(t *testing.T) {
	h := startTest(t)
	bus := h.createBus("orders")
	entry := func(field, v string) m {
		return m{"EventBusArn": bus, "Source": "s", "DetailType": "d", "Detail": `{}`, field: v}
	}
	var out putEventsOutput
	h.mustCall("PutEvents", m{"Entries": []m{
		entry("DeduplicationId", "a\r\nb"), entry("EventGroupId", "g\x00"), entry("EventGroupId", "two words"),
		entry("DeduplicationId", "é"), entry("EventGroupId", `ok!"#$%&'()*+,-./:;<=>?@[\]^_{|}~`), entry("DeduplicationId", "Order-1"),
	}}, &out)
	want := []string{"InvalidArgument", "InvalidArgument", "InvalidArgument", "InvalidArgument", "", ""}
	for i, w := range want {
		if i >= len(out.Entries) || out.Entries[i].ErrorCode != w {
			t.Fatalf("entries = %+v, want codes %q", out.Entries, want)
		}
	}
	if !strings.Contains(out.Entries[0].ErrorMessage, "DeduplicationId") || !strings.Contains(out.Entries[1].ErrorMessage, "EventGroupId") {
		t.Fatalf("messages do not name the field: %+v", out.Entries)
	}
}
