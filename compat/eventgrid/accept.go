package eventgrid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// accept routes the events of one accepted publish request: each is
// journalled as published, matched against the provisioned subscriptions
// of the topic it went to, rendered in each one's delivery schema and
// queued on its route (EG-1: tried at once for every matching
// subscription). An event published to a domain goes to the subscriptions
// of its domain topic and to those of the domain itself.
func (s *basicTopics) accept(t *resource.Topic, events []*egevent.Event) {
	if t.Type != resource.TypeDomain {
		subs := s.provisioned(t)
		s.dispatch(events, func(*egevent.Event) []scoped { return subs },
			func(*egevent.Event) map[string]string {
				return map[string]string{"cloud": "eventgrid", "topic": t.Name}
			})
		return
	}
	domainSubs := s.provisioned(t)
	byTopic := map[string][]scoped{}
	s.dispatch(events, func(ev *egevent.Event) []scoped {
		key := resource.Key(ev.Topic)
		subs, ok := byTopic[key]
		if !ok {
			subs = domainSubs
			if dt := s.store.Topic(ev.Topic); dt != nil {
				subs = append(s.provisioned(dt), domainSubs...)
			}
			byTopic[key] = subs
		}
		return subs
	}, func(ev *egevent.Event) map[string]string {
		return map[string]string{"cloud": "eventgrid", "domain": t.Name, "topic": ev.TopicName}
	})
}

// scoped is an event subscription with what it is on: a topic, a domain,
// a domain topic or a system topic.
type scoped struct {
	scope *resource.Topic
	sub   *resource.EventSubscription
}

// provisioned lists t's subscriptions that deliver.
func (s *basicTopics) provisioned(t *resource.Topic) []scoped {
	var out []scoped
	for _, sub := range s.store.Subscriptions(t.ID) {
		if sub.ProvisioningState == resource.StateSucceeded {
			out = append(out, scoped{t, sub})
		}
	}
	return out
}

// dispatch matches, renders, journals and queues events; subsOf says which
// subscriptions an event may go to and labelsOf how its publish entry is
// labelled.
func (s *basicTopics) dispatch(events []*egevent.Event, subsOf func(*egevent.Event) []scoped, labelsOf func(*egevent.Event) map[string]string) {
	type queue struct {
		to    scoped
		items []*engine.Item
	}
	var queues []*queue
	byRoute := map[string]*queue{}
	// Journal entries are never modified, so the events of one request
	// share their labels and, when the same subscriptions match, their
	// message: a held event then costs the journal little beyond its entry.
	var labels map[string]string
	var labelKey string
	var messages publishMessages
	var matched []string
	for _, ev := range events {
		view := &lazyView{ev: ev}
		matched = matched[:0]
		for _, to := range subsOf(ev) {
			if !to.sub.Matches(view) {
				continue
			}
			item, err := newDeliveryItem(ev, to.sub.DeliverySchema(to.scope.InputSchema))
			if err != nil {
				s.drop(to.scope, to.sub, ev, "RenderFailed", err.Error())
				continue
			}
			id := routeID(to.scope, to.sub)
			q := byRoute[id]
			if q == nil {
				q = &queue{to: to}
				byRoute[id] = q
				queues = append(queues, q)
			}
			q.items = append(q.items, item)
			matched = append(matched, to.sub.Name)
		}
		if labels == nil || labelKey != ev.Topic {
			labels, labelKey = labelsOf(ev), ev.Topic
		}
		entry := engine.Entry{
			Time: ev.PublishedAt, Kind: engine.KindPublish, EventIDs: []string{ev.ID},
			Labels: labels, Message: messages.of(ev.TopicName, matched),
		}
		if len(matched) == 0 {
			// No delivery will show what was published: the entry keeps it.
			entry.Body = ev.Raw
		}
		s.journal.Append(entry)
	}
	for _, q := range queues {
		if err := s.cfg.Engine.Enqueue(routeID(q.to.scope, q.to.sub), q.items...); err != nil {
			// The subscription was deleted between matching and queueing.
			for _, it := range q.items {
				s.drop(q.to.scope, q.to.sub, it.Meta.(*egevent.Event), engine.ReasonRouteDeleted, err.Error())
			}
		}
	}
}

// publishMessages remembers the last publish message of a request, which
// the next event most often shares.
type publishMessages struct {
	topic   string
	matched []string
	text    string
}

func (m *publishMessages) of(topic string, matched []string) string {
	if m.text != "" && m.topic == topic && slices.Equal(m.matched, matched) {
		return m.text
	}
	m.matched = append(m.matched[:0], matched...)
	m.topic = topic
	if len(matched) == 0 {
		m.text = fmt.Sprintf("accepted by topic %s; no event subscription matched", topic)
	} else {
		m.text = fmt.Sprintf("accepted by topic %s; matched %s", topic, strings.Join(matched, ", "))
	}
	return m.text
}

// drop journals an event that matched a subscription but could not be
// queued for it (D-DROP: nothing vanishes silently).
func (s *basicTopics) drop(t *resource.Topic, sub *resource.EventSubscription, ev *egevent.Event, reason, msg string) {
	s.journal.Append(engine.Entry{
		Time: s.clock.Now(), Kind: engine.KindDrop, Route: routeID(t, sub), Labels: routeLabels(t, sub),
		EventIDs: []string{ev.ID}, Outcome: reason, Message: msg,
	})
}
