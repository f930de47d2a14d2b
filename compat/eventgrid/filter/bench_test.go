package filter

import "testing"

// fiveFilters is a realistic subscription: an event type, a subject prefix
// and five advanced filters over envelope and nested data keys, every one of
// which passes for orderEvent, so Match evaluates all of them.
const fiveFilters = `{"includedEventTypes":["Order.Updated","Order.Created"],"subjectBeginsWith":"/ORDERS/",
  "enableAdvancedFilteringOnArrays":true,"advancedFilters":[
  {"operatorType":"NumberInRange","key":"data.n","values":[[1,3],[4,6]]},
  {"operatorType":"StringContains","key":"Data.S","values":["xyz","lo wo"]},
  {"operatorType":"StringNotIn","key":"data.strs","values":["blue","yellow"]},
  {"operatorType":"BoolEquals","key":"data.b","value":true},
  {"operatorType":"NumberGreaterThanOrEquals","key":"data.o.deep.er.est.v","value":7}]}`

func BenchmarkMatch(b *testing.B) {
	f := mustCompile(b, fiveFilters)
	ev := decodeEvent(b, orderEvent, EventGridSchema)
	if !f.Match(ev) {
		b.Fatal("the benchmark filter must match, or Match stops early")
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Match(ev)
	}
}

// Match runs for every event and subscription on the delivery path; it must
// not allocate. (Not parallel: AllocsPerRun forbids it.)
func TestMatchDoesNotAllocate(t *testing.T) {
	f := mustCompile(t, fiveFilters)
	ev := decodeEvent(t, orderEvent, EventGridSchema)
	if allocs := testing.AllocsPerRun(100, func() { f.Match(ev) }); allocs != 0 {
		t.Errorf("Match allocates %v times per call", allocs)
	}
}
