// Package namespaces is GridBridge's Azure Event Grid namespaces face: the ARM
// management plane of namespaces, namespace topics and their event
// subscriptions (armeventgrid/v2 v2.3.0, any api-version), and the data plane
// the aznamespaces SDK speaks (publish, receive, acknowledge, release, reject,
// renewLock). Rule ids (NS-1 … NS-10, D-*) are those of docs/behaviour.md.
//
// # URL layout
//
// ARM endpoints (endpoints.go) live at their Azure paths,
// /subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.EventGrid/namespaces/…,
// matched case-insensitively on the fixed segments. A namespace's data plane
// lives under DataPlanePrefix + its name on the emulator's TLS listener, and
// topicsConfiguration.hostname says so ("127.0.0.1:8443/eventgrid/namespaces/ns1"):
// the SDKs prepend "https://" and keep the path when they add
// "/topics/{t}:publish". Namespace names are unique per emulator, as Azure's
// host names make them globally unique.
//
// # Time
//
// Locks, delayed releases, time to live, push retries and dead-letter write
// retries all run on the engine's clock (D-CLOCK). The receive long-poll
// (maxWaitTime) is the one real-time wait: it is the client's own wait.
//
// # Dead letters
//
// Pull and push subscriptions dead-letter through one writer: an NS-4 record
// in a JSON array, one event per blob, at the NS-6 path, written to the
// configured sink with the NS-7 retry schedule and the NS-8 retention rule.
// Push routes run in the engine; when the engine gives a batch up, the
// route's DeadLetterPolicy.Build hands the events to that writer and asks the
// engine for no writes of its own. Every write, failed write and drop is
// journalled with the subscription's labels (D-DROP).
//
// # Choices where the cloud's behaviour is UNCONFIRMED
//
//   - deadletterreason for reject and TTL ("Rejected by client.", "Time to live
//     exceeded."), and pull deliveryresult values other than the documented one;
//   - releasing the last allowed delivery dead-letters at once;
//   - a receive on a Push subscription is 400; maxEvents/maxWaitTime out of range is 400;
//   - BadToken for strings that were never GridBridge lock tokens;
//   - blob path names keep the casing they were created with;
//   - the NS-7 steps (10 s, 1 min, 5 min, then every 5 min) are measured from each failed write;
//   - namespace filters look inside arrays and compare strings ignoring case;
//   - Event Hubs push destinations are refused (only webhooks can be delivered offline);
//   - SAS tokens are refused; Bearer tokens are verified only when the
//     emulator's Entra ID authority issued them (compat/entra).
package namespaces
