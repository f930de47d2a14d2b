// Package targets delivers EventBridge events to rule targets, as
// engine.Destination values: API destinations over HTTP, other event buses,
// and every other AWS service, whose invocations GridBridge captures in its
// journal instead of making. SQS targets send through compat/aws/sqssend,
// as every AWS face's do.
//
// Each destination reports a failure with the error code EventBridge puts in
// a dead-letter message's ERROR_CODE attribute; package retry decides from
// that code whether the failure is retried.
package targets
