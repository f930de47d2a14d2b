package namespaces

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// Receive limits [SPEC]: maxEvents 1..100 (default 1), maxWaitTime 10..120 s
// (default 60). Values outside them are refused with 400 (the service's
// answer is UNCONFIRMED).
const (
	defaultMaxEvents, maxMaxEvents = 1, 100
	defaultWait, minWait, maxWait  = 60, 10, 120
)

// subscriptionOperation is POST …/topics/{t}/eventsubscriptions/{s}:{op}.
func (s *Service) subscriptionOperation(w http.ResponseWriter, r *http.Request, v dataPath) {
	subName, op, ok := splitOperation(v.operation)
	handler := s.pullOperation(op)
	if !ok || handler == nil {
		writeDataError(w, http.StatusNotFound, codeNotFound, "The event subscription operation '"+v.operation+
			"' is not supported; use receive, acknowledge, release, reject or renewLock.")
		return
	}
	t, ok := s.authorize(w, r, v.namespace, v.topic)
	if !ok {
		return
	}
	s.mu.RLock()
	es := t.subs[lower(subName)]
	var q *queue.Queue
	if es != nil {
		q = es.queue
	}
	s.mu.RUnlock()
	switch {
	case es == nil:
		writeDataError(w, http.StatusNotFound, codeNotFound, "The event subscription '"+subName+"' was not found on topic '"+v.topic+"'.")
	case q == nil:
		writeDataError(w, http.StatusBadRequest, codeBadRequest, "The event subscription '"+subName+
			"' delivers in Push mode; receive and settle operations need deliveryMode Queue.")
	default:
		handler(w, r, es, q)
	}
}

type pullHandler func(http.ResponseWriter, *http.Request, *subscriptionState, *queue.Queue)

// pullOperation names the handler of an operation, nil for an unknown one.
func (s *Service) pullOperation(op string) pullHandler {
	switch lower(op) {
	case "receive":
		return s.receive
	case "acknowledge":
		return s.acknowledge
	case "release":
		return s.release
	case "reject":
		return s.reject
	case "renewlock":
		return s.renewLocks
	}
	return nil
}

// receive hands out up to maxEvents events under fresh locks, waiting (in
// real time) up to maxWaitTime for the first one. A timeout is 200 with an
// empty value, never an error the SDKs would retry.
func (s *Service) receive(w http.ResponseWriter, r *http.Request, es *subscriptionState, q *queue.Queue) {
	maxEvents, ok := intParam(w, queryValue(r.URL.RawQuery, "maxEvents"), "maxEvents", defaultMaxEvents, 1, maxMaxEvents)
	if !ok {
		return
	}
	wait, ok := intParam(w, queryValue(r.URL.RawQuery, "maxWaitTime"), "maxWaitTime", defaultWait, minWait, maxWait)
	if !ok {
		return
	}
	got := q.Receive(r.Context(), maxEvents, time.Duration(wait)*time.Second)
	if len(got) > 0 {
		// One attempt entry per delivery count: the events of a receive
		// that share it (all of them, on a first receive) are one attempt
		// of the same number, as a batch delivery is.
		now := s.clock.Now()
		ids := make([]string, len(got))
		for i, d := range got {
			ids[i] = d.Event.ID
		}
		for start := 0; start < len(got); {
			end := start + 1
			for end < len(got) && got[end].DeliveryCount == got[start].DeliveryCount {
				end++
			}
			s.journal.Append(engine.Entry{
				Time: now, Kind: engine.KindAttempt, Route: es.route, Labels: es.labels,
				EventIDs: ids[start:end:end], Attempt: got[start].DeliveryCount, Outcome: outcomeReceived,
			})
			start = end
		}
	}
	httpjson.WriteBody(w, http.StatusOK, receiveBody(got))
}

// receiveBody writes {"value":[{"brokerProperties":{…},"event":{…}}]} by
// hand: events are stored as JSON already, and value is always present.
func receiveBody(got []queue.Delivery) []byte {
	size := 16
	for _, d := range got {
		size += len(d.Event.JSON) + len(d.Token) + 80
	}
	b := make([]byte, 0, size)
	b = append(b, `{"value":[`...)
	for i, d := range got {
		if i > 0 {
			b = append(b, ',')
		}
		// Tokens are base64, which needs no JSON escaping.
		b = append(b, `{"brokerProperties":{"lockToken":"`...)
		b = append(b, d.Token...)
		b = append(b, `","deliveryCount":`...)
		b = strconv.AppendInt(b, int64(d.DeliveryCount), 10)
		b = append(b, `},"event":`...)
		b = append(b, d.Event.JSON...)
		b = append(b, '}')
	}
	return append(b, `]}`...)
}

// queryValue is r.URL.Query().Get(name) without building the map: the
// first value of name in a raw query, pairs read as url.ParseQuery reads
// them (one holding ';' or a bad escape skipped), "" when it is absent.
func queryValue(rawQuery, name string) string {
	for rawQuery != "" {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(key)
		if err != nil || key != name {
			continue
		}
		if value, err = url.QueryUnescape(value); err != nil {
			continue
		}
		return value
	}
	return ""
}

// intParam reads an integer query parameter within [lo, hi], answering 400
// itself when it is not.
func intParam(w http.ResponseWriter, raw, name string, def, lo, hi int) (int, bool) {
	if raw == "" {
		return def, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		writeDataError(w, http.StatusBadRequest, codeBadRequest,
			name+" must be an integer between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi)+", not '"+raw+"'.")
		return 0, false
	}
	return n, true
}
