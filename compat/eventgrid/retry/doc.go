// Package retry holds Azure Event Grid's delivery rules for basic (custom)
// topics as an engine.RetryPolicy: which failures are retried, after how
// long, when delivery stops, and when the destination is put on probation
// or delayed delivery. The engine only follows the decisions; every number
// here is the cloud's, on the emulator's clock (D-CLOCK).
//
// One Policy serves one event subscription. The ARM face calls Validate on
// the retryPolicy a client sends, then NewPolicy with the stored values; the
// delivery face names outcomes with OutcomeName and wraps its destination in
// Policy.Observe so successes end a failure streak (EG-17).
//
// Rule ids (EG-4 … EG-24) are those of docs/behaviour.md.
package retry
