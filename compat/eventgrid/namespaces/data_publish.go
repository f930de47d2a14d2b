package namespaces

import (
	"errors"
	"net/http"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/push"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// maxPublishBody is the documented limit of one publish request: 1 MB per
// event and per batch.
const maxPublishBody = 1 << 20

// publish is POST {prefix}/{namespace}/topics/{topic}:publish, structured,
// batched or binary mode. It answers 200 {} (any other 2xx is an error to the
// SDKs) and never waits for delivery.
func (s *Service) publish(w http.ResponseWriter, r *http.Request, v dataPath) {
	topicName, op, ok := splitOperation(v.operation)
	if !ok || lower(op) != "publish" {
		writeDataError(w, http.StatusNotFound, codeNotFound, "The topic operation '"+v.operation+"' is not supported; use {topic}:publish.")
		return
	}
	t, ok := s.authorize(w, r, v.namespace, topicName)
	if !ok {
		return
	}
	body, tooLarge, err := readBody(r, maxPublishBody)
	switch {
	case tooLarge:
		writeDataError(w, http.StatusRequestEntityTooLarge, codeTooLarge, "The request is larger than the 1 MB a publish may carry.")
		return
	case err != nil:
		writeDataError(w, http.StatusBadRequest, codeBadRequest, "The request body could not be read: "+err.Error())
		return
	}
	events, err := cloudevent.ParseRequest(r.Header, body)
	if err != nil {
		var inv *cloudevent.InvalidError
		if !errors.As(err, &inv) {
			inv = &cloudevent.InvalidError{Message: err.Error()}
		}
		writeDataError(w, http.StatusBadRequest, codeBadRequest, inv.Message)
		return
	}
	s.mu.RLock()
	if !s.live(t) {
		s.mu.RUnlock()
		writeDataError(w, http.StatusNotFound, codeNotFound, "The topic '"+topicName+"' was not found.")
		return
	}
	s.accept(t, events)
	s.mu.RUnlock()
	httpjson.WriteBody(w, http.StatusOK, []byte("{}"))
}

// accept journals the publish and hands every event to each subscription
// whose filter takes it. The caller holds Service.mu for reading.
func (s *Service) accept(t *topicState, events []*cloudevent.Event) {
	now := s.clock.Now()
	ids := make([]string, len(events))
	for i, ev := range events {
		ids[i] = ev.ID
	}
	s.journal.Append(engine.Entry{
		Time: now, Kind: engine.KindPublish, Route: topicRoute(t.ns.res.Name, t.res.Name),
		Labels:   map[string]string{"cloud": cloudLabel, "namespace": t.ns.res.Name, "topic": t.res.Name},
		EventIDs: ids,
	})
	taken := make([]bool, len(events))
	for _, es := range t.subList {
		matched := events
		if f := es.runtime.Load().settings.Filter; f != nil {
			matched = make([]*cloudevent.Event, 0, len(events))
			for i, ev := range events {
				if f.Match(ev.ForFilter()) {
					matched = append(matched, ev)
					taken[i] = true
				}
			}
		} else {
			for i := range taken {
				taken[i] = true
			}
		}
		if len(matched) > 0 {
			s.hand(es, now, matched)
		}
	}
	s.journalUnmatched(t, now, events, taken)
}

// journalUnmatched records the events no subscription took: the topic
// accepted them and they go nowhere, which a test should be able to see
// (D-DROP; Azure counts them as unmatched events).
func (s *Service) journalUnmatched(t *topicState, now time.Time, events []*cloudevent.Event, taken []bool) {
	var ids []string
	for i, ev := range events {
		if !taken[i] {
			ids = append(ids, ev.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	s.journal.Append(engine.Entry{
		Time: now, Kind: engine.KindDrop, Route: topicRoute(t.ns.res.Name, t.res.Name),
		Labels:   map[string]string{"cloud": cloudLabel, "namespace": t.ns.res.Name, "topic": t.res.Name},
		EventIDs: ids, Outcome: reasonNoMatchingSubscription,
		Message: "no event subscription of the topic takes these events",
	})
}

// hand gives matched events to one subscription: its queue, or its push
// route in the engine.
func (s *Service) hand(es *subscriptionState, now time.Time, events []*cloudevent.Event) {
	var err error
	if es.queue != nil {
		if !es.queue.Add(now, events) {
			err = errors.New("the subscription's queue was closed")
		}
	} else {
		items := make([]*engine.Item, len(events))
		for i, ev := range events {
			items[i] = push.NewItem(ev, now)
		}
		err = s.cfg.Engine.Enqueue(es.route, items...)
	}
	if err != nil {
		ids := make([]string, len(events))
		for i, ev := range events {
			ids[i] = ev.ID
		}
		s.journal.Append(engine.Entry{
			Time: now, Kind: engine.KindDrop, Route: es.route, Labels: es.labels, EventIDs: ids,
			Outcome: reasonSubscriptionDeleted, Message: err.Error(),
		})
	}
}
