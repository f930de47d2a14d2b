// Package filter implements the filter of an Event Grid event subscription
// (properties.filter in ARM): its JSON model as the ARM API exchanges it, its
// validation against Azure's limits, and the matching of one event against it.
//
// The package is pure: it knows nothing of topics, routes or HTTP. The ARM face
// decodes a FilterJSON from a PUT or PATCH body, calls Compile once, answers a
// *ValidationError as a 400, stores the FilterJSON for GET, and hands the
// compiled *Filter to the delivery route, which calls Match for every event.
//
// Sources used for the semantics are cited where a rule is surprising:
//   - [filtering doc]: Azure's "Understand event filtering for Event Grid
//     subscriptions" (event-filtering.md), advanced filtering section.
//   - [edge doc]: the IoT Edge advanced-filtering article, which states the
//     AND/OR/NOT semantics and the array rule plainly.
package filter
