// Package eventbridge is GridBridge's Amazon EventBridge: the AWS JSON 1.1
// API of classic event buses, rules and targets that the official SDKs and
// the AWS CLI use unchanged, and the delivery of matched events to targets on
// the emulator's clock, with EventBridge's retry policy and dead-letter
// queues in SQS.
//
// Mount it with New(cfg).Register(router); the emulator mounts NewFace,
// which adds event buses v2 (compat/eventbridge/v2), builds the SQS sink
// (sqssink) over --sqs-endpoint or keeps queues in one MemorySQS, and
// registers the /_emulator/eventbridge/* and /_emulator/sqs/* inspection
// routes. State is held per account and region, as AWS does: the account is
// a twelve-digit access key id in the request signature (000000000000
// otherwise), the region the signature's credential scope.
//
// Sub-packages hold the parts that know nothing of HTTP or state: awsjson
// (wire protocol), pattern (the event-pattern language), transform (Input,
// InputPath, InputTransformer), schedule (rate and cron), retry (the target
// retry policy and dead-letter messages) and targets (destinations); sqssink
// writes to a real SQS server.
package eventbridge
