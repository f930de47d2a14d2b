package eventgrid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/schema"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// accept routes the events of one accepted publish request: each is
// journalled as published, matched against the topic's provisioned
// subscriptions, rendered in each one's delivery schema and queued on its
// route (EG-1: tried at once for every matching subscription).
func (s *Service) accept(t *resource.Topic, events []*egevent.Event) {
	var subs []*resource.EventSubscription
	for _, sub := range s.store.Subscriptions(t.ID) {
		if sub.ProvisioningState == resource.StateSucceeded {
			subs = append(subs, sub)
		}
	}
	queued := make([][]*engine.Item, len(subs))
	// Journal entries are never modified, so the events of one request
	// share their labels and, when the same subscriptions match, their
	// message: a held event then costs the journal little beyond its entry.
	labels := map[string]string{"cloud": "eventgrid", "topic": t.Name}
	var messages publishMessages
	matched := make([]string, 0, len(subs))
	for _, ev := range events {
		view := &lazyView{ev: ev}
		matched = matched[:0]
		for i, sub := range subs {
			if !sub.Matches(view) {
				continue
			}
			body, err := schema.Render(ev, sub.DeliverySchema(t.InputSchema))
			if err != nil {
				s.drop(t, sub, ev, "RenderFailed", err.Error())
				continue
			}
			queued[i] = append(queued[i], &engine.Item{ID: ev.ID, Body: body, PublishedAt: ev.PublishedAt, Meta: ev})
			matched = append(matched, sub.Name)
		}
		s.journal.Append(engine.Entry{
			Time: ev.PublishedAt, Kind: engine.KindPublish, EventIDs: []string{ev.ID},
			Labels: labels, Message: messages.of(t, matched),
		})
	}
	for i, items := range queued {
		if len(items) == 0 {
			continue
		}
		if err := s.cfg.Engine.Enqueue(routeID(t, subs[i]), items...); err != nil {
			// The subscription was deleted between matching and queueing.
			for _, it := range items {
				s.drop(t, subs[i], it.Meta.(*egevent.Event), engine.ReasonRouteDeleted, err.Error())
			}
		}
	}
}

// publishMessages remembers the last publish message of a request, which
// the next event most often shares.
type publishMessages struct {
	matched []string
	text    string
}

func (m *publishMessages) of(t *resource.Topic, matched []string) string {
	if m.text != "" && slices.Equal(m.matched, matched) {
		return m.text
	}
	m.matched = append(m.matched[:0], matched...)
	if len(matched) == 0 {
		m.text = fmt.Sprintf("accepted by topic %s; no event subscription matched", t.Name)
	} else {
		m.text = fmt.Sprintf("accepted by topic %s; matched %s", t.Name, strings.Join(matched, ", "))
	}
	return m.text
}

// drop journals an event that matched a subscription but could not be
// queued for it (D-DROP: nothing vanishes silently).
func (s *Service) drop(t *resource.Topic, sub *resource.EventSubscription, ev *egevent.Event, reason, msg string) {
	s.journal.Append(engine.Entry{
		Time: s.clock.Now(), Kind: engine.KindDrop, Route: routeID(t, sub), Labels: routeLabels(t, sub),
		EventIDs: []string{ev.ID}, Outcome: reason, Message: msg,
	})
}
