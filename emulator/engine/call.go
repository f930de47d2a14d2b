package engine

import "time"

// Call makes one attempt of b on route, now and in the caller's goroutine,
// for a face that keeps its own retries and accounting: an EventBridge
// pipe, whose source queue retries a failed batch through its visibility
// timeout. Fault rules apply to it as to any attempt, the route's response
// timeout runs on the clock (its LateSuccessWindow does not), and the
// attempt is journalled, with retryAt as its NextAttemptAt when it failed.
// The route need not be in the table, and no route's metrics count it.
func (e *Engine) Call(route *Route, b *Batch, retryAt *time.Time) Outcome {
	if route.LateSuccessWindow > 0 {
		r := *route
		r.LateSuccessWindow = 0 // a late answer has no pending retry to withdraw
		route = &r
	}
	now := e.clock.Now()
	b.Attempts++
	if b.Attempts == 1 {
		b.FirstAttemptAt = now
	}
	b.LastAttemptAt = now
	a := &Attempt{Route: route, Batch: b, Number: b.Attempts, At: now}
	o, injected := e.faults.outcomeFor(route, b)
	if !injected {
		var release func()
		o, release = e.deliver(nil, route, a, outsideMark{clock: e.clock})
		release()
	}
	if o.OK && o.Name == "" {
		o.Name = "Success"
	}
	entry := Entry{
		Time: now, Kind: KindAttempt, Route: route.ID, Labels: route.Labels,
		Attempt: a.Number, Outcome: o.Name, Status: o.Status,
		Message: o.Message, Request: o.Request, Destination: o.Destination, items: b.Items,
	}
	if !o.OK && retryAt != nil {
		next := *retryAt
		entry.NextAttemptAt = &next
	}
	e.journal.Append(entry)
	b.LastOutcome = o
	b.LastOutcome.Request = nil
	return o
}
