package filter

import "testing"

func TestJSONEventLookup(t *testing.T) {
	t.Parallel()
	ev := decodeEvent(t, `{"id":"a","eventType":"T","subject":"/s",
		"data":{"key":2,"Key":1,"k":{"x.y":3,"x":{"y":4}},"n":5,"v":{"Key":1,"KEy":3}}}`, EventGridSchema)
	tests := []struct {
		key    string
		want   any
		wantOK bool
	}{
		{"id", "a", true},
		{"ID", "a", true},
		{"EventType", "T", true},
		{"data.key", 2.0, true}, // an exact name wins over a case-insensitive one
		{"data.Key", 1.0, true},
		{"data.KEY", 2.0, true},   // then the all-lower-case spelling
		{"data.v.kEY", 3.0, true}, // then the smallest name equal ignoring case
		{"data.K.X.Y", 4.0, true}, // lower-case first letter
		{"Data.k.x.y", 4.0, true}, // dots cannot be escaped: "x.y" is unreachable
		{"data.n.x", nil, false},  // below a scalar
		{"data.nope", nil, false},
		{"nope", nil, false},
		{"", nil, false},
		{"data.", nil, false},
	}
	for _, tc := range tests {
		got, ok := ev.Lookup(tc.key)
		if ok != tc.wantOK || got != tc.want {
			t.Errorf("Lookup(%q) = %v, %v; want %v, %v", tc.key, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestJSONEventEnvelope(t *testing.T) {
	t.Parallel()
	eg := decodeEvent(t, orderEvent, EventGridSchema)
	if eg.EventType() != "Order.Created" || eg.Subject() != "/orders/42" {
		t.Errorf("Event Grid event: type %q subject %q", eg.EventType(), eg.Subject())
	}
	ce := decodeEvent(t, cloudEvent, CloudEventSchema)
	if ce.EventType() != "com.example.someevent" || ce.Subject() != "" {
		t.Errorf("CloudEvent: type %q subject %q", ce.EventType(), ce.Subject())
	}
	empty := NewJSONEvent(nil, CloudEventSchema)
	if empty.EventType() != "" || empty.Subject() != "" {
		t.Error("an empty event has no type or subject")
	}
	if _, ok := empty.Lookup("data.x"); ok {
		t.Error("an empty event has no keys")
	}
}

// cloudEvent is the CloudEvents example of Azure's filtering doc, with a
// null subject and two extension attributes.
const cloudEvent = `{
  "specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext",
  "id": "C234-1234-1234", "time": "2018-04-05T17:31:00Z", "subject": null,
  "comexampleextension1": "value", "comexampleothervalue": 5, "comexampleflag": true,
  "datacontenttype": "application/json",
  "data": {"appinfoA": "abc", "appinfoB": 123, "appinfoC": true}
}`

func TestCloudEventKeys(t *testing.T) {
	t.Parallel()
	ev := decodeEvent(t, cloudEvent, CloudEventSchema)
	tests := []matchCase{
		{"type", `{"operatorType":"StringIn","key":"type","values":["COM.example.someevent"]}`, true},
		{"source", `{"operatorType":"StringBeginsWith","key":"source","values":["/my"]}`, true},
		{"specversion", `{"operatorType":"StringIn","key":"specversion","values":["1.0"]}`, true},
		{"id", `{"operatorType":"StringIn","key":"id","values":["c234-1234-1234"]}`, true},
		{"string extension", `{"operatorType":"StringIn","key":"comexampleextension1","values":["value"]}`, true},
		// The filtering doc's own example: a string operator on a numeric
		// extension attribute compares its text.
		{"numeric extension as text", `{"operatorType":"StringBeginsWith","key":"comexampleothervalue","values":["5","1"]}`, true},
		{"numeric extension as number", `{"operatorType":"NumberIn","key":"comexampleothervalue","values":[5]}`, true},
		{"boolean extension as text", `{"operatorType":"StringIn","key":"comexampleflag","values":["TRUE"]}`, true},
		{"numeric data is not text", `{"operatorType":"StringIn","key":"data.appinfoB","values":["123"]}`, false},
		{"numeric data", `{"operatorType":"NumberIn","key":"data.appinfoB","values":[123]}`, true},
		{"null subject is undefined", `{"operatorType":"IsNullOrUndefined","key":"subject"}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := mustCompile(t, `{"advancedFilters":[`+tc.filter+`]}`)
			if got := f.Match(ev); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNestedKeys(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"five levels below data", `{"operatorType":"NumberIn","key":"data.o.deep.er.est.v","values":[7]}`, true},
		{"any casing", `{"operatorType":"NumberIn","key":"DATA.O.Deep.ER.est.V","values":[7]}`, true},
		{"envelope key in doc casing", `{"operatorType":"StringBeginsWith","key":"Subject","values":["/ORDERS/"]}`, true},
		{"topic", `{"operatorType":"StringEndsWith","key":"Topic","values":["/topics/t"]}`, true},
		{"dataVersion", `{"operatorType":"StringIn","key":"DataVersion","values":["1.0"]}`, true},
	})
}
