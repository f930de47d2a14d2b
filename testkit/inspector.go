package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Filter selects journal entries. Empty fields match everything.
type Filter struct {
	// Route labels, as the clouds name things.
	Topic, Subscription string // Event Grid
	Bus, Rule, Target   string // EventBridge
	// Labels match any other route label.
	Labels map[string]string
	// Outcome is the cloud's outcome name ("Success", "Busy", a drop reason …).
	Outcome string
	// EventID keeps entries that carry this event.
	EventID string
	// Route is an engine route id.
	Route string
}

func (f Filter) query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("topic", f.Topic)
	set("subscription", f.Subscription)
	set("bus", f.Bus)
	set("rule", f.Rule)
	set("target", f.Target)
	set("outcome", f.Outcome)
	set("event", f.EventID)
	set("route", f.Route)
	for k, v := range f.Labels {
		set(k, v)
	}
	return q
}

func (f Filter) String() string {
	if s := f.query().Encode(); s != "" {
		return s
	}
	return "(everything)"
}

// Inspector speaks the emulator's inspection API over HTTP, so the same
// assertions work against an in-process emulator and a container.
type Inspector struct {
	base   string
	client *http.Client
}

// NewInspector returns an inspector for the emulator at baseURL (its HTTP
// listener, e.g. "http://127.0.0.1:4080").
func NewInspector(baseURL string, client *http.Client) *Inspector {
	if client == nil {
		client = http.DefaultClient
	}
	return &Inspector{base: strings.TrimRight(baseURL, "/") + "/_emulator", client: client}
}

func (in *Inspector) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, in.base+path, rd)
	if err != nil {
		return err
	}
	if method != http.MethodGet {
		// Every mutating inspection call must say JSON, body or not.
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := in.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(data)))
	}
	if out != nil && len(data) > 0 {
		return json.Unmarshal(data, out)
	}
	return nil
}

// call sends one request to the inspection API and decodes its answer as a T.
func call[T any](ctx context.Context, in *Inspector, method, path string, body any) (T, error) {
	var v T
	err := in.do(ctx, method, path, body, &v)
	return v, err
}

// Info reads how to reach the emulator and what it is configured with.
func (in *Inspector) Info(ctx context.Context) (Info, error) {
	return call[Info](ctx, in, http.MethodGet, "/info", nil)
}

// Clock reads the emulator clock.
func (in *Inspector) Clock(ctx context.Context) (Clock, error) {
	return call[Clock](ctx, in, http.MethodGet, "/clock", nil)
}

// Advance moves a virtual clock by d, firing everything due on the way.
func (in *Inspector) Advance(ctx context.Context, d time.Duration) (Clock, error) {
	return call[Clock](ctx, in, http.MethodPost, "/clock/advance", map[string]string{"by": d.String()})
}

// Entries lists journal entries of kind ("attempt", "deadletter", "drop",
// "" for all) that pass f.
func (in *Inspector) Entries(ctx context.Context, kind string, f Filter) (JournalPage, error) {
	return in.entries(ctx, kind, f, nil)
}

// WaitEntries waits, up to wait of real time, until at least min entries of
// kind pass f, and returns what it saw.
func (in *Inspector) WaitEntries(ctx context.Context, kind string, f Filter, min int, wait time.Duration) (JournalPage, error) {
	extra := url.Values{}
	extra.Set("min", strconv.Itoa(min))
	extra.Set("wait", wait.String())
	return in.entries(ctx, kind, f, extra)
}

func (in *Inspector) entries(ctx context.Context, kind string, f Filter, extra url.Values) (JournalPage, error) {
	q := f.query()
	for k, v := range extra {
		q[k] = v
	}
	path := "/journal"
	switch kind {
	case KindAttempt:
		path = "/deliveries"
	case KindDeadLetter:
		path = "/deadletters"
	case KindDrop:
		path = "/drops"
	case "":
	default:
		q.Set("kind", kind)
	}
	return call[JournalPage](ctx, in, http.MethodGet, path+"?"+q.Encode(), nil)
}

// Metrics reads per-route counters.
func (in *Inspector) Metrics(ctx context.Context) (Metrics, error) {
	return call[Metrics](ctx, in, http.MethodGet, "/metrics", nil)
}

// AddFault installs a delivery fault and returns it with its id.
func (in *Inspector) AddFault(ctx context.Context, f Fault) (Fault, error) {
	return call[Fault](ctx, in, http.MethodPost, "/faults", f)
}

// Faults lists the delivery faults in force.
func (in *Inspector) Faults(ctx context.Context) ([]Fault, error) {
	out, err := call[struct {
		Faults []Fault `json:"faults"`
	}](ctx, in, http.MethodGet, "/faults", nil)
	return out.Faults, err
}

// ClearFaults removes every fault rule.
func (in *Inspector) ClearFaults(ctx context.Context) error {
	return in.do(ctx, http.MethodDelete, "/faults", nil, nil)
}

// Reset forgets every resource, event, fault and journal entry.
func (in *Inspector) Reset(ctx context.Context) error {
	return in.do(ctx, http.MethodPost, "/reset", nil, nil)
}

// CACertPEM downloads the emulator's CA certificate.
func (in *Inspector) CACertPEM(ctx context.Context) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.base+"/ca.pem", nil)
	if err != nil {
		return nil, err
	}
	resp, err := in.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /_emulator/ca.pem: %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}
