package testkit

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The testkit's types are what the inspection API (/_emulator/) answers,
// decoded: they are the same whether the emulator runs in-process, as the
// binary or in a container, and they change only when that API does.

// Journal entry kinds, as Entry.Kind and the inspection API spell them.
const (
	KindPublish    = "publish"    // the cloud accepted events for a route
	KindAttempt    = "attempt"    // one delivery attempt and its outcome
	KindDelivered  = "delivered"  // a batch reached its destination
	KindDeadLetter = "deadletter" // a dead letter was written
	KindDrop       = "drop"       // events were given up without a dead letter, with the reason
	KindDeferred   = "deferred"   // due events waited because their route is held (probation, delayed delivery)
	KindPoll       = "poll"       // a pipe read messages from its source queue
	KindFilter     = "filter"     // a pipe's filter decision: Outcome "Matched" or "FilteredOut"
	KindAPIFault   = "apifault"   // an API call answered with an injected error (InjectAPIError)
)

// Entry is one journal entry: a publish, a delivery attempt, a delivery,
// a dead letter, a drop, an injected API error, …
type Entry struct {
	// Seq orders entries; Time is the emulator clock's time of the entry.
	Seq  uint64    `json:"seq"`
	Time time.Time `json:"time"`
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Route is the engine route the entry is about; Labels name it in the
	// cloud's terms: topic and subscription (Event Grid), bus, rule and
	// target (EventBridge), group and schedule (Scheduler), pipe and step
	// (Pipes), service and operation (an API fault), and "cloud".
	Route  string            `json:"route,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	// EventIDs are the events (or SQS message ids) the entry is about.
	EventIDs []string `json:"eventIds,omitempty"`
	// Attempt numbers a delivery attempt of its batch, from 1.
	Attempt int `json:"attempt,omitempty"`
	// Outcome is the cloud's name for what happened ("Success", "Busy",
	// "TimedOut", "INVOCATION_DEPENDENCY_INTERNAL", …), or a drop's or a
	// dead letter's reason, or an injected API error's code.
	Outcome string `json:"outcome,omitempty"`
	// Status is the HTTP status of an attempt or of an injected API error.
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	// Request is what a delivery attempt sent.
	Request *Request `json:"request,omitempty"`
	// Destination is where a dead letter went, or an attempt's target.
	Destination string `json:"destination,omitempty"`
	// Body is a dead letter's content: JSON as written, or a JSON string
	// when it was not JSON.
	Body json.RawMessage `json:"body,omitempty"`
	// NextAttemptAt is when a failed attempt's batch is tried again, or
	// when a deferred entry's hold ends.
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
	// Count is how many events a deferred entry's hold keeps waiting.
	Count int `json:"count,omitempty"`
}

// Request is a request a delivery attempt sent.
type Request struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Header http.Header `json:"headers,omitempty"`
	// Body is the body as JSON when it was JSON, else a JSON string.
	Body json.RawMessage `json:"body,omitempty"`
}

// JournalPage is one answer of the journal views.
type JournalPage struct {
	Entries []Entry `json:"entries"`
	// Discarded is how many older entries the bounded journal no longer holds.
	Discarded uint64 `json:"discarded"`
	// LastSeq is the newest entry's sequence number.
	LastSeq uint64 `json:"lastSeq"`
}

// Info is GET /_emulator/info: how to reach the emulator and how it runs.
type Info struct {
	HTTP  string `json:"http"`
	HTTPS string `json:"https"`
	// Clock is "virtual" (--clock virtual: only Advance moves it), "real"
	// or "scaled".
	Clock string `json:"clock"`
	// Seed is the retry-jitter seed (--seed).
	Seed int64 `json:"seed"`
	// Jitter is true unless --no-jitter: retries then land at random
	// points around their schedule.
	Jitter bool `json:"jitter"`
	// Probation is true unless --no-probation: Event Grid holds failing
	// subscriptions in delayed delivery and probation.
	Probation bool `json:"probation"`
	// AzureStorageAccounts and SQSEndpoint name the real services dead
	// letters and SQS targets go to; empty means the emulator's own.
	AzureStorageAccounts []string `json:"azureStorageAccounts,omitempty"`
	SQSEndpoint          string   `json:"sqsEndpoint,omitempty"`
}

// Clock is GET /_emulator/clock.
type Clock struct {
	Now  time.Time `json:"now"`
	Mode string    `json:"mode"`
	// PendingTimers and NextTimerAt describe a virtual clock's queue:
	// how many retries, schedules and timeouts wait, and the next one due.
	PendingTimers int        `json:"pendingTimers,omitempty"`
	NextTimerAt   *time.Time `json:"nextTimerAt,omitempty"`
}

// Metrics is GET /_emulator/metrics.
type Metrics struct {
	Journal JournalStats `json:"journal"`
	// Routes are the delivering routes: event subscriptions, rule
	// targets, schedules, namespace push subscriptions.
	Routes []RouteMetrics `json:"routes"`
	// Queues are Event Grid namespace queue (pull) subscriptions.
	Queues []QueueMetrics `json:"queues"`
	// Pipes are EventBridge pipes.
	Pipes []PipeMetrics `json:"pipes"`
	// SQS are the queues of GridBridge's own SQS (none when it was started
	// with --sqs-endpoint).
	SQS []SQSQueueMetrics `json:"sqs"`
}

// SQSQueueMetrics are one queue's books. They balance: Sent = Deleted +
// DeadLettered + Expired + Purged + Visible + InFlight + Delayed.
type SQSQueueMetrics struct {
	ARN          string `json:"arn"`
	Sent         uint64 `json:"sent"`
	Deleted      uint64 `json:"deleted"`
	DeadLettered uint64 `json:"deadLettered"`
	Expired      uint64 `json:"expired"`
	Purged       uint64 `json:"purged"`
	// What the queue holds now: Visible (a receive would take them),
	// InFlight (received, their visibility timeout running; a receive
	// whose answer the client lost leaves its messages here until the
	// timeout ends) and Delayed (DelaySeconds running).
	Visible  int `json:"visible"`
	InFlight int `json:"inFlight"`
	Delayed  int `json:"delayed"`
}

// JournalStats describe the bounded journal.
type JournalStats struct {
	// Capacity and MaxBytes bound it; Held entries take about Bytes.
	Capacity int   `json:"capacity"`
	MaxBytes int64 `json:"maxBytes"`
	Bytes    int64 `json:"bytes"`
	Held     int   `json:"held"`
	// Appended counts every entry ever written, Discarded those it no
	// longer holds; Counts are per kind.
	Appended  uint64            `json:"appended"`
	Discarded uint64            `json:"discarded"`
	Counts    map[string]uint64 `json:"counts"`
	LastSeq   uint64            `json:"lastSeq"`
}

// RouteMetrics are one route's counters. Every event accepted is in one
// place: Queued = Delivered + DeadLettered + Dropped + Pending + Retrying
// + InFlight + AwaitingDeadLetter.
type RouteMetrics struct {
	Route        string            `json:"route"`
	Labels       map[string]string `json:"labels,omitempty"`
	Queued       uint64            `json:"queued"`
	Attempts     uint64            `json:"attempts"`
	Retries      uint64            `json:"retries"`
	Delivered    uint64            `json:"delivered"`
	DeadLettered uint64            `json:"deadLettered"`
	// Dropped counts events given up with no dead letter, DeadLetterFailed
	// the part of them whose dead-letter write failed for good.
	Dropped          uint64 `json:"dropped"`
	DeadLetterFailed uint64 `json:"deadLetterFailed"`
	// Pending events wait for their first attempt, Retrying for a retry,
	// InFlight are in an attempt now, AwaitingDeadLetter wait for their
	// dead letter to be written.
	Pending            int `json:"pending"`
	Retrying           int `json:"retrying"`
	InFlight           int `json:"inFlight"`
	AwaitingDeadLetter int `json:"awaitingDeadLetter"`
	// State is "Active", or the hold in force on an Event Grid
	// subscription ("Probation", "DelayedDelivery") until HeldUntil.
	State     string     `json:"state"`
	HeldUntil *time.Time `json:"heldUntil,omitempty"`
}

// QueueMetrics are one Event Grid namespace queue subscription's counters.
type QueueMetrics struct {
	Route  string            `json:"route"`
	Labels map[string]string `json:"labels,omitempty"`
	// Queued events were published to it; Received counts deliveries to
	// receivers, Acknowledged and Released the receivers' answers.
	Queued       uint64 `json:"queued"`
	Acknowledged uint64 `json:"acknowledged"`
	Released     uint64 `json:"released"`
	Received     uint64 `json:"received"`
	// Ended events left unacknowledged: Rejected, Expired or out of
	// deliveries (EndedMaxDeliveries); they are dead-lettered or dropped.
	Ended              uint64 `json:"ended"`
	Rejected           uint64 `json:"rejected"`
	Expired            uint64 `json:"expired"`
	EndedMaxDeliveries uint64 `json:"endedMaxDeliveries"`
	// Available, Locked and Delayed events are in the queue now.
	Available          int    `json:"available"`
	Locked             int    `json:"locked"`
	Delayed            int    `json:"delayed"`
	DeadLettered       uint64 `json:"deadLettered"`
	Dropped            uint64 `json:"dropped"`
	DeadLetterFailed   uint64 `json:"deadLetterFailed"`
	AwaitingDeadLetter int64  `json:"awaitingDeadLetter"`
}

// PipeMetrics are one EventBridge pipe's counters. Every message the pipe
// received is in one place: Received = Delivered + Filtered + DeadLettered
// + Dropped + Batching + InFlight + AwaitingRetry.
type PipeMetrics struct {
	Route  string            `json:"route"`
	Labels map[string]string `json:"labels"`
	// State is the pipe's CurrentState ("RUNNING", "STOPPED", …).
	State        string `json:"state"`
	Received     uint64 `json:"received"`
	Delivered    uint64 `json:"delivered"`
	Filtered     uint64 `json:"filtered"`
	DeadLettered uint64 `json:"deadLettered"`
	Dropped      uint64 `json:"dropped"`
	// Batching messages wait for the batching window, InFlight are being
	// processed, AwaitingRetry failed and wait out their visibility timeout.
	Batching      int    `json:"batching"`
	InFlight      int    `json:"inFlight"`
	AwaitingRetry int    `json:"awaitingRetry"`
	Redeliveries  uint64 `json:"redeliveries"`
	Polls         uint64 `json:"polls"`
	// The pipe's CloudWatch metrics, by their AWS names.
	Invocations              uint64 `json:"invocations"`
	ExecutionFailed          uint64 `json:"executionFailed"`
	ExecutionPartiallyFailed uint64 `json:"executionPartiallyFailed"`
	EnrichmentStageFailed    uint64 `json:"enrichmentStageFailed"`
	TargetStageFailed        uint64 `json:"targetStageFailed"`
	TargetStageSkipped       uint64 `json:"targetStageSkipped"`
}

// Fault makes delivery attempts on the routes it selects fail without
// reaching their destination (POST /_emulator/faults).
type Fault struct {
	// ID is set by the emulator; pass it to RemoveFault.
	ID string `json:"id,omitempty"`
	// Match selects routes by label ({"subscription": "audit"}); Route
	// selects one route by id; both empty: every route.
	Match map[string]string `json:"match,omitempty"`
	Route string            `json:"route,omitempty"`
	// Events narrows the fault to attempts carrying one of these event ids.
	Events []string `json:"events,omitempty"`
	// Status is the HTTP status the attempt reports, Outcome the cloud's
	// name for the failure (derived from Status when empty), Message its text.
	Status  int    `json:"status,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Message string `json:"message,omitempty"`
	// Count is how many attempts fail before the fault is gone; 0: until
	// removed. Used counts the attempts it failed so far.
	Count int `json:"count,omitempty"`
	Used  int `json:"used,omitempty"`
}

// SQSMessage is one message the emulator's own SQS holds
// (GET /_emulator/sqs/messages).
type SQSMessage struct {
	// Body is the message body: JSON as sent, or a JSON string.
	Body            json.RawMessage `json:"body"`
	Attributes      []SQSAttribute  `json:"attributes,omitempty"`
	MessageGroupID  string          `json:"messageGroupId,omitempty"`
	DeduplicationID string          `json:"deduplicationId,omitempty"`
}

// SQSAttribute is one message attribute.
type SQSAttribute struct {
	Name  string `json:"name"`
	Type  string `json:"type"` // "String", "Number", "Binary"
	Value string `json:"value"`
}

// Accounted reports, as an error, a route whose counters do not add up:
// an event accepted and then in none of the places Queued sums.
func (m RouteMetrics) Accounted() error {
	sum := m.Delivered + m.DeadLettered + m.Dropped + uint64(m.Pending) + uint64(m.Retrying) + uint64(m.InFlight) + uint64(m.AwaitingDeadLetter)
	if m.Queued != sum {
		return fmt.Errorf("route %s: queued %d ≠ delivered %d + deadLettered %d + dropped %d + pending %d + retrying %d + inFlight %d + awaitingDeadLetter %d",
			m.Route, m.Queued, m.Delivered, m.DeadLettered, m.Dropped, m.Pending, m.Retrying, m.InFlight, m.AwaitingDeadLetter)
	}
	return nil
}
