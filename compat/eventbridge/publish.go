package eventbridge

import (
	"sort"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// event is one event on its way through a bus.
type event struct {
	env      envelope
	raw      []byte // env encoded: what patterns match and targets receive
	ingested time.Time
	// hops are the ARNs of the buses the event has entered, for loop
	// protection when targets forward it from bus to bus.
	hops []string
}

func newEvent(env envelope, ingested time.Time, hops []string) *event {
	return &event{env: env, raw: env.encode(), ingested: ingested, hops: hops}
}

// itemMeta travels with each queued item: the original event (for DLQ
// bodies and JSONPath parameters) and any failure to build the target's
// input, which the destination then reports instead of delivering.
type itemMeta struct {
	ev        *event
	renderErr error
}

func envelopeOf(it *engine.Item) []byte {
	if m, ok := it.Meta.(*itemMeta); ok {
		return m.ev.raw
	}
	return it.Body
}

// delivery is an item bound for one route, enqueued once the service lock
// is released.
type delivery struct {
	route string
	item  *engine.Item
}

// acceptLocked journals an event accepted by bus b, archives it unless it is
// a replay, and returns its deliveries to the targets of matching rules.
func (s *Service) acceptLocked(t *tenant, b *bus, ev *event) []delivery {
	s.journalPublishLocked(b, ev)
	if ev.env.ReplayName == "" {
		s.archiveLocked(t, b, ev)
	}
	return s.matchLocked(b, ev, nil)
}

// journalPublishLocked records that bus b accepted ev.
func (s *Service) journalPublishLocked(b *bus, ev *event) {
	s.engine.Journal().Append(engine.Entry{
		Time: s.clock.Now(), Kind: engine.KindPublish, EventIDs: []string{ev.env.ID},
		Labels: map[string]string{"cloud": "eventbridge", "bus": b.name}, Body: ev.raw,
	})
}

// matchLocked finds the enabled rules of b whose pattern matches ev
// (restricted to those keep accepts, when set) and builds one delivery per
// target.
func (s *Service) matchLocked(b *bus, ev *event, keep func(*rule) bool) []delivery {
	names, err := b.matcher.Match(ev.raw)
	if err != nil || len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	var out []delivery
	for _, name := range names {
		r, ok := b.rules[name]
		if !ok || (keep != nil && !keep(r)) {
			continue
		}
		out = append(out, s.ruleDeliveriesLocked(r, ev)...)
	}
	return out
}

// ruleDeliveriesLocked renders ev for each target of r.
func (s *Service) ruleDeliveriesLocked(r *rule, ev *event) []delivery {
	out := make([]delivery, 0, len(r.targets))
	for _, tg := range r.targets {
		body, err := tg.spec.Render(transform.Event{
			Envelope: ev.raw, RuleArn: r.arn, RuleName: r.name, IngestionTime: ev.ingested,
		})
		out = append(out, delivery{route: tg.routeID, item: &engine.Item{
			ID: ev.env.ID, Body: body, PublishedAt: ev.ingested, Meta: &itemMeta{ev: ev, renderErr: err},
		}})
	}
	return out
}

// enqueue hands deliveries to the engine. A route removed since the
// deliveries were built loses its event, and the journal says so (D-DROP).
func (s *Service) enqueue(ds []delivery) {
	for _, d := range ds {
		if err := s.engine.Enqueue(d.route, d.item); err != nil {
			s.engine.Journal().Append(engine.Entry{
				Time: s.clock.Now(), Kind: engine.KindDrop, Route: d.route, EventIDs: []string{d.item.ID},
				Outcome: engine.ReasonRouteDeleted, Message: "the target was removed before the event was queued",
				Labels: map[string]string{"cloud": "eventbridge"},
			})
		}
	}
}
