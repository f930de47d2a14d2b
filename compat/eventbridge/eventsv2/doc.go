// Package eventsv2 is GridBridge's face of Amazon EventBridge event buses v2
// and their subscribers (`aws eventsv2 …`), specified by docs/behaviour.md's EB-1
// … EB-13 and EB-D1 … EB-D4. Register mounts the API; delivery runs on the
// shared engine, on the emulator clock.
//
// # Wire protocol (EB-D1, EB-D2)
//
// AWS JSON 1.1 like classic EventBridge, under the target prefix
// "AWSEventsV2" (X-Amz-Target: AWSEventsV2.CreateSubscriber, …): its own
// prefix so the classic face's "AWSEvents." handler and this one never claim
// each other's requests, and the model's metadata.targetPrefix, which the CLI
// sends. The service model is compat/eventbridge/v2model (signing name
// "events"; endpoint prefix "eventsv2", so that `aws configure add-model`
// without --service-name cannot shadow the classic `events` model). Errors
// are {"__type", "message"} with the same code in X-Amzn-ErrorType; bad input
// is always a 4xx. Timestamps travel as epoch seconds (what the CLI sends for
// the model's timestamp shapes); requests may also use RFC 3339 strings. The
// account is a 12-digit access key id of the SigV4 credential, else
// 000000000000; the region is the credential scope's.
//
// Buses: arn:aws:events:<region>:<account>:event-busv2/<name>/<id>, with
// RetentionPeriodInSeconds (1 h … 365 d, default 7 d). Subscribers:
// arn:aws:events:<region>:<account>:subscriber/<name>/<id>, names unique per
// account and region. Operations taking a bus or subscriber accept a name or
// an ARN; an ARN must carry the current id.
//
// # Delivery (EB-1, EB-2, EB-6)
//
// Each subscriber is one engine route (labels cloud=eventbridge,
// api=eventsv2, bus, subscriber, busArn, subscriberArn). Targets by TargetArn:
//   - SQS queue ARN: one message per event through Config.SQS;
//   - http(s) URL: POST of the event (a JSON array for a batch);
//   - v2 bus ARN: the event is put on that bus (LOOP_DETECTED if it was
//     there before);
//   - any other ARN: accepted and journalled, as GridBridge has no such
//     service.
//
// Every failure is retried (4xx too) until MaxRetryAttempts (0…185, default
// 5) retries were made or the next retry would come after
// MaxEventAgeInSeconds (60…86,400, default 300) from when the subscriber
// took the event — whichever first. Back-off: 1 s, 2 s, 4 s, … doubling, at
// most 8 min; Config.Jitter spreads each wait by ±20 %, seeded. An attempt
// named InternalFailure (OutcomeInternalFailure; a fault rule can inject it)
// is GridBridge's own failure: retried without limit, never a record.
//
// Failures are named with EB-8's codes: HTTP 401/403 ACCESS_DENIED, 404/410
// RESOURCE_NOT_FOUND, 408 EXECUTION_TIMEOUT, 409 RESOURCE_CONFLICT, 413
// REQUEST_TOO_LARGE, 429 THROTTLING, other 4xx CUSTOMER_VALIDATION with the
// target's message, 5xx INVOCATION_DEPENDENCY_INTERNAL; no answer within
// InvocationTimeoutSeconds on the clock EXECUTION_TIMEOUT; a missing queue
// or bus RESOURCE_NOT_FOUND; an SQS message larger than its queue takes
// (MaximumMessageSize, at most 1 MiB) REQUEST_TOO_LARGE;
// an Input or Transformer without a value INPUT_TRANSFORMATION_FAILURE; a
// target that accepts part of a batch PARTIAL_BATCH_FAILURE (an HTTP target
// reports it with a 2xx {"batchItemFailures":[{"itemIdentifier":"<event
// id>"}]}). Fault rules (engine.Faults) name any other code by their
// Outcome, or by status through Route.NameFault.
//
// # System metadata (EB-D3, EB-13)
//
// aws:EventId, aws:EventGroupId, aws:DeduplicationId, aws:IngestionTime,
// aws:DeliveryType (LIVE or REPLAY), aws:EventBusArn, aws:SubscriberArn.
// SYSTEM_METADATA filters match them as a JSON object. Targets receive them
// beside the event, the colon turned into a hyphen because neither SQS
// attribute names nor HTTP header names allow a colon: SQS message
// attributes and HTTP headers "aws-EventId", "aws-DeliveryType", …
//
// # Dead letters (EB-5, EB-9 … EB-11)
//
// A batch given up becomes one DeadLetterRecord, written to
// OnFailureConfiguration.Arn through Config.SQS with the seven attributes of
// EB-9, at once (no delay). On a FIFO queue the record's MessageGroupId is
// the batch's EventGroupId. Without a queue the events are dropped, journalled
// and counted as EventsDropped. A record that cannot be written (queue
// missing at once; a failing server after 1 s, 5 s, 30 s, 1 min, 5 min) is
// dropped, journalled and counted as OnFailureDestinationFailed. Each
// attempt's request is journalled (DeliveryAttempts: EB-8's
// EVENT_DELIVERY_ATTEMPT records).
//
// # FIFO (EB-4)
//
// A subscriber is FIFO when its target or dead-letter queue is a FIFO queue.
// Its events are grouped by EventGroupId (an event without one is its own
// group); each group has one batch in delivery at a time and the next waits
// until that batch is delivered or its record written — see groupScheduler.
//
// # Retention and redrive (EB-12, EB-13)
//
// A bus keeps every accepted event for its retention period. A
// POINT_IN_TIME subscriber replays, at creation, the retained events whose
// ingestion time (to the second, both ends inclusive) lies in its window and
// passes its filters, marked REPLAY; later events of the window arrive LIVE.
// Replayed events keep their EventId, so a SYSTEM_METADATA filter on the
// ids of a record's failedMessages replays exactly those events.
package eventsv2
