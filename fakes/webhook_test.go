package fakes_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/fakes"
)

func post(t *testing.T, c *http.Client, url, eventType, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if eventType != "" {
		req.Header.Set("aeg-event-type", eventType)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// Deliveries follow the script, then the Always reply; handshakes are
// answered without consuming it; everything is recorded.
func TestScriptAndHandshakes(t *testing.T) {
	t.Parallel()
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(200).WithHeader("X-A", "b")), fakes.Always(400))
	c := http.DefaultClient
	validation := `[{"id":"v","eventType":"Microsoft.EventGrid.SubscriptionValidationEvent","data":{"validationCode":"abc","validationUrl":"https://x"}}]`
	req, _ := http.NewRequest(http.MethodPost, hook.URL(), strings.NewReader(validation))
	req.Header.Set("aeg-event-type", "SubscriptionValidation")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var answer strings.Builder
	buf := make([]byte, 128)
	n, _ := resp.Body.Read(buf)
	answer.Write(buf[:n])
	resp.Body.Close()
	if resp.StatusCode != 200 || answer.String() != `{"validationResponse":"abc"}` {
		t.Fatalf("validation answer %d %s", resp.StatusCode, answer.String())
	}
	opt, _ := http.NewRequest(http.MethodOptions, hook.URL(), nil)
	opt.Header.Set("WebHook-Request-Origin", "eventgrid.azure.net")
	resp, _ = c.Do(opt)
	resp.Body.Close()
	if resp.Header.Get("WebHook-Allowed-Origin") != "eventgrid.azure.net" {
		t.Fatalf("OPTIONS answer %v", resp.Header)
	}
	var statuses []int
	for i := 0; i < 3; i++ {
		statuses = append(statuses, post(t, c, hook.URL(), "Notification", `[{"id":"e`+string(rune('0'+i))+`","eventType":"T","data":{"n":1}}]`).StatusCode)
	}
	if statuses[0] != 503 || statuses[1] != 200 || statuses[2] != 400 {
		t.Fatalf("statuses %v", statuses)
	}
	if got := len(hook.Requests()); got != 5 {
		t.Fatalf("%d requests recorded, want 5", got)
	}
	events := hook.Events()
	if len(events) != 3 || events[2].ID != "e2" || events[2].Type != "T" || string(events[2].Data) != `{"n":1}` || events[2].Delivery != 2 {
		t.Fatalf("events %+v", events)
	}
}

// WaitForDeliveries returns as soon as enough arrived, or when ctx ends.
func TestWaitForDeliveries(t *testing.T) {
	t.Parallel()
	hook := fakes.NewWebhook(t)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := hook.WaitForDeliveries(ctx, 2)
		done <- err
	}()
	post(t, http.DefaultClient, hook.URL(), "", `{"id":"a"}`)
	post(t, http.DefaultClient, hook.URL(), "", `{"id":"b"}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := hook.WaitForDeliveries(ctx, 3); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// NoAnswer holds a request until the client gives up.
func TestNoAnswer(t *testing.T) {
	t.Parallel()
	hook := fakes.NewWebhook(t, fakes.NoAnswer())
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, hook.URL(), strings.NewReader(`[]`))
	errc := make(chan error, 1)
	go func() {
		_, err := http.DefaultClient.Do(req)
		errc <- err
	}()
	if _, err := hook.WaitForDeliveries(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a held request was answered")
	}
	if d := hook.Deliveries(); d[0].Status != 0 {
		t.Fatalf("recorded status %d for an unanswered request", d[0].Status)
	}
}

// TLS serves HTTPS with a certificate a client can trust; RejectValidation
// and ManualValidation change the handshake answers.
func TestTLSAndValidationModes(t *testing.T) {
	t.Parallel()
	hook := fakes.NewWebhook(t, fakes.TLS(), fakes.RejectValidation(403))
	pool := x509.NewCertPool()
	pool.AddCert(hook.Certificate())
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if !strings.HasPrefix(hook.URL(), "https://") {
		t.Fatalf("URL %s", hook.URL())
	}
	if s := post(t, c, hook.URL(), "SubscriptionValidation", `[{"data":{"validationCode":"c"}}]`).StatusCode; s != 403 {
		t.Fatalf("rejected validation answered %d", s)
	}
	manual := fakes.NewWebhook(t, fakes.ManualValidation())
	if s := post(t, http.DefaultClient, manual.URL(), "SubscriptionValidation", `[{"data":{"validationCode":"c","validationUrl":"https://v"}}]`).StatusCode; s != 200 {
		t.Fatalf("manual validation answered %d", s)
	}
	if u := manual.ValidationURLs(); len(u) != 1 || u[0] != "https://v" {
		t.Fatalf("validation URLs %v", u)
	}
}
