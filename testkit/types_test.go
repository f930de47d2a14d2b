package testkit

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// TestTypesDecodeEveryFieldTheServerSends: each testkit type mirrors what
// the inspection API writes; a field the server adds without the testkit
// taking it would be lost to users.
func TestTypesDecodeEveryFieldTheServerSends(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ server, kit any }{
		{engine.EntryView{}, Entry{}},
		{engine.RequestView{}, Request{}},
		{emulator.JournalPage{}, JournalPage{}},
		{emulator.InfoView{}, Info{}},
		{emulator.ClockView{}, Clock{}},
		{emulator.MetricsView{}, Metrics{}},
		{engine.Stats{}, JournalStats{}},
		{engine.RouteMetrics{}, RouteMetrics{}},
		{eventgrid.QueueMetrics{}, QueueMetrics{}},
		{emulator.PipeMetrics{}, PipeMetrics{}},
		{sqs.QueueMetrics{}, SQSQueueMetrics{}},
		{engine.Fault{}, Fault{}},
		{engine.APIFault{}, APIFault{}},
		{emulator.SQSMessageView{}, SQSMessage{}},
		{engine.Attribute{}, SQSAttribute{}},
	} {
		have := jsonNames(reflect.TypeOf(c.kit))
		for name := range jsonNames(reflect.TypeOf(c.server)) {
			if !have[name] {
				t.Errorf("%T has no field for %q, which %T writes", c.kit, name, c.server)
			}
		}
	}
}

// jsonNames are the JSON member names a struct type encodes, embedded
// structs' included.
func jsonNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for n := range jsonNames(f.Type) {
				out[n] = true
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = true
	}
	return out
}

func TestKindsAreTheEngines(t *testing.T) {
	t.Parallel()
	for kit, eng := range map[string]string{
		KindPublish: engine.KindPublish, KindAttempt: engine.KindAttempt, KindDelivered: engine.KindDelivered,
		KindDeadLetter: engine.KindDeadLetter, KindDrop: engine.KindDrop, KindDeferred: engine.KindDeferred,
		KindPoll: engine.KindPoll, KindFilter: engine.KindFilter, KindAPIFault: engine.KindAPIFault,
	} {
		if kit != eng {
			t.Errorf("testkit kind %q, engine kind %q", kit, eng)
		}
	}
}
