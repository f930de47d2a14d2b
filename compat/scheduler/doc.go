// Package scheduler is Amazon EventBridge Scheduler's face: the REST-JSON
// API of aws-sdk-go-v2/service/scheduler (schedule groups, schedules, tags)
// and the schedules themselves, which fire on the emulator clock and
// invoke their targets through the delivery engine, with Scheduler's retry
// policy and dead-letter queue.
//
// It sits beside compat/eventbridge, not on it: an EventBridge target puts
// its event on a bus through Config.EventBridge, the small eventbus.Bus
// interface that the EventBridge face the emulator mounts beside it
// implements, and SQS targets write to the same queues EventBridge's do.
//
// Where it differs from the real service, knowingly:
//   - Only SQS and EventBridge targets are invoked; every other target
//     (Lambda, SNS, Step Functions, universal aws-sdk targets, …) is
//     recorded in the journal, where faults can make it fail.
//   - AWS does not document Scheduler's back-off; GridBridge uses
//     EventBridge's (1 s doubling to 8 minutes, with jitter unless turned
//     off), within MaximumRetryAttempts and MaximumEventAgeInSeconds.
//   - Client errors (not found, validation, access denied) are not retried.
//   - ClientToken is accepted and ignored: a repeated create is a conflict.
//   - Deleting a schedule or a group takes effect at once (AWS shows
//     DELETING for a while); invocations still retrying are dropped with
//     the reason in the journal.
//   - A rate schedule without StartDate first fires one period after it was
//     created or last updated.
package scheduler
