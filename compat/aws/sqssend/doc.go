// Package sqssend is how GridBridge's AWS faces put messages on SQS queues:
// the events of an SQS target, and the dead letters of a target or a
// schedule that was given up. EventBridge's classic buses and bus v2, and
// EventBridge Scheduler, send through it alike.
//
// A Message goes to Queues: GridBridge's own SQS (compat/sqs) or the server
// at --sqs-endpoint (compat/aws/sqssink). Destination is the engine
// destination of an SQS target, Send the ordered send beneath it, CauseOf
// why a send failed (each face names the cause in its own error codes), and
// DeadLetterPolicy the engine policy that writes dead letters, retrying a
// failed write on one short schedule.
package sqssend
