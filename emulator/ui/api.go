package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// api answers the dashboard's read-only endpoints. Each one pages, so a view
// of a full journal (100,000 entries) sends one page, not the journal.
type api struct {
	src Source
}

const (
	defaultLimit = 100
	maxLimit     = 1000
)

// page reads ?offset= and ?limit= (defaults 0 and 100, limit at most 1000).
func page(r *http.Request) (offset, limit int, err error) {
	q := r.URL.Query()
	offset, limit = 0, defaultLimit
	if v := q.Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 {
			return 0, 0, fmt.Errorf("offset must be a count: %q", v)
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxLimit {
			return 0, 0, fmt.Errorf("limit must be 1 to %d: %q", maxLimit, v)
		}
	}
	return offset, limit, nil
}

// EventSummary is one event as the dashboard's event list shows it: every
// journal entry naming the event folded into one line.
type EventSummary struct {
	ID     string    `json:"id"`
	Cloud  string    `json:"cloud,omitempty"`
	Type   string    `json:"type,omitempty"`
	Source string    `json:"source,omitempty"`
	Time   time.Time `json:"time"`
	// Routes names each route the event went to ("orders/audit") with what
	// became of it there.
	Routes   []RouteOutcome `json:"routes"`
	Attempts int            `json:"attempts"`
	// Outcome sums the routes up: dropped, dead-lettered, retrying, held,
	// pending, delivered, filtered (by a pipe), or unmatched when no route
	// took the event.
	Outcome string `json:"outcome"`
	LastSeq uint64 `json:"lastSeq"`

	body []byte // a publish or request body carrying the event, for its type
}

// RouteOutcome is what became of an event on one route.
type RouteOutcome struct {
	Route   string `json:"route"`
	Name    string `json:"name"`
	Outcome string `json:"outcome"`
}

// EventsPage is GET /_emulator/ui/api/events.
type EventsPage struct {
	Events  []EventSummary `json:"events"`
	Total   int            `json:"total"`
	Offset  int            `json:"offset"`
	LastSeq uint64         `json:"lastSeq"`
	// Discarded is how many older journal entries are no longer held.
	Discarded uint64 `json:"discarded"`
}

// outcomeRank orders route outcomes for the event's summary: the worst wins.
var outcomeRank = map[string]int{
	"delivered": 1, "filtered": 1, "pending": 2, "held": 3, "retrying": 4, "dead-lettered": 5, "dropped": 6,
}

// handleEvents lists events newest first: ?q= keeps those whose id, type,
// source, route or outcome contains the text (case-insensitive); ?outcome=
// keeps one summary outcome; ?offset= and ?limit= page.
func (a *api) handleEvents(w http.ResponseWriter, r *http.Request) {
	offset, limit, err := page(r)
	if err != nil {
		httpjson.Error(w, http.StatusBadRequest, "%v", err)
		return
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	wantOutcome := r.URL.Query().Get("outcome")
	events := summarize(a.src.Journal.Query(engine.Filter{}))
	kept := make([]*EventSummary, 0, len(events))
	for i := len(events) - 1; i >= 0; i-- { // newest first
		e := events[i]
		if wantOutcome != "" && e.Outcome != wantOutcome {
			continue
		}
		if q != "" && !e.matches(q) {
			continue
		}
		kept = append(kept, e)
	}
	st := a.src.Journal.Stats()
	out := EventsPage{Events: []EventSummary{}, Total: len(kept), Offset: offset, LastSeq: st.Appended, Discarded: st.Discarded}
	if offset < len(kept) {
		for _, e := range kept[offset:min(len(kept), offset+limit)] {
			e.describe()
			if e.Routes == nil {
				// An event no route took (a topic without subscriptions)
				// has an empty list, never null.
				e.Routes = []RouteOutcome{}
			}
			out.Events = append(out.Events, *e)
		}
	}
	httpjson.Write(w, http.StatusOK, out)
}

// summarize folds journal entries, oldest first, into one summary per event
// id, in order of first appearance.
func summarize(entries []engine.Entry) []*EventSummary {
	byID := make(map[string]*EventSummary)
	var order []*EventSummary
	type routeKey struct{ event, route string }
	routeAt := make(map[routeKey]int)
	for i := range entries {
		e := &entries[i]
		for _, id := range e.EventIDs {
			s := byID[id]
			if s == nil {
				s = &EventSummary{ID: id, Time: e.Time}
				byID[id] = s
				order = append(order, s)
			}
			s.LastSeq = e.Seq
			if s.Cloud == "" {
				s.Cloud = e.Labels["cloud"]
			}
			if s.body == nil {
				switch {
				case e.Kind == engine.KindPublish && len(e.Body) > 0:
					s.body = e.Body
				case e.Request != nil && len(e.Request.Body) > 0:
					s.body = e.Request.Body
				}
			}
			if e.Route == "" {
				continue
			}
			k := routeKey{id, e.Route}
			at, ok := routeAt[k]
			if !ok {
				at = len(s.Routes)
				routeAt[k] = at
				s.Routes = append(s.Routes, RouteOutcome{Route: e.Route, Name: routeName(e.Labels), Outcome: "pending"})
			}
			ro := &s.Routes[at]
			switch e.Kind {
			case engine.KindAttempt:
				s.Attempts++
				if e.NextAttemptAt != nil {
					ro.Outcome = "retrying"
				}
			case engine.KindDelivered:
				ro.Outcome = "delivered"
			case engine.KindDeadLetter:
				ro.Outcome = "dead-lettered"
			case engine.KindDrop:
				ro.Outcome = "dropped"
			case engine.KindDeferred:
				ro.Outcome = "held"
			case engine.KindFilter:
				if e.Outcome == "FilteredOut" {
					ro.Outcome = "filtered"
				}
			}
		}
	}
	for _, s := range order {
		s.Outcome = "unmatched"
		best := 0
		for _, ro := range s.Routes {
			if r := outcomeRank[ro.Outcome]; r > best {
				best, s.Outcome = r, ro.Outcome
			}
		}
	}
	return order
}

// routeName is a route's readable name from its labels, the cloud's own
// hierarchy joined with slashes ("orders/audit", "default/r1/t1").
func routeName(labels map[string]string) string {
	var parts []string
	for _, k := range []string{"namespace", "topic", "subscription", "bus", "rule", "target", "subscriber", "pipe"} {
		if v := labels[k]; v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, "/")
}

func (s *EventSummary) matches(q string) bool {
	if strings.Contains(strings.ToLower(s.ID), q) || strings.Contains(s.Outcome, q) || strings.Contains(s.Cloud, q) {
		return true
	}
	for _, ro := range s.Routes {
		if strings.Contains(strings.ToLower(ro.Name), q) {
			return true
		}
	}
	s.describe()
	return strings.Contains(strings.ToLower(s.Type), q) || strings.Contains(strings.ToLower(s.Source), q)
}

// describe fills Type and Source from the event's body: Event Grid's
// eventType/subject, CloudEvents' type/source, EventBridge's
// detail-type/source. A batch body is searched for the event's id.
func (s *EventSummary) describe() {
	if s.body == nil || s.Type != "" || s.Source != "" {
		return
	}
	type fields struct {
		ID         string `json:"id"`
		EventType  string `json:"eventType"`
		Type       string `json:"type"`
		DetailType string `json:"detail-type"`
		Source     string `json:"source"`
		Subject    string `json:"subject"`
	}
	var one fields
	var many []fields
	body := s.body
	s.body = nil
	if json.Unmarshal(body, &many) != nil {
		if json.Unmarshal(body, &one) != nil {
			return
		}
		many = []fields{one}
	}
	if len(many) == 0 {
		return
	}
	f := many[0]
	for _, m := range many {
		if m.ID == s.ID {
			f = m
			break
		}
	}
	s.Type = firstOf(f.EventType, f.DetailType, f.Type)
	s.Source = firstOf(f.Source, f.Subject)
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// EntryView is a journal entry as the inspection API's journal views show it.
type EntryView = engine.EntryView

func viewOf(e engine.Entry) EntryView { return engine.ViewOf(e) }

// EntriesPage is GET /_emulator/ui/api/entries.
type EntriesPage struct {
	Entries   []EntryView `json:"entries"`
	Total     int         `json:"total"`
	Offset    int         `json:"offset"`
	LastSeq   uint64      `json:"lastSeq"`
	Discarded uint64      `json:"discarded"`
}

// handleEntries pages journal entries of one ?kind= (deadletter, drop, …),
// newest first; ?q= keeps those whose event ids, route, outcome, message or
// destination contain the text.
func (a *api) handleEntries(w http.ResponseWriter, r *http.Request) {
	offset, limit, err := page(r)
	if err != nil {
		httpjson.Error(w, http.StatusBadRequest, "%v", err)
		return
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	all := a.src.Journal.Query(engine.Filter{Kind: r.URL.Query().Get("kind")})
	kept := make([]*engine.Entry, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		if q == "" || entryMatches(&all[i], q) {
			kept = append(kept, &all[i])
		}
	}
	st := a.src.Journal.Stats()
	out := EntriesPage{Entries: []EntryView{}, Total: len(kept), Offset: offset, LastSeq: st.Appended, Discarded: st.Discarded}
	if offset < len(kept) {
		for _, e := range kept[offset:min(len(kept), offset+limit)] {
			out.Entries = append(out.Entries, viewOf(*e))
		}
	}
	httpjson.Write(w, http.StatusOK, out)
}

func entryMatches(e *engine.Entry, q string) bool {
	for _, s := range append([]string{e.Route, e.Outcome, e.Message, e.Destination, routeName(e.Labels)}, e.EventIDs...) {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// handleTimers lists when a virtual clock's next timers fire (?limit=, 20 by
// default), so the page can offer "advance to the next timer".
func (a *api) handleTimers(w http.ResponseWriter, r *http.Request) {
	_, limit, err := page(r)
	if err != nil {
		httpjson.Error(w, http.StatusBadRequest, "%v", err)
		return
	}
	if r.URL.Query().Get("limit") == "" {
		limit = 20
	}
	if a.src.Virtual == nil {
		httpjson.Write(w, http.StatusOK, map[string]any{"mode": engine.ModeReal, "timers": []time.Time{}})
		return
	}
	at := a.src.Virtual.NextTimers(limit)
	for i := range at {
		at[i] = at[i].UTC()
	}
	httpjson.Write(w, http.StatusOK, map[string]any{
		"mode": engine.ModeVirtual, "now": a.src.Virtual.Now().UTC(), "pending": a.src.Virtual.Pending(), "timers": at,
	})
}

// handleChanges is the page's live feed, a long poll: it answers with the
// journal's newest sequence number as soon as it passes ?after= (or after
// ?wait=, 25 s by default, at most 5 m), so each view refreshes only when
// something happened.
func (a *api) handleChanges(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	after, err := strconv.ParseUint(q.Get("after"), 10, 64)
	if err != nil {
		httpjson.Error(w, http.StatusBadRequest, "after must be a sequence number: %q", q.Get("after"))
		return
	}
	wait := 25 * time.Second
	if v := q.Get("wait"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > 5*time.Minute {
			httpjson.Error(w, http.StatusBadRequest, "wait must be a duration up to 5m: %q", v)
			return
		}
		wait = d
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	// The condition reads the journal's sequence, not its entries, so a
	// wait costs nothing per append; Reset keeps the sequence growing.
	_, _ = a.src.Journal.Wait(ctx, engine.Filter{AfterSeq: after, Kind: "\x00none"}, func([]engine.Entry) bool {
		return a.src.Journal.Stats().Appended > after
	})
	httpjson.Write(w, http.StatusOK, map[string]uint64{"lastSeq": a.src.Journal.Stats().Appended})
}
