package deadletter

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Builder turns one subscription's given-up batches into dead-letter blobs.
type Builder struct {
	// SubscriptionName is the event subscription's name; blob paths carry it
	// upper-cased.
	SubscriptionName string
	Dest             Destination
	// NewID names each blob; nil (what NewBuilder leaves) means a random
	// UUID. Tests pass a counter, so blob names are predictable.
	NewID func() string
	// DeliverySchema is the subscription's eventDeliverySchema; "" means
	// each event's input schema. It matters only for events converted to
	// CloudEvents for delivery (see writeRecord).
	DeliverySchema egevent.Schema
}

// NewBuilder returns the builder of the subscription named
// subscriptionName, writing into dest.
func NewBuilder(subscriptionName string, dest Destination) Builder {
	return Builder{SubscriptionName: subscriptionName, Dest: dest}
}

// Policy is the engine's dead-letter policy for the subscription: writes to
// sink WriteDelay after the give-up (EG-21), retried per RetryAfter.
func (b Builder) Policy(sink engine.Sink) *engine.DeadLetterPolicy {
	return &engine.DeadLetterPolicy{Sink: sink, Delay: WriteDelay, RetryAfter: RetryAfter, Build: b.Build}
}

// Build makes the one blob a given-up batch becomes: a JSON array with one
// record per event, in batch order (EG-23). now is the give-up time; the
// blob is named for now+WriteDelay, the hour it is written in. Every Item.Meta must
// be the *egevent.Event the publish face accepted, and Item.Body the event
// as delivered.
func (b Builder) Build(batch *engine.Batch, reason string, now time.Time) ([]engine.DeadLetter, error) {
	if len(batch.Items) == 0 {
		return nil, nil
	}
	if b.SubscriptionName == "" || b.Dest.Account == "" || b.Dest.Container == "" {
		return nil, errors.New("dead-letter builder has no subscription name or destination")
	}
	f := facts{
		reason:      reason,
		attempts:    batch.Attempts,
		outcome:     lastOutcome(batch),
		status:      batch.LastOutcome.Status,
		lastAttempt: batch.LastAttemptAt,
	}
	var body bytes.Buffer
	body.Grow(batchSize(batch) + 320*len(batch.Items))
	body.WriteByte('[')
	for i, it := range batch.Items {
		ev, ok := it.Meta.(*egevent.Event)
		if !ok || ev == nil {
			return nil, fmt.Errorf("event %s: no Event Grid event to dead-letter (Meta is %T)", it.ID, it.Meta)
		}
		if i > 0 {
			body.WriteByte(',')
		}
		f.publishTime = ev.PublishedAt
		if f.publishTime.IsZero() {
			f.publishTime = it.PublishedAt
		}
		if err := writeRecord(&body, ev, it.Bytes(), b.DeliverySchema, f); err != nil {
			return nil, fmt.Errorf("event %s: %w", it.ID, err)
		}
	}
	body.WriteByte(']')

	newID := b.NewID
	if newID == nil {
		newID = uuid.NewString
	}
	return []engine.DeadLetter{{
		Destination: b.Dest.Blob(BlobPath(b.SubscriptionName, now.Add(WriteDelay), newID())),
		Body:        body.Bytes(),
		ContentType: "application/json",
		EventIDs:    batch.EventIDs(),
	}}, nil
}

// lastOutcome is the record's lastDeliveryOutcome: the destination's name
// for the last attempt, or the name its status stands for (EG-24). A batch
// given up before any attempt waited behind a hold until its TTL ran out:
// EG-18's outcome for that is Probation.
func lastOutcome(batch *engine.Batch) string {
	o := batch.LastOutcome
	if batch.Attempts == 0 {
		return retry.OutcomeProbation
	}
	if o.Name != "" {
		return o.Name
	}
	return retry.OutcomeName(o.Status, nil)
}

func batchSize(batch *engine.Batch) int {
	n := 0
	for _, it := range batch.Items {
		if ev, ok := it.Meta.(*egevent.Event); ok && ev != nil {
			n += len(ev.Raw)
		}
	}
	return n
}

// UnusablePolicy is the dead-letter policy of a subscription whose
// destination cannot be used (err says why, naming it; ARM refuses such a
// destination at create, so only an older or hand-made one gets here). A
// given-up batch is dropped at once with that reason, never as "no
// dead-letter destination".
func UnusablePolicy(sink engine.Sink, err error) *engine.DeadLetterPolicy {
	return &engine.DeadLetterPolicy{Sink: sink, RetryAfter: RetryAfter,
		Build: func(*engine.Batch, string, time.Time) ([]engine.DeadLetter, error) {
			return nil, fmt.Errorf("the dead-letter destination cannot be used: %w", err)
		}}
}
