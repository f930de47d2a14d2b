package eventsv2

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// DeadLetterRecord is the JSON document a subscriber writes to its
// dead-letter queue when a batch fails for good (EB-5): one record per
// failed batch, listing every event of it.
type DeadLetterRecord struct {
	Version                 string          `json:"version"`
	BusArn                  string          `json:"busArn"`
	SubscriberArn           string          `json:"subscriberArn"`
	TargetArn               string          `json:"targetArn"`
	ErrorCode               string          `json:"errorCode"`
	ErrorMessage            string          `json:"errorMessage"`
	ExhaustedRetryCondition string          `json:"exhaustedRetryCondition"`
	RetryAttempts           int             `json:"retryAttempts"`
	FailedMessages          []FailedMessage `json:"failedMessages"`
}

// FailedMessage is one event of a DeadLetterRecord. Timestamp is when the
// bus accepted the event, to the second: EB-12 replays the window between
// the earliest and the latest.
type FailedMessage struct {
	EventID         string  `json:"eventId"`
	EventGroupID    *string `json:"eventGroupId"`
	DeduplicationID *string `json:"deduplicationId"`
	Timestamp       string  `json:"timestamp"`
	TargetRequestID string  `json:"targetRequestId"`
}

// RecordVersion is DeadLetterRecord.Version.
const RecordVersion = "1.0"

// The SQS message attributes of a record (EB-9): the record's own values,
// so consumers can route without parsing the body.
const (
	AttrErrorCode               = "ERROR_CODE"
	AttrErrorMessage            = "ERROR_MESSAGE"
	AttrSubscriberArn           = "SUBSCRIBER_ARN"
	AttrTargetArn               = "TARGET_ARN"
	AttrRetryAttempts           = "RETRY_ATTEMPTS"
	AttrBusArn                  = "BUS_ARN"
	AttrExhaustedRetryCondition = "EXHAUSTED_RETRY_CONDITION"
)

// buildDeadLetters is the engine's Build hook: called once when a batch is
// given up. With a dead-letter queue it returns the one record of the
// batch; without one the events are dropped, journalled and counted as
// EventsDropped (EB-1, D-DROP).
func (sub *subscriber) buildDeadLetters(b *engine.Batch, reason string, now time.Time) ([]sqssend.Message, error) {
	cfg := sub.config()
	state := sub.tracker.finish(b)
	if cfg.deadLetterArn == "" {
		sub.counts.eventsDropped.Add(uint64(len(b.Items)))
		sub.dropItems(b.Items, reason, fmt.Sprintf(
			"delivery failed (%s) until %s ended it, and the subscriber has no OnFailureConfiguration",
			normalizeCode(b.LastOutcome.Name, b.LastOutcome.Status), reason))
		sub.groups.done(b.Items)
		return nil, nil
	}
	rec := sub.record(cfg, b, reason, state)
	body, err := json.Marshal(rec)
	if err != nil {
		sub.groups.done(b.Items)
		return nil, err
	}
	key := sub.svc.newID(IDKindRecord)
	dl := sqssend.Message{
		QueueArn:        cfg.deadLetterArn,
		Body:            body,
		Attributes:      recordAttributes(rec),
		DeduplicationID: key,
		EventIDs:        b.EventIDs(),
	}
	if sqssend.IsFIFO(cfg.deadLetterArn) {
		// EB-10: one group's records stay in order. A FIFO subscriber's
		// batch holds one group; an event without a group is its own.
		first := deliveryOf(b.Items[0]).event
		dl.MessageGroupID = cmp.Or(first.groupID, first.id)
	}
	sub.tracker.recordPending(key, b.Items)
	return []sqssend.Message{dl}, nil
}

// record writes the record of a batch given up for reason.
func (sub *subscriber) record(cfg *subscriberConfig, b *engine.Batch, reason string, state batchState) DeadLetterRecord {
	o := b.LastOutcome
	code := normalizeCode(o.Name, o.Status)
	retries := b.Attempts - 1 - state.internalFailures
	if retries < 0 {
		retries = 0
	}
	rec := DeadLetterRecord{
		Version:                 RecordVersion,
		BusArn:                  sub.bus.arn,
		SubscriberArn:           sub.arn,
		TargetArn:               cfg.invoke.targetArn,
		ErrorCode:               code,
		ErrorMessage:            recordMessage(code, o.Message, o.Injected, cfg.invoke.targetArn),
		ExhaustedRetryCondition: reason,
		RetryAttempts:           retries,
		FailedMessages:          make([]FailedMessage, len(b.Items)),
	}
	requestID := cmp.Or(state.requestID, sub.svc.newID(IDKindRequest))
	for i, it := range b.Items {
		ev := deliveryOf(it).event
		m := FailedMessage{EventID: ev.id, Timestamp: formatRecordTime(ev.ingestedAt), TargetRequestID: requestID}
		if ev.groupID != "" {
			m.EventGroupID = ptr(ev.groupID)
		}
		if ev.deduplicationID != "" {
			m.DeduplicationID = ptr(ev.deduplicationID)
		}
		rec.FailedMessages[i] = m
	}
	return rec
}

func recordAttributes(rec DeadLetterRecord) []engine.Attribute {
	return []engine.Attribute{
		{Name: AttrErrorCode, Type: "String", Value: rec.ErrorCode},
		{Name: AttrErrorMessage, Type: "String", Value: rec.ErrorMessage},
		{Name: AttrSubscriberArn, Type: "String", Value: rec.SubscriberArn},
		{Name: AttrTargetArn, Type: "String", Value: rec.TargetArn},
		{Name: AttrRetryAttempts, Type: "Number", Value: strconv.Itoa(rec.RetryAttempts)},
		{Name: AttrBusArn, Type: "String", Value: rec.BusArn},
		{Name: AttrExhaustedRetryCondition, Type: "String", Value: rec.ExhaustedRetryCondition},
	}
}

// recordQueues sends a subscriber's records through Config.SQS and sees how
// each write ends: written, or lost (OnFailureDestinationFailed, EB-11).
// Either way the record's FIFO group may go on.
type recordQueues struct{ sub *subscriber }

var _ sqssend.Queues = recordQueues{}

// Send implements sqssend.Queues.
func (w recordQueues) Send(ctx context.Context, dl sqssend.Message) error {
	sub := w.sub
	err := sub.svc.sqs.Send(ctx, dl)
	over := true
	switch {
	case err == nil:
		sub.counts.deadLetterRecords.Add(1)
	case errors.Is(err, engine.ErrDestinationNotFound):
		sub.counts.onFailureFailed.Add(1)
	default:
		// The engine tries the write again, up to MaxDeadLetterWrites times.
		if sub.tracker.recordWriteFailed(dl.DeduplicationID) > sqssend.MaxDeadLetterWrites {
			sub.counts.onFailureFailed.Add(1)
		} else {
			over = false
		}
	}
	if over {
		sub.groups.done(sub.tracker.recordResolved(dl.DeduplicationID))
	}
	return err
}
