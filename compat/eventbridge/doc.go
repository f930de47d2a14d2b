// Package eventbridge is GridBridge's Amazon EventBridge: the AWS JSON 1.1
// API of classic event buses, rules and targets that the official SDKs and
// the AWS CLI use unchanged, and the delivery of matched events to targets on
// the emulator's clock, with EventBridge's retry policy and dead-letter
// queues in SQS.
//
// The emulator builds it with New and mounts it with Register, beside the
// faces of event buses v2 (eventsv2), EventBridge Scheduler
// (compat/scheduler), whose EventBridge targets put events on these buses
// through Inject, and SQS (compat/sqs), whose queues SQS targets and
// dead-letter queues write to. State is held per account and region, as AWS
// does: the account is a twelve-digit access key id in the request
// signature (000000000000 otherwise), the region the signature's credential
// scope.
//
// Every event enters a bus the same way (publish.go), whatever brings it:
// PutEvents, another service's Inject, a rule forwarding it from another
// bus, or a replay. Scheduled rules (scheduled_rules.go) send their events to
// their own rule's targets only.
//
// Sub-packages hold the parts that know nothing of HTTP or state: pattern
// (the event-pattern language), transform (Input, InputPath,
// InputTransformer) and targets (API destinations, other buses, captured
// services). What the AWS faces share is under compat/aws: the JSON
// protocol, the retry policy, rate and cron expressions, and sending to SQS.
package eventbridge
