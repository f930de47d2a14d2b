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

// delivery is an event bound for one target of a rule. Its input is
// rendered by enqueue, once the service lock is released: a target is
// replaced on PutTargets, never changed, and a rule's name and ARN never
// change, so what the delivery holds stays valid without the lock.
type delivery struct {
	route             string
	spec              transform.Spec
	ruleArn, ruleName string
	ev                *event
}

// arrival is an event on its way into a bus, whatever brings it: a
// PutEvents entry, another service's Inject, a rule forwarding it from
// another bus, or a replay.
type arrival struct {
	ev   *event // nil: a PutEvents entry that failed its checks
	t    *tenant
	name string // the bus's name as the caller gave it
	b    *bus   // nil: no such bus
	// m is what ev matched on b, found before the service lock was taken
	// where the caller could: confirmLocked matches again if the rules
	// changed since.
	m ruleMatch
	// keep restricts the rules to a replay's FilterArns; nil: every rule.
	keep func(*rule) bool
}

// acceptLocked is the one way an event enters a bus. It appends to journal
// the record that the bus accepted it at `at` (the caller writes journal to
// the engine's journal before releasing the lock, so the journal lists
// events in the order their buses accepted them), lets the bus's archives
// keep it unless it is a replay, and appends to out its deliveries to the
// targets of the rules it matches.
func (s *Service) acceptLocked(a *arrival, at time.Time, journal []engine.Entry, out []delivery) ([]engine.Entry, []delivery) {
	journal = append(journal, publishEntry(a.b, a.ev, at))
	if a.ev.env.ReplayName == "" {
		s.archiveLocked(a.t, a.b, a.ev)
	}
	return journal, a.b.deliveriesLocked(a.b.confirmLocked(a.m, a.ev), a.ev, a.keep, out)
}

// acceptOneLocked lets one event into bus b, matched under the lock (the
// matcher needs none, but the caller found the bus under it), journals it
// and returns its deliveries.
func (s *Service) acceptOneLocked(t *tenant, b *bus, ev *event) []delivery {
	journal, ds := s.acceptLocked(&arrival{ev: ev, t: t, b: b, m: b.match(ev)}, s.clock.Now(), nil, nil)
	s.engine.Journal().AppendAll(journal)
	return ds
}

// publishEntry is the journal's record that bus b accepted ev at now.
func publishEntry(b *bus, ev *event, now time.Time) engine.Entry {
	return engine.Entry{
		Time: now, Kind: engine.KindPublish, EventIDs: []string{ev.env.ID}, Labels: b.journalLabels, Body: ev.raw,
	}
}

// ruleMatch is what an event matched on a bus, found without the service
// lock: the names of the rules, at a version of the bus's matcher.
type ruleMatch struct {
	rules   []string
	version uint64
}

// match matches ev against the bus's rules. The matcher needs no lock; the
// version read before it lets confirmLocked tell whether the rules changed
// meanwhile.
func (b *bus) match(ev *event) ruleMatch {
	v := b.matcherVersion.Load()
	names, _ := b.matcher.Match(ev.raw)
	return ruleMatch{rules: names, version: v}
}

// confirmLocked returns the rules of m, matched again when the bus's rules
// changed since: the answer is what matching under the lock would give.
func (b *bus) confirmLocked(m ruleMatch, ev *event) []string {
	if b.matcherVersion.Load() == m.version {
		return m.rules
	}
	names, _ := b.matcher.Match(ev.raw)
	return names
}

// deliveriesLocked appends to out ev's deliveries to the targets of the
// rules named, those the bus still has (and keep accepts, when set), in
// order of rule name then target.
func (b *bus) deliveriesLocked(names []string, ev *event, keep func(*rule) bool, out []delivery) []delivery {
	if len(names) > 1 {
		sort.Strings(names)
	}
	for _, name := range names {
		r, ok := b.rules[name]
		if !ok || (keep != nil && !keep(r)) {
			continue
		}
		out = r.deliveriesLocked(ev, out)
	}
	return out
}

// deliveriesLocked appends to out ev's delivery to each target of r.
func (r *rule) deliveriesLocked(ev *event, out []delivery) []delivery {
	for _, tg := range r.targets {
		out = append(out, delivery{route: tg.routeID, spec: tg.spec, ruleArn: r.arn, ruleName: r.name, ev: ev})
	}
	return out
}

// queuedItem is an engine item and its meta, allocated together (each
// item on its own: an item that waits for a retry keeps only its own event).
type queuedItem struct {
	item engine.Item
	meta itemMeta
}

// enqueue renders each delivery's input for its target and hands the items
// to the engine, the items of each route together and in the order given. A
// route removed since the deliveries were listed loses its events, and the
// journal says so (D-DROP).
func (s *Service) enqueue(ds []delivery) {
	if len(ds) == 0 {
		return
	}
	items := make([]*engine.Item, len(ds))
	for i, d := range ds {
		body, err := d.spec.Render(transform.Event{
			Envelope: d.ev.raw, RuleArn: d.ruleArn, RuleName: d.ruleName, IngestionTime: d.ev.ingested,
		})
		q := new(queuedItem)
		q.meta = itemMeta{ev: d.ev, renderErr: err}
		q.item = engine.Item{ID: d.ev.env.ID, Body: body, PublishedAt: d.ev.ingested, Meta: &q.meta}
		items[i] = &q.item
	}
	// Group by route, keeping each route's order: routes in the order they
	// first appear. One route (one rule with one target), the common case,
	// is one call.
	single := true
	for _, d := range ds[1:] {
		single = single && d.route == ds[0].route
	}
	if single {
		s.enqueueRoute(ds[0].route, items)
		return
	}
	grouped := make([]bool, len(ds))
	group := make([]*engine.Item, 0, len(ds))
	for i := range ds {
		if grouped[i] {
			continue
		}
		route := ds[i].route
		group = group[:0]
		for j := i; j < len(ds); j++ {
			if !grouped[j] && ds[j].route == route {
				grouped[j] = true
				group = append(group, items[j])
			}
		}
		s.enqueueRoute(route, group)
	}
}

// enqueueRoute hands items to route. A route removed since the deliveries
// were listed loses its events, and the journal says so (D-DROP).
func (s *Service) enqueueRoute(route string, items []*engine.Item) {
	if err := s.engine.Enqueue(route, items...); err != nil {
		for _, it := range items {
			s.engine.Journal().Append(engine.Entry{
				Time: s.clock.Now(), Kind: engine.KindDrop, Route: route, EventIDs: []string{it.ID},
				Outcome: engine.ReasonRouteDeleted, Message: "the target was removed before the event was queued",
				Labels: map[string]string{"cloud": "eventbridge"},
			})
		}
	}
}
