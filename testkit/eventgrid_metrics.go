package testkit

import (
	"context"
	"strings"
)

// RouteMetrics reads GET /_emulator/metrics and returns the counters of the
// one route f selects (by labels or Route), failing the test when it
// selects none or several. State is "Active", or the hold in force on an
// Event Grid subscription: "Probation" (EG-18) or "DelayedDelivery"
// (EG-17), until HeldUntil:
//
//	m := emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "audit"})
//	if m.State != "Probation" { … }
func (e *Emulator) RouteMetrics(f Filter) RouteMetrics {
	e.t.Helper()
	if f.Outcome != "" || f.EventID != "" {
		e.fatalf("metrics are per route; drop Outcome/EventID from %s", f)
	}
	view, err := e.inspect.Metrics(context.Background())
	if err != nil {
		e.fatalf("reading metrics: %v", err)
	}
	want := e.faultFor(f, Fault{}) // the same route selection as faults
	var found []RouteMetrics
	for _, m := range view.Routes {
		if want.Route != "" && m.Route != want.Route {
			continue
		}
		match := true
		for k, v := range want.Match {
			if m.Labels[k] != v {
				match = false
			}
		}
		if match {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		ids := make([]string, len(view.Routes))
		for i, m := range view.Routes {
			ids[i] = m.Route
		}
		e.fatalf("%s selects %d routes, want exactly one; routes: %s", f, len(found), strings.Join(ids, ", "))
	}
	return found[0]
}
