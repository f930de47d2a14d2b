package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestOutcomeForStatus_EG4_EG24(t *testing.T) {
	t.Parallel()
	want := map[int]string{200: "Success", 201: "Success", 202: "Success", 203: "Success", 204: "Success",
		205: "Aborted", 301: "Aborted", 400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound",
		408: "TimedOut", 413: "PayloadTooLarge", 429: "Busy", 500: "Busy", 503: "Busy"}
	for status, name := range want {
		if got := OutcomeForStatus(status); got != name {
			t.Errorf("OutcomeForStatus(%d) = %s, want %s", status, got, name)
		}
		if Succeeded(status) != (name == "Success") {
			t.Errorf("Succeeded(%d) = %v", status, Succeeded(status))
		}
	}
}

type captured struct {
	header http.Header
	body   string
}

func serve(t *testing.T, status int) (*httptest.Server, chan captured) {
	got := make(chan captured, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- captured{r.Header.Clone(), string(b)}
		if status == http.StatusFound {
			w.Header().Set("Location", "/elsewhere")
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func attempt(n int, items ...*engine.Item) *engine.Attempt {
	return &engine.Attempt{Number: n, Batch: &engine.Batch{Items: items}}
}

// A CloudEvents subscription with batching gets an array with the batch
// content type; the retry count and dynamic attributes are in headers.
func TestDeliverCloudEventsBatch(t *testing.T) {
	t.Parallel()
	srv, got := serve(t, http.StatusAccepted)
	d := &Destination{Client: NoRedirects(nil), URL: srv.URL, SubscriptionName: "batchy", Schema: egevent.CloudEventSchemaV10,
		Batched: true, Attributes: []Attribute{{Name: "X-Kind", SourceField: "data.kind"}, {Name: "X-Missing", SourceField: "data.none"}}}
	ev := &egevent.Event{Schema: egevent.CloudEventSchemaV10}
	o := d.Deliver(context.Background(), attempt(3,
		&engine.Item{Body: []byte(`{"id":"1","data":{"kind":"k1"}}`), Meta: ev},
		&engine.Item{Body: []byte(`{"id":"2"}`), Meta: ev}))
	if !o.OK || o.Status != 202 || o.Request == nil {
		t.Fatalf("outcome %+v", o)
	}
	c := <-got
	if c.body != `[{"id":"1","data":{"kind":"k1"}},{"id":"2"}]` || c.header.Get("Content-Type") != "application/cloudevents-batch+json; charset=utf-8" {
		t.Fatalf("request %s %v", c.body, c.header)
	}
	if c.header.Get("aeg-delivery-count") != "2" || c.header.Get("aeg-subscription-name") != "BATCHY" || c.header.Get("X-Kind") != "k1" ||
		c.header.Get("X-Missing") != "" || c.header.Get("aeg-data-version") != "" {
		t.Fatalf("headers %v", c.header)
	}
}

// Redirects are not followed: a 302 is a failed attempt (EG-4).
func TestDeliverDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	srv, got := serve(t, http.StatusFound)
	d := &Destination{Client: NoRedirects(nil), URL: srv.URL, SubscriptionName: "s", Schema: egevent.EventGridSchema}
	o := d.Deliver(context.Background(), attempt(1, &engine.Item{Body: []byte(`{}`), Meta: &egevent.Event{Schema: egevent.EventGridSchema}}))
	if o.OK || o.Status != http.StatusFound || len(got) != 1 {
		t.Fatalf("outcome %+v after %d requests", o, len(got))
	}
}

// The engine's response timeout is reported as TimedOut (EG-5).
func TestDeliverTimeout_EG5(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-block:
		}
	}))
	t.Cleanup(func() { close(block); srv.Close() })
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(engine.ErrResponseTimeout)
	d := &Destination{Client: NoRedirects(nil), URL: srv.URL, Schema: egevent.EventGridSchema}
	if o := d.Deliver(ctx, attempt(1, &engine.Item{Body: []byte(`{}`)})); o.Name != OutcomeTimedOut || o.OK {
		t.Fatalf("outcome %+v", o)
	}
}

func TestHandshakes(t *testing.T) {
	t.Parallel()
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			w.Header().Set("WebHook-Allowed-Origin", "*")
			return
		}
		_, _ = w.Write([]byte(`{"ValidationResponse":"code-1"}`))
	}))
	t.Cleanup(echo.Close)
	c := NoRedirects(nil)
	if res, err := ValidateEventGrid(context.Background(), c, Validation{URL: echo.URL, Code: "code-1"}, echo.URL); err != nil || res != Validated {
		t.Fatalf("echo: %v %v", res, err)
	}
	if res, err := ValidateEventGrid(context.Background(), c, Validation{URL: echo.URL, Code: "other"}, echo.URL); err != nil || res != ManualPending {
		t.Fatalf("wrong code: %v %v", res, err)
	}
	if err := ValidateCloudEvents(context.Background(), c, echo.URL, echo.URL); err != nil {
		t.Fatalf("OPTIONS with *: %v", err)
	}
	refuse, _ := serve(t, http.StatusAccepted)
	if _, err := ValidateEventGrid(context.Background(), c, Validation{URL: refuse.URL, Code: "c"}, "base"); err == nil {
		t.Fatal("202 accepted as a handshake answer")
	}
	if err := ValidateCloudEvents(context.Background(), c, refuse.URL, "base"); err == nil {
		t.Fatal("OPTIONS without WebHook-Allowed-Origin accepted")
	}
}

// An attempt that gets no answer is worded as the client's Do words it,
// though the transport is called directly.
func TestDeliverFailureWordedAsClientDo(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/hook"
	srv.Close() // nothing listens there now
	client := NoRedirects(&http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()})
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, want := client.Do(req)
	if want == nil {
		t.Fatal("a closed server answered")
	}
	d := &Destination{Client: client, URL: url, Schema: egevent.EventGridSchema}
	_, got := d.do(req.Clone(context.Background()))
	if got == nil || got.Error() != want.Error() {
		t.Fatalf("do failed with %v, Do with %v", got, want)
	}
	if o := d.Deliver(context.Background(), attempt(1, &engine.Item{Body: []byte(`{}`)})); o.OK || o.Name != OutcomeSocketError || o.Message != want.Error() {
		t.Fatalf("outcome %+v", o)
	}
}
