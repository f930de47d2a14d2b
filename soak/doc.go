// Package soak holds GridBridge's soak suite: thousands of events, endpoints
// that never succeed, storage that goes away, all with the binary's default
// flags (retry jitter and Event Grid probation on). Every scenario checks the
// route's books at checkpoints and at the end —
//
//	queued = delivered + deadLettered + dropped + pending + retrying + inFlight + awaitingDeadLetter
//
// — and that every event ended exactly once: nothing lost, nothing
// duplicated. The suite runs with the rest (`./scripts/test.sh ./soak/...`).
package soak
