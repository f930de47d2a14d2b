// Package awsmodel holds, as Go tables, the facts of the AWS Smithy models
// that constrain a request's input: for EventBridge, EventBridge Scheduler,
// SQS and EventBridge Pipes, each operation's input members, which are
// required, their length and range bounds, enums and patterns. The tables
// are generated from the models (the JSON AST files AWS publishes with its
// SDKs, aws-sdk-go-v2's codegen/sdk-codegen/aws-models and
// aws/api-models-aws), never edited by hand, and checked by Check, so a
// face enforces what the model says rather than what someone remembered.
//
// To regenerate, with the models checked out somewhere:
//
//	go run ./compat/aws/awsmodel/gen -model .../eventbridge-2015-10-07.json -func EventBridge -out compat/aws/awsmodel/eventbridge_table.go
//	go run ./compat/aws/awsmodel/gen -model .../scheduler-2021-06-30.json -func Scheduler -out compat/aws/awsmodel/scheduler_table.go
//	go run ./compat/aws/awsmodel/gen -model .../sqs-2012-11-05.json -func SQS -out compat/aws/awsmodel/sqs_table.go
//	go run ./compat/aws/awsmodel/gen -model .../pipes-2015-10-07.json -func Pipes -out compat/aws/awsmodel/pipes_table.go
package awsmodel
