package namespaces_test

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

type rawResponse struct {
	status int
	header http.Header
	body   string
}

func (h *harness) raw(t *testing.T, method, path string, header http.Header, body string) rawResponse {
	t.Helper()
	resp := h.rawRequest(t, method, path, header, body)
	b, _ := io.ReadAll(resp.Body)
	return rawResponse{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func (r rawResponse) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("error body %q: %v", r.body, err)
	}
	return e.Error.Code
}

const validEvent = `{"specversion":"1.0","id":"e1","source":"/s","type":"t"}`

func TestCurlStylePublishGetsExactly200AndAnEmptyObject(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	for _, auth := range []http.Header{
		{"Authorization": {"SharedAccessKey " + p.ns.key}, "Content-Type": {"application/cloudevents+json"}},
		{"aeg-sas-key": {p.ns.key}, "Content-Type": {"application/cloudevents+json"}},
		{"Authorization": {"Bearer any-entra-token"}, "Content-Type": {"application/cloudevents+json"}},
	} {
		r := h.raw(t, http.MethodPost, dataPath(p.ns.name, "/topics/orders:publish?api-version=2024-06-01"), auth, validEvent)
		if r.status != 200 || r.body != "{}" || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("publish: %d %q %v", r.status, r.body, r.header)
		}
	}
}

func TestBadDataPlaneRequestsGetAzureErrors(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	push := "pusher"
	h.createSubscription(t, p.ns.name, p.topic, push, pushProps(newWebhook(t).srv.URL, 1, "PT1H", nil, nil))
	key := keyHeader(p.ns.key)
	ce := http.Header{"Authorization": {"SharedAccessKey " + p.ns.key}, "Content-Type": {"application/cloudevents+json; charset=utf-8"}}
	publish := dataPath(p.ns.name, "/topics/orders:publish?api-version=2024-06-01")
	sub := func(op string) string {
		return dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:"+op+"?api-version=2024-06-01")
	}
	cases := []struct {
		name, method, path string
		header             http.Header
		body               string
		status             int
		code               string
	}{
		{"wrong key", "POST", publish, http.Header{"Authorization": {"SharedAccessKey wrong"}, "Content-Type": {"application/cloudevents+json"}}, validEvent, 401, "Unauthorized"},
		{"no credential", "POST", publish, http.Header{"Content-Type": {"application/cloudevents+json"}}, validEvent, 401, "Unauthorized"},
		{"wrong key on receive", "POST", sub("receive"), http.Header{"Authorization": {"SharedAccessKey wrong"}}, "", 401, "Unauthorized"},
		{"empty event", "POST", publish, ce, `{}`, 400, "BadRequest"},
		{"bad JSON", "POST", publish, ce, `{"id":`, 400, "BadRequest"},
		{"bad batch", "POST", publish, http.Header{"Authorization": {"SharedAccessKey " + p.ns.key}, "Content-Type": {"application/cloudevents-batch+json"}}, `[` + validEvent + `,{}]`, 400, "BadRequest"},
		{"no content type", "POST", publish, key, validEvent, 400, "BadRequest"},
		{"too large", "POST", publish, ce, `{"specversion":"1.0","id":"1","source":"s","type":"t","data":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "RequestEntityTooLarge"},
		{"unknown namespace", "POST", dataPath("nope", "/topics/orders:publish"), ce, validEvent, 404, "NotFound"},
		{"unknown topic", "POST", dataPath(p.ns.name, "/topics/nope:publish"), ce, validEvent, 404, "NotFound"},
		{"unknown topic operation", "POST", dataPath(p.ns.name, "/topics/orders:send"), ce, validEvent, 404, "NotFound"},
		{"no operation", "POST", dataPath(p.ns.name, "/topics/orders"), ce, validEvent, 404, "NotFound"},
		{"unknown subscription", "POST", dataPath(p.ns.name, "/topics/orders/eventsubscriptions/nope:receive"), key, "", 404, "NotFound"},
		{"unknown subscription operation", "POST", sub("peek"), key, "", 404, "NotFound"},
		{"GET", "GET", sub("receive"), key, "", 405, "MethodNotAllowed"},
		{"maxEvents 0", "POST", sub("receive") + "&maxEvents=0", key, "", 400, "BadRequest"},
		{"maxEvents 101", "POST", sub("receive") + "&maxEvents=101", key, "", 400, "BadRequest"},
		{"maxEvents text", "POST", sub("receive") + "&maxEvents=ten", key, "", 400, "BadRequest"},
		{"maxWaitTime 5", "POST", sub("receive") + "&maxWaitTime=5", key, "", 400, "BadRequest"},
		{"maxWaitTime 121", "POST", sub("receive") + "&maxWaitTime=121", key, "", 400, "BadRequest"},
		{"receive on push", "POST", dataPath(p.ns.name, "/topics/orders/eventsubscriptions/pusher:receive"), key, "", 400, "BadRequest"},
		{"ack bad JSON", "POST", sub("acknowledge"), key, `{"lockTokens":`, 400, "BadRequest"},
		{"ack no tokens", "POST", sub("acknowledge"), key, `{"lockTokens":[]}`, 400, "BadRequest"},
		{"ack no body", "POST", sub("acknowledge"), key, ``, 400, "BadRequest"},
		{"ack tokens not strings", "POST", sub("acknowledge"), key, `{"lockTokens":[1,2]}`, 400, "BadRequest"},
		{"release delay 5", "POST", sub("release") + "&releaseDelayInSeconds=5", key, `{"lockTokens":["x"]}`, 400, "BadRequest"},
	}
	for _, c := range cases {
		r := h.raw(t, c.method, c.path, c.header, c.body)
		if r.status != c.status {
			t.Errorf("%s: status %d, want %d (%s)", c.name, r.status, c.status, r.body)
			continue
		}
		if code := r.errorCode(t); code != c.code || r.header.Get("x-ms-error-code") != c.code {
			t.Errorf("%s: code %q (header %q), want %q", c.name, code, r.header.Get("x-ms-error-code"), c.code)
		}
	}
	r := h.raw(t, "POST", publish, ce, `{}`)
	if !strings.Contains(r.body, "`id` must be non-empty string") {
		t.Errorf("empty event message: %s", r.body)
	}
}

func TestBadLockTokensFailOneByOneWithStatus200(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	for _, op := range []string{"acknowledge", "release", "reject", "renewLock"} {
		r := h.raw(t, http.MethodPost, dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:"+op+"?api-version=2024-06-01"),
			http.Header{"Authorization": {"SharedAccessKey " + p.ns.key}, "Content-Type": {"application/json"}},
			`{"lockTokens":["garbage","R0IAAAAAAAAAAAAAAAAAAAAA"]}`)
		want := `{"succeededLockTokens":[],"failedLockTokens":[{"lockToken":"garbage","error":{"code":"BadToken","message":"The lock token is malformed."}},` +
			`{"lockToken":"R0IAAAAAAAAAAAAAAAAAAAAA","error":{"code":"TokenLost","message":"Token has expired."}}]}`
		if r.status != 200 || r.body != want {
			t.Errorf("%s: %d %s", op, r.status, r.body)
		}
	}
}

func TestNoRequestGetsA5xx(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	rng := rand.New(rand.NewPCG(1, 2))
	paths := []string{
		dataPath(p.ns.name, "/topics/orders:publish"),
		dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:acknowledge"),
		dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:release?releaseDelayInSeconds=10"),
		dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:reject"),
		dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:renewLock"),
		armPath(p.ns.name, ""), armPath(p.ns.name, "/topics/orders"), armPath(p.ns.name, "/topics/orders/eventSubscriptions/billing"),
		armPath(p.ns.name, "/regenerateKey"), armPath(p.ns.name, "/topics/orders/regenerateKey"),
	}
	bodies := []string{"", "null", "[]", "{}", `{"properties":null}`, `{"properties":{"deliveryConfiguration":{"deliveryMode":"Push","push":{"destination":null}}}}`,
		`{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{"deadLetterDestinationWithResourceIdentity":{"storageBlob":7}}}}}`,
		`{"properties":{"filtersConfiguration":{"filters":[null,{"operatorType":"NumberInRange","values":[[1]]}]}}}`,
		`{"lockTokens":null}`, `{"lockTokens":["` + strings.Repeat("A", 5000) + `"]}`, `[{}]`, `{"keyName":"key3"}`, "\x00\xff"}
	contentTypes := []string{"", "application/json", "application/cloudevents+json", "application/cloudevents-batch+json", "text/plain"}
	for i := 0; i < 300; i++ {
		header := http.Header{"Authorization": {"SharedAccessKey " + p.ns.key}, "Content-Type": {contentTypes[rng.IntN(len(contentTypes))]}}
		if rng.IntN(3) == 0 {
			header.Set("Ce-Specversion", "1.0")
			header.Set("Ce-Id", "x")
		}
		method := []string{"POST", "PUT", "PATCH", "GET", "DELETE"}[rng.IntN(5)]
		path := paths[rng.IntN(len(paths))]
		if method == "DELETE" {
			continue // deletes are tested elsewhere; here they would empty the tree
		}
		r := h.raw(t, method, path, header, bodies[rng.IntN(len(bodies))])
		if r.status >= 500 {
			t.Fatalf("%s %s: %d %s", method, path, r.status, r.body)
		}
	}
}

func TestReceiveTimesOutWithAnEmptyValue(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	// The raw request runs beside the SDK's, so the test waits 10 s once.
	rawDone := make(chan rawResponse, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+dataPath(p.ns.name, "/topics/orders/eventsubscriptions/billing:receive?maxWaitTime=10"), nil)
		req.Header = keyHeader(p.ns.key)
		resp, err := h.srv.Client().Do(req)
		if err != nil {
			rawDone <- rawResponse{body: err.Error()}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		rawDone <- rawResponse{status: resp.StatusCode, header: resp.Header, body: string(b)}
	}()
	begin := time.Now()
	resp, err := p.receiver.ReceiveEvents(context.Background(), &aznamespaces.ReceiveEventsOptions{MaxWaitTime: to.Ptr[int32](10)})
	elapsed := time.Since(begin)
	if err != nil || resp.Details == nil || len(resp.Details) != 0 {
		t.Fatalf("receive: %v, details %#v", err, resp.Details)
	}
	if elapsed < 10*time.Second || elapsed > 15*time.Second {
		t.Fatalf("returned after %v, want about 10 s", elapsed)
	}
	if r := <-rawDone; r.status != 200 || r.body != `{"value":[]}` {
		t.Fatalf("raw timeout: %d %s", r.status, r.body)
	}
}

func TestReceiveReturnsAsSoonAsAnEventArrives(t *testing.T) {
	t.Parallel()
	_, p := newQueueHarness(t)
	type result struct {
		n       int
		err     error
		elapsed time.Duration
	}
	done := make(chan result, 1)
	begin := time.Now()
	go func() {
		resp, err := p.receiver.ReceiveEvents(context.Background(), &aznamespaces.ReceiveEventsOptions{
			MaxEvents: to.Ptr[int32](10), MaxWaitTime: to.Ptr[int32](60)})
		done <- result{len(resp.Details), err, time.Since(begin)}
	}()
	ev := newEvent(t, "t", "x")
	if _, err := p.sender.SendEvent(context.Background(), &ev, nil); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.n != 1 || r.elapsed > 5*time.Second {
		t.Fatalf("receive: %+v", r)
	}
}
