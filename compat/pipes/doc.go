// Package pipes is Amazon EventBridge Pipes' face: the REST-JSON API of
// aws-sdk-go-v2/service/pipes (CreatePipe, DescribePipe, UpdatePipe,
// DeletePipe, ListPipes, StartPipe, StopPipe and the tagging operations)
// and the pipes themselves, which read an SQS queue of GridBridge's own on
// the emulator clock, filter its messages with the EventBridge pattern
// language, enrich them and send them to a target.
//
// It sits beside the other AWS faces, not on them: it reads its source
// through compat/aws/sqssource (GridBridge's own SQS implements it), puts
// events on buses through compat/aws/eventbus (the EventBridge face),
// sends to SQS targets through compat/aws/sqssend, calls API destinations
// with the EventBridge face's connections through
// compat/eventbridge/targets, and fills templates with
// compat/eventbridge/transform.
//
// A file a job: service.go (the face, its routes and request frame),
// shapes.go (the wire shapes), validate.go (the model's constraints and
// AWS's rules), kinds.go (what a source, enrichment or target ARN names),
// ops_pipes.go and ops_tags.go (the operations), lifecycle.go (the state a
// pipe rests in), runner.go (reading the source on the clock), event.go (a
// message as an event), process.go (filter and enrichment), target.go (the
// targets), metrics.go and stats.go (the accounting).
//
// Where it differs from AWS, knowingly:
//   - Only SQS sources are read. A pipe with a Kinesis, DynamoDB, Amazon
//     MQ, Amazon MSK or self-managed Kafka source is validated as AWS
//     validates it and then rests in CREATE_FAILED (START_FAILED,
//     UPDATE_FAILED) with the reason in StateReason. So does every pipe
//     when SQS is a server at --sqs-endpoint: GridBridge cannot watch its
//     queues.
//   - A pipe whose source queue does not exist runs and reads the queue
//     once it is created (AWS fails the pipe); the journal says so.
//   - State changes take effect at once: the answer of CreatePipe,
//     UpdatePipe, StartPipe, StopPipe and DeletePipe names the transitional
//     state (CREATING, …), and the next call finds the pipe RUNNING,
//     STOPPED, failed or gone. StartPipe of a running pipe and StopPipe of
//     a stopped one change nothing.
//   - The batching window opens when the first message of a batch is
//     taken (AWS opens it when the previous batch ends, and may wait up to
//     20 s on a quiet queue), so a test sees the batch leave exactly one
//     window after its first message.
//   - Lambda functions, Step Functions state machines, API Gateway APIs and
//     the other targets GridBridge does not call are captured in the
//     journal, where fault rules can fail them; a Lambda or Step Functions
//     stand-in fails only the events a fault rule names (a partial batch
//     failure), and an enrichment stand-in answers with its input.
//   - An API destination enrichment or target is called once per event;
//     any failure of a step fails the whole batch, as AWS documents for SQS
//     sources, but for the partial failures above.
//   - LogConfiguration, KmsKeyIdentifier, EndpointId and the role are kept
//     and shown, not used.
package pipes
