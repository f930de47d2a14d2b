package testkit

import (
	"context"
	"net/http"
	"net/url"
)

// FailDeliveries makes the next count delivery attempts on the routes f
// selects fail with the HTTP status, without reaching the destination
// (count 0: until the fault is removed). It works for every destination,
// the captured ones (Service Bus, Event Hubs, Azure Functions, Hybrid
// Connections) included, so their retry and dead-letter paths can be
// tested; the outcome is named as Event Grid names that status (EG-24):
//
//	emu.FailDeliveries(testkit.Filter{Subscription: "to-servicebus"}, 503, 2)
//	// two attempts fail Busy and are retried per EG-7/EG-8; the third is delivered
//
// Faults select routes by their labels (topic, subscription, bus, rule,
// target, Labels) or by Route; a Filter with an Outcome or EventID cannot
// select a route and fails the test.
func (e *Emulator) FailDeliveries(f Filter, status, count int) Fault {
	e.t.Helper()
	return e.AddFault(e.faultFor(f, Fault{Status: status, Count: count}))
}

// FailDeliveriesWithOutcome is FailDeliveries for failures that have no
// HTTP status, named as the cloud names them:
//
//	emu.FailDeliveriesWithOutcome(testkit.Filter{Subscription: "audit"}, "TimedOut", 1)
func (e *Emulator) FailDeliveriesWithOutcome(f Filter, outcome string, count int) Fault {
	e.t.Helper()
	return e.AddFault(e.faultFor(f, Fault{Outcome: outcome, Count: count}))
}

func (e *Emulator) faultFor(f Filter, rule Fault) Fault {
	e.t.Helper()
	if f.Outcome != "" || f.EventID != "" {
		e.fatalf("a fault selects routes, not events or outcomes; drop Outcome/EventID from %s", f)
	}
	rule.Route = f.Route
	for k, vs := range f.query() {
		if k == "route" || len(vs) == 0 {
			continue
		}
		if rule.Match == nil {
			rule.Match = map[string]string{}
		}
		rule.Match[k] = vs[0]
	}
	return rule
}

// RemoveFault deletes one fault rule by the id AddFault or FailDeliveries
// returned:
//
//	f := emu.FailDeliveries(testkit.Filter{Subscription: "audit"}, 500, 0)
//	// … attempts fail …
//	emu.RemoveFault(f.ID)
func (e *Emulator) RemoveFault(id string) {
	e.t.Helper()
	if err := e.inspect.RemoveFault(context.Background(), id); err != nil {
		e.fatalf("removing fault %s: %v", id, err)
	}
}

// ClearFaults removes every fault rule:
//
//	emu.ClearFaults()
func (e *Emulator) ClearFaults() {
	e.t.Helper()
	if err := e.inspect.ClearFaults(context.Background()); err != nil {
		e.fatalf("clearing faults: %v", err)
	}
}

// RemoveFault deletes the fault rule with this id (DELETE /_emulator/faults/{id}).
func (in *Inspector) RemoveFault(ctx context.Context, id string) error {
	return in.do(ctx, http.MethodDelete, "/faults/"+url.PathEscape(id), nil, nil)
}
