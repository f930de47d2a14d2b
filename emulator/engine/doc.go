// Package engine delivers the cloud faces' events: it queues them on
// routes, attempts delivery on the emulator's clock, retries, holds,
// dead-letters or drops them under each route's policies, and journals
// everything it does. It knows nothing of Azure or AWS and imports nothing
// of GridBridge: a face supplies routes and reads the journal.
//
// A file a job:
//   - route.go: what a face supplies (items, batches, destinations, retry
//     and dead-letter policies); sink.go, memsink.go: dead-letter sinks.
//   - clock.go: the clock everything is scheduled on (real, scaled,
//     virtual) and what the engine needs of it.
//   - engine.go: the Engine, its drop reasons, Reset.
//   - routes.go: the route table: add, replace, remove, list.
//   - dispatch.go: first attempts: the queue, batching (EG-15, EG-16),
//     concurrency and pace.
//   - attempt.go: one attempt: the destination's call under the response
//     timeout, a late success (EG-5), and acting on the outcome.
//   - retryqueue.go: retries waiting for their time, in the clock's order.
//   - hold.go: probation and delayed delivery (EG-17, EG-18): work that
//     waits out a hold and goes when it ends.
//   - giveup.go: the end of delivery: a dead letter written on the route's
//     schedule, or a drop with its reason (D-DROP).
//   - metrics.go: each route's counters (EB-D4).
//   - outside.go: how an attempt tells a virtual clock it waits for its
//     endpoint.
//   - journal.go, journal_compact.go, journal_view.go: the bounded journal,
//     how it keeps attempts small, and its entries as JSON shows them.
//   - faults.go: injected failures; backoff.go: backoff and jitter;
//     secrets.go: whether recorded requests keep secret values.
package engine
