package awsmodel_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel/modeltest"
)

// The pre-check never clears a body that breaks a constraint: every
// generated case is left to the full check.
func TestQuickClearsNoBrokenBody(t *testing.T) {
	t.Parallel()
	for _, svc := range []*awsmodel.Service{awsmodel.EventBridge(), awsmodel.SQS(), awsmodel.Scheduler(), awsmodel.Pipes()} {
		c := awsmodel.NewChecker(svc, awsmodel.Wording{})
		cases, _ := modeltest.Cases(svc, awsmodel.Wording{})
		for _, tc := range cases {
			if len(tc.Labels)+len(tc.Query)+len(tc.Header) > 0 {
				continue
			}
			body, _ := json.Marshal(tc.Body)
			if c.Quick(tc.Op, body) {
				t.Errorf("%s %s: cleared %s", svc.Name, tc.Name(), body)
			}
		}
	}
}

// A good PutEvents of ten entries is cleared without decoding, and
// without an allocation: the check costs the hot path next to nothing.
func TestQuickClearsAGoodPutEventsWithoutAllocating(t *testing.T) {
	c := awsmodel.NewChecker(awsmodel.EventBridge(), awsmodel.Wording{})
	entry := `{"Source":"shop.orders","DetailType":"OrderPlaced","Detail":"{\"order\":{\"id\":\"o-1\"}}","EventBusName":"orders","Resources":["arn:aws:s3:::b"]}`
	body := []byte(`{"Entries":[` + strings.TrimSuffix(strings.Repeat(entry+",", 10), ",") + `]}`)
	if !c.Quick("PutEvents", body) {
		t.Fatal("a good PutEvents was not cleared")
	}
	if vs := c.Check("PutEvents", awsmodel.Input{Body: body}); len(vs) > 0 {
		t.Fatalf("violations: %v", vs)
	}
	if raceEnabled {
		return
	}
	if allocs := testing.AllocsPerRun(100, func() { c.Check("PutEvents", awsmodel.Input{Body: body}) }); allocs > 0 {
		t.Fatalf("%v allocations per check", allocs)
	}
}

// BenchmarkCheckPutEvents is the check's cost on a good PutEvents of ten
// entries (the pre-check alone), beside BenchmarkDecodePutEvents, the
// encoding/json decode of the same body into generic values that the full
// check would need.
func BenchmarkCheckPutEvents(b *testing.B) {
	c := awsmodel.NewChecker(awsmodel.EventBridge(), awsmodel.Wording{})
	body := putEventsBody()
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if vs := c.Check("PutEvents", awsmodel.Input{Body: body}); vs != nil {
			b.Fatal(vs)
		}
	}
}

func BenchmarkDecodePutEvents(b *testing.B) {
	body := putEventsBody()
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func putEventsBody() []byte {
	entry := `{"Source":"shop.orders","DetailType":"OrderPlaced","Detail":"{\"order\":{\"id\":\"o-1\",\"total\":12.5,\"items\":[\"a\",\"b\"]}}"}`
	return []byte(`{"Entries":[` + strings.TrimSuffix(strings.Repeat(entry+",", 10), ",") + `]}`)
}
