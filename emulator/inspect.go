package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid"
	"github.com/gridbridge/gridbridge/compat/pipes"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// The inspection API is the contract the testkit speaks, so the same test
// works against an in-process emulator and a container. Every endpoint is
// documented in the README.
func (s *Server) registerInspection(r *mux.Router) {
	r.HandleFunc("/health", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/ca.pem", s.handleCA).Methods(http.MethodGet)
	r.HandleFunc("/info", s.handleInfo).Methods(http.MethodGet)
	r.HandleFunc("/clock", s.handleClock).Methods(http.MethodGet)
	r.HandleFunc("/clock/advance", s.handleAdvance).Methods(http.MethodPost)
	r.HandleFunc("/deliveries", s.journalView(engine.KindAttempt)).Methods(http.MethodGet)
	r.HandleFunc("/deadletters", s.journalView(engine.KindDeadLetter)).Methods(http.MethodGet)
	r.HandleFunc("/drops", s.journalView(engine.KindDrop)).Methods(http.MethodGet)
	r.HandleFunc("/journal", s.journalView("")).Methods(http.MethodGet)
	r.HandleFunc("/metrics", s.handleMetrics).Methods(http.MethodGet)
	r.HandleFunc("/faults", s.handleFaultsList).Methods(http.MethodGet)
	r.HandleFunc("/faults", s.handleFaultAdd).Methods(http.MethodPost)
	r.HandleFunc("/faults", s.handleFaultsClear).Methods(http.MethodDelete)
	r.HandleFunc("/faults/{id}", s.handleFaultRemove).Methods(http.MethodDelete)
	r.HandleFunc("/api-faults", s.handleAPIFaultsList).Methods(http.MethodGet)
	r.HandleFunc("/api-faults", s.handleAPIFaultAdd).Methods(http.MethodPost)
	r.HandleFunc("/api-faults", s.handleAPIFaultsClear).Methods(http.MethodDelete)
	r.HandleFunc("/api-faults/{id}", s.handleAPIFaultRemove).Methods(http.MethodDelete)
	r.HandleFunc("/reset", s.handleReset).Methods(http.MethodPost)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.Error(w, http.StatusNotFound, "no inspection endpoint %s %s; see the README's inspection API table", r.Method, r.URL.Path)
	})
}

func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, map[string]string{"status": "ok"})
}

// InfoView is GET /_emulator/info: how to reach this emulator.
type InfoView struct {
	HTTP  string `json:"http"`
	HTTPS string `json:"https"`
	Clock string `json:"clock"`
	// Seed is the retry-jitter seed in use; pass it to --seed to repeat a run.
	Seed int64 `json:"seed"`
	// Jitter and Probation say whether retries are jittered (no
	// --no-jitter) and Event Grid holds failing subscriptions in delayed
	// delivery and probation (no --no-probation): what a client such as
	// the testkit checks before it expects exact schedules.
	Jitter    bool `json:"jitter"`
	Probation bool `json:"probation"`
	// AzureStorageAccounts and SQSEndpoint name the real dead-letter
	// services configured; empty means the in-memory default.
	AzureStorageAccounts []string `json:"azureStorageAccounts,omitempty"`
	SQSEndpoint          string   `json:"sqsEndpoint,omitempty"`
}

func (s *Server) handleInfo(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, InfoView{
		HTTP: s.URL(), HTTPS: s.TLSURL(), Clock: s.clock.Mode(), Seed: s.opts.Seed,
		Jitter: !s.opts.DisableJitter, Probation: !s.opts.DisableProbation,
		AzureStorageAccounts: s.storageAccounts, SQSEndpoint: s.opts.SQSEndpoint,
	})
}

func (s *Server) handleCA(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/x-pem-file")
	_, _ = w.Write(s.ca.caPEM)
}

// ClockView is the clock as GET /_emulator/clock reports it.
type ClockView struct {
	Now  time.Time `json:"now"`
	Mode string    `json:"mode"`
	// PendingTimers and NextTimerAt describe a virtual clock's queue.
	PendingTimers int        `json:"pendingTimers,omitempty"`
	NextTimerAt   *time.Time `json:"nextTimerAt,omitempty"`
}

func (s *Server) clockView() ClockView {
	v := ClockView{Now: s.clock.Now().UTC(), Mode: s.clock.Mode()}
	if s.virtual != nil {
		v.PendingTimers = s.virtual.Pending()
		if at, ok := s.virtual.NextAt(); ok {
			at = at.UTC()
			v.NextTimerAt = &at
		}
	}
	return v
}

func (s *Server) handleClock(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, s.clockView())
}

// handleAdvance moves a virtual clock: {"by":"90s"} or {"to":"<RFC3339>"}.
func (s *Server) handleAdvance(w http.ResponseWriter, r *http.Request) {
	if s.virtual == nil {
		httpjson.Error(w, http.StatusConflict, "the clock is %q; only a virtual clock (--clock virtual) can be advanced", s.clock.Mode())
		return
	}
	var req struct {
		By string    `json:"by"`
		To time.Time `json:"to"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
		httpjson.Error(w, http.StatusBadRequest, `body must be JSON like {"by":"90s"}: %s`, jsonerr.Describe(err, nil, nil))
		return
	}
	var by time.Duration
	switch {
	case req.By != "" && !req.To.IsZero():
		httpjson.Error(w, http.StatusBadRequest, `give "by" or "to", not both`)
		return
	case req.By != "":
		d, err := time.ParseDuration(req.By)
		if err != nil || d < 0 {
			httpjson.Error(w, http.StatusBadRequest, `"by" must be a non-negative Go duration such as "90s" or "24h": %q`, req.By)
			return
		}
		by = d
	case !req.To.IsZero():
		now := s.virtual.Now()
		by = req.To.Sub(now)
		if by < 0 {
			httpjson.Error(w, http.StatusBadRequest, `"to" (%s) is before the clock (%s)`, req.To.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano))
			return
		}
		if !now.Add(by).Equal(req.To) {
			// Sub saturates at the longest Duration (about 292 years): the
			// clock would stop short of "to" while answering 200.
			httpjson.Error(w, http.StatusBadRequest, `"to" (%s) is more than %s after the clock (%s), the most one advance can move it`,
				req.To.UTC().Format(time.RFC3339Nano), time.Duration(math.MaxInt64), now.UTC().Format(time.RFC3339Nano))
			return
		}
	default:
		httpjson.Error(w, http.StatusBadRequest, `body must say how far to move, e.g. {"by":"90s"}`)
		return
	}
	started := time.Now()
	s.virtual.Advance(by)
	if s.opts.AfterAdvance != nil {
		s.opts.AfterAdvance(time.Since(started))
	}
	httpjson.Write(w, http.StatusOK, s.clockView())
}

// EntryView is a journal entry as the inspection API shows it: bodies are
// inlined as JSON when they are JSON, as text otherwise.
type EntryView = engine.EntryView

// RequestView is a recorded request with its body inlined.
type RequestView = engine.RequestView

func viewOf(e engine.Entry) EntryView { return engine.ViewOf(e) }

// JournalPage is the answer of the journal views.
type JournalPage struct {
	Entries []EntryView `json:"entries"`
	// Discarded is how many older entries the bounded journal no longer holds.
	Discarded uint64 `json:"discarded"`
	// LastSeq is the newest sequence number; pass it as ?after= to get only
	// what happens next.
	LastSeq uint64 `json:"lastSeq"`
}

// reservedParam reports whether a query parameter has its own meaning; every
// other parameter filters on a route label (topic, subscription, bus, rule, …).
func reservedParam(name string) bool {
	switch name {
	case "kind", "outcome", "route", "event", "after", "min", "wait":
		return true
	}
	return false
}

func filterFromQuery(kind string, q map[string][]string) (engine.Filter, error) {
	f := engine.Filter{Kind: kind}
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if kind == "" {
		f.Kind = get("kind")
	}
	f.Outcome, f.Route, f.EventID = get("outcome"), get("route"), get("event")
	if a := get("after"); a != "" {
		n, err := strconv.ParseUint(a, 10, 64)
		if err != nil {
			return f, fmt.Errorf("after must be a sequence number: %q", a)
		}
		f.AfterSeq = n
	}
	for k, v := range q {
		if reservedParam(k) || len(v) == 0 {
			continue
		}
		if f.Labels == nil {
			f.Labels = map[string]string{}
		}
		f.Labels[k] = v[0]
	}
	return f, nil
}

func (s *Server) journalView(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := filterFromQuery(kind, r.URL.Query())
		if err != nil {
			httpjson.Error(w, http.StatusBadRequest, "%v", err)
			return
		}
		entries, err := s.waitForEntries(r, f)
		if err != nil {
			httpjson.Error(w, http.StatusBadRequest, "%v", err)
			return
		}
		st := s.journal.Stats()
		writeJournalPage(w, entries, st.Discarded, st.LastSeq)
	}
}

// writeJournalPage answers with a JournalPage, encoding one entry at a time
// straight to w: a full journal (4 MiB of bodies by default) shows as tens
// of megabytes of JSON, which building the page in memory first would hold
// all at once, and the heap would keep after the read. The bytes are the
// ones json.Encoder writes for the JournalPage value.
func writeJournalPage(w http.ResponseWriter, entries []engine.Entry, discarded, lastSeq uint64) {
	w.Header().Set("Content-Type", httpjson.ContentType)
	w.WriteHeader(http.StatusOK)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if _, err := io.WriteString(w, `{"entries":[`); err != nil {
		return
	}
	for i, e := range entries {
		buf.Reset()
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(viewOf(e.Full())); err != nil {
			return
		}
		// Encode ends each value with a newline; inside the array it goes.
		if _, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return // the client went away
		}
		if buf.Cap() > 1<<20 {
			buf = bytes.Buffer{} // do not keep one huge entry's buffer for the rest
			enc = json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
		}
	}
	_, _ = fmt.Fprintf(w, "],\"discarded\":%d,\"lastSeq\":%d}\n", discarded, lastSeq)
}

// waitForEntries answers at once, or, with ?min=N&wait=D, as soon as N
// entries match (or when D of real time has passed): a long poll, so a test
// waits for a delivery without sleeping or polling. The entries are as
// stored (engine.Journal.Select); the page rebuilds them one at a time.
func (s *Server) waitForEntries(r *http.Request, f engine.Filter) ([]engine.Entry, error) {
	q := r.URL.Query()
	minText, waitText := q.Get("min"), q.Get("wait")
	if minText == "" && waitText == "" {
		return s.journal.Select(f), nil
	}
	min := 1
	if minText != "" {
		n, err := strconv.Atoi(minText)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("min must be a count: %q", minText)
		}
		min = n
	}
	wait := 10 * time.Second
	if waitText != "" {
		d, err := time.ParseDuration(waitText)
		if err != nil || d < 0 || d > 5*time.Minute {
			return nil, fmt.Errorf("wait must be a duration up to 5m: %q", waitText)
		}
		wait = d
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	got, _ := s.journal.WaitSelect(ctx, f, func(es []engine.Entry) bool { return len(es) >= min })
	return got, nil
}

// MetricsView is GET /_emulator/metrics: the engine's routes (event
// subscriptions, rule targets, push subscriptions, subscribers), the
// Event Grid namespaces' queue (pull) subscriptions and the EventBridge
// pipes, and the queues of GridBridge's own SQS (none with --sqs-endpoint).
type MetricsView struct {
	Journal engine.Stats             `json:"journal"`
	Routes  []engine.RouteMetrics    `json:"routes"`
	Queues  []eventgrid.QueueMetrics `json:"queues"`
	Pipes   []pipes.Metrics          `json:"pipes"`
	SQS     []sqs.QueueMetrics       `json:"sqs"`
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	f, err := filterFromQuery("", r.URL.Query())
	if err != nil {
		httpjson.Error(w, http.StatusBadRequest, "%v", err)
		return
	}
	view := MetricsView{Journal: s.journal.Stats(), Routes: []engine.RouteMetrics{}}
	for _, m := range s.engine.Metrics() {
		if routeMatches(f, m.Route, m.Labels) {
			view.Routes = append(view.Routes, m)
		}
	}
	view.Queues = []eventgrid.QueueMetrics{}
	for _, m := range s.eventGrid.QueueMetrics() {
		if routeMatches(f, m.Route, m.Labels) {
			view.Queues = append(view.Queues, m)
		}
	}
	view.Pipes = []pipes.Metrics{}
	for _, m := range s.pipes.Metrics() {
		if routeMatches(f, m.Route, m.Labels) {
			view.Pipes = append(view.Pipes, m)
		}
	}
	// Queues are not routes: a route or label filter leaves them out.
	view.SQS = []sqs.QueueMetrics{}
	if f.Route == "" && len(f.Labels) == 0 {
		view.SQS = append(view.SQS, s.sqs.Metrics()...)
	}
	httpjson.Write(w, http.StatusOK, view)
}

// routeMatches reports whether the route with id route and labels passes
// f's route and label conditions (the metrics views ignore its other ones).
func routeMatches(f engine.Filter, route string, labels map[string]string) bool {
	if f.Route != "" && route != f.Route {
		return false
	}
	for k, v := range f.Labels {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func (s *Server) handleFaultsList(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, map[string]any{"faults": s.engine.Faults().List()})
}

func (s *Server) handleFaultAdd(w http.ResponseWriter, r *http.Request) {
	var f engine.Fault
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		httpjson.Error(w, http.StatusBadRequest, `body must be a fault rule like {"match":{"subscription":"s1"},"status":503,"count":3}: %s`, jsonerr.Describe(err, nil, nil))
		return
	}
	if f.Status == 0 && f.Outcome == "" {
		httpjson.Error(w, http.StatusBadRequest, `a fault needs a "status" or an "outcome"`)
		return
	}
	if f.Count < 0 {
		httpjson.Error(w, http.StatusBadRequest, `"count" must be 0 (forever) or more`)
		return
	}
	// The status is recorded as the attempt's HTTP status and classified by
	// the cloud's rules, so it must be one an endpoint could answer.
	if f.Status != 0 && (f.Status < 100 || f.Status > 599) {
		httpjson.Error(w, http.StatusBadRequest, `"status" must be an HTTP status from 100 to 599 (or left out with an "outcome"); got %d`, f.Status)
		return
	}
	httpjson.Write(w, http.StatusCreated, s.engine.Faults().Add(f))
}

func (s *Server) handleFaultsClear(w http.ResponseWriter, _ *http.Request) {
	s.engine.Faults().Clear()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleFaultRemove(w http.ResponseWriter, r *http.Request) {
	if !s.engine.Faults().Remove(mux.Vars(r)["id"]) {
		httpjson.Error(w, http.StatusNotFound, "no fault %q", mux.Vars(r)["id"])
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// apiFaultServices are the APIs an API fault can name: the AWS APIs by
// the service name their requests are signed for, ARM, and Event Grid's
// publish endpoints.
func apiFaultServices() []string {
	return []string{"events", "sqs", "scheduler", "pipes", "arm", "eventgrid"}
}

func (s *Server) handleAPIFaultsList(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, map[string]any{"faults": s.engine.APIFaults().List()})
}

func (s *Server) handleAPIFaultAdd(w http.ResponseWriter, r *http.Request) {
	var f engine.APIFault
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		httpjson.Error(w, http.StatusBadRequest, `body must be an API fault like {"service":"events","operation":"PutEvents","error":"ThrottlingException","count":2}: %s`, jsonerr.Describe(err, nil, nil))
		return
	}
	f.Service = strings.ToLower(f.Service)
	switch {
	case !slices.Contains(apiFaultServices(), f.Service):
		httpjson.Error(w, http.StatusBadRequest, `"service" must be one of %s; got %q`, strings.Join(apiFaultServices(), ", "), f.Service)
	case (f.Service == "arm" || f.Service == "eventgrid") && f.Status == 0:
		httpjson.Error(w, http.StatusBadRequest, `an Azure fault (arm, eventgrid) needs a "status" (429, 500, …); "error" is optional`)
	case f.Service != "arm" && f.Service != "eventgrid" && f.Error == "":
		httpjson.Error(w, http.StatusBadRequest, `an AWS fault needs an "error" code (e.g. "ThrottlingException"); "status" is optional`)
	case f.Status != 0 && (f.Status < 400 || f.Status > 599):
		httpjson.Error(w, http.StatusBadRequest, `"status" must be an HTTP error status from 400 to 599; got %d`, f.Status)
	case f.Count < 0:
		httpjson.Error(w, http.StatusBadRequest, `"count" must be 0 (until removed) or more`)
	default:
		httpjson.Write(w, http.StatusCreated, s.engine.APIFaults().Add(f))
	}
}

func (s *Server) handleAPIFaultsClear(w http.ResponseWriter, _ *http.Request) {
	s.engine.APIFaults().Clear()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleAPIFaultRemove(w http.ResponseWriter, r *http.Request) {
	if !s.engine.APIFaults().Remove(mux.Vars(r)["id"]) {
		httpjson.Error(w, http.StatusNotFound, "no API fault %q", mux.Vars(r)["id"])
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleReset(w http.ResponseWriter, _ *http.Request) {
	s.Reset()
	w.WriteHeader(http.StatusNoContent)
}
