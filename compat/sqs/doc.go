// Package sqs is GridBridge's own Amazon SQS: a store of queues on the
// emulator clock and the SQS API over it, in both of SQS's wire protocols.
//
//   - the store (store.go, queue.go, fifo.go) keeps queues and messages with
//     SQS's semantics: visibility timeouts, delays, retention, receive counts,
//     redrive to a dead-letter queue, FIFO groups and five-minute
//     deduplication. Time is the emulator clock, so a test moves a visibility
//     timeout forward with the virtual clock instead of waiting.
//   - the API (service.go, protocol_*.go, ops_*.go) answers the JSON protocol
//     (X-Amz-Target: AmazonSQS.*, current SDKs) and the query protocol
//     (form bodies with Action=, older SDKs such as boto3 1.26) on POST / and
//     on queue URLs <base>/<account>/<queue>.
//   - the sink (sink.go) lets the SQS targets and dead-letter queues of
//     EventBridge, bus v2 and Scheduler write into the same queues the API
//     shows; a queue that was never created is created on the first write
//     and tagged so (see AutoCreatedTag).
//
// New builds the face the emulator mounts: these queues, or, with
// --sqs-endpoint, the queues of that SQS server, which the faces then write
// to through the SQS SDK (compat/aws/sqssink) and GridBridge serves no SQS
// API of its own.
//
// Long polling (WaitTimeSeconds) waits in real time, like a namespace
// receive: it is the client's own wait, not cloud time.
package sqs
