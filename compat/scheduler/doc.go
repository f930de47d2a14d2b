// Package scheduler is Amazon EventBridge Scheduler's face: the REST-JSON
// API of aws-sdk-go-v2/service/scheduler (schedule groups, schedules, tags)
// and the schedules themselves, which fire on the emulator clock and
// invoke their targets through the delivery engine, with Scheduler's retry
// policy and dead-letter queue.
//
// It sits beside compat/eventbridge, not on it: EventBridge targets reach a
// bus through Config.PutEvent, which the emulator wires to the EventBridge
// face, and SQS targets write to the same engine.Sink EventBridge uses.
package scheduler
