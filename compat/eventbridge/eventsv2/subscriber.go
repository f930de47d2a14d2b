package eventsv2

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// subscriber is one subscriber of a v2 bus and the engine route that
// delivers for it.
type subscriber struct {
	svc      *Service
	name, id string
	arn      string
	bus      *eventBus
	created  time.Time
	modified time.Time // guarded by svc.mu
	routeID  string
	labels   map[string]string // shared by every journal entry: never modified

	cfg     atomic.Pointer[subscriberConfig]
	tracker *batchTracker
	groups  *groupScheduler
	counts  counters
}

// counters are what the subscriber counts beyond the engine's route metrics
// (EB-D4).
type counters struct {
	live, replayed    atomic.Uint64 // events handed to the subscriber
	partialDelivered  atomic.Uint64 // events delivered by partly failed batches
	eventsDropped     atomic.Uint64 // events that exhausted retries without a DLQ (EB-1)
	deadLetterRecords atomic.Uint64 // records written
	onFailureFailed   atomic.Uint64 // records that could not be written (EB-11)
}

func newSubscriber(s *Service, b *eventBus, name string, cfg *subscriberConfig, now time.Time) *subscriber {
	sc := scope{account: b.account, region: b.region}
	sub := &subscriber{
		svc: s, name: name, id: s.newID(IDKindSubscriber), bus: b,
		created: now, modified: now,
		tracker: newBatchTracker(),
	}
	sub.arn = subscriberARN(sc, name, sub.id)
	sub.routeID = "eventbridge-v2/" + sub.arn
	// "api" keeps v2 routes apart from classic ones on a bus of the same
	// name, for fault rules and journal queries.
	sub.labels = map[string]string{
		"cloud":         "eventbridge",
		"api":           "eventsv2",
		"bus":           b.name,
		"subscriber":    name,
		"busArn":        b.arn,
		"subscriberArn": sub.arn,
	}
	sub.groups = newGroupScheduler(sub)
	sub.cfg.Store(cfg)
	return sub
}

func (sub *subscriber) config() *subscriberConfig { return sub.cfg.Load() }

// route is the engine's view of the subscriber under cfg. The destination,
// retry policy and dead-letter hooks read the current configuration on every
// call, so an update takes effect for events already queued or retrying.
func (sub *subscriber) route(cfg *subscriberConfig) *engine.Route {
	return &engine.Route{
		ID:          sub.routeID,
		Labels:      sub.labels,
		Destination: destination{sub},
		Retry:       retryPolicy{sub},
		// Always set, even without an OnFailureConfiguration: every give-up
		// then passes through buildDeadLetters, which drops and counts the
		// events itself when there is no queue (EB-1), and FIFO groups learn
		// that their batch is finished (EB-4).
		DeadLetter:      sqssend.DeadLetterPolicy(recordQueues{sub}, sub.buildDeadLetters),
		MaxBatchEvents:  cfg.invoke.maxBatch,
		ResponseTimeout: cfg.invoke.timeout,
		NameFault:       codeForStatus,
	}
}

// delivery is what an engine item carries for this face: the event and how
// it is delivered to this subscriber.
type delivery struct {
	event        *storedEvent
	deliveryType string
	metadata     []metadataPair
	// groupKey orders the events of a FIFO subscriber (EB-4): the
	// EventGroupId, or the event's own id for an event without one, so that
	// ungrouped events never wait for each other. "" for standard subscribers.
	groupKey string
}

func deliveryOf(it *engine.Item) *delivery {
	d, _ := it.Meta.(*delivery)
	return d
}

// admit wraps ev for this subscriber when cfg's window and filters let it
// through; handedAt is when the subscriber takes it, from which
// MaxEventAgeInSeconds is measured (the ingestion time for live events, the
// replay's start for replayed ones, which would otherwise be born too old).
func (sub *subscriber) admit(cfg *subscriberConfig, ev *storedEvent, deliveryType string, handedAt time.Time) (*engine.Item, bool) {
	if cfg.window != nil && !cfg.window.contains(ev.ingestedAt) {
		return nil, false
	}
	meta := systemMetadata(ev, deliveryType, sub.arn)
	if !cfg.matches(ev.envelope, meta) {
		return nil, false
	}
	d := &delivery{event: ev, deliveryType: deliveryType, metadata: meta}
	if cfg.fifo() {
		d.groupKey = ev.groupID
		if d.groupKey == "" {
			d.groupKey = "\x00" + ev.id
		}
	}
	return &engine.Item{ID: ev.id, Body: ev.envelope, PublishedAt: handedAt, Meta: d}, true
}

// enqueue hands admitted items to the engine: directly for a standard
// subscriber, through the group scheduler for a FIFO one. Items of one call
// are enqueued together, so events sent in one PutEvents can share a batch.
func (sub *subscriber) enqueue(items []*engine.Item, deliveryType string) {
	if len(items) == 0 {
		return
	}
	sub.journal(items, engine.Entry{Kind: engine.KindPublish, Outcome: deliveryType})
	if deliveryType == DeliveryReplay {
		sub.counts.replayed.Add(uint64(len(items)))
	} else {
		sub.counts.live.Add(uint64(len(items)))
	}
	var direct, grouped []*engine.Item
	for _, it := range items {
		if deliveryOf(it).groupKey != "" {
			grouped = append(grouped, it)
		} else {
			direct = append(direct, it)
		}
	}
	sub.groups.add(grouped...)
	if len(direct) > 0 {
		if err := sub.svc.engine.Enqueue(sub.routeID, direct...); err != nil {
			sub.dropItems(direct, engine.ReasonRouteDeleted, "the subscriber was deleted before its events were queued")
		}
	}
}

// journal appends e about items to the journal, on the subscriber's route
// and labels, at the current time.
func (sub *subscriber) journal(items []*engine.Item, e engine.Entry) {
	e.Time, e.Route, e.Labels = sub.svc.clock.Now(), sub.routeID, sub.labels
	e.EventIDs = make([]string, len(items))
	for i, it := range items {
		e.EventIDs[i] = it.ID
	}
	sub.svc.engine.Journal().Append(e)
}

// dropItems journals items as dropped (D-DROP).
func (sub *subscriber) dropItems(items []*engine.Item, reason, message string) {
	if len(items) == 0 {
		return
	}
	sub.journal(items, engine.Entry{Kind: engine.KindDrop, Outcome: reason, Message: message})
}

// close stops the subscriber; events still waiting in FIFO groups are
// dropped and journalled.
func (sub *subscriber) close() {
	if waiting := sub.groups.close(); len(waiting) > 0 {
		sub.dropItems(waiting, engine.ReasonRouteDeleted,
			fmt.Sprintf("%d event(s) were waiting behind their FIFO group when the subscriber was deleted", len(waiting)))
	}
}

// matches applies every filter (EB-D1: all must match). SYSTEM_METADATA
// filters see the metadata object, EVENT filters the event.
func (c *subscriberConfig) matches(envelope []byte, meta []metadataPair) bool {
	var metaDoc []byte
	for _, f := range c.filters {
		doc := envelope
		if f.scope == ScopeSystemMetadata {
			if metaDoc == nil {
				metaDoc = metadataDocument(meta)
			}
			doc = metaDoc
		}
		ok, err := f.pattern.Match(doc)
		if err != nil || !ok {
			return false
		}
	}
	return true
}
