package outbound_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gridbridge/gridbridge/internal/outbound"
)

// newTransport is the transport as the emulator builds it (emulator/faces.go).
func newTransport(proxy func(*http.Request) (*url.URL, error)) *outbound.Transport {
	insecure := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // test servers' own certificates
	return outbound.New(&http.Transport{Proxy: proxy, TLSClientConfig: insecure, MaxIdleConnsPerHost: 8}, proxy, insecure, 8)
}

// countConns counts the connections a test server accepts.
func countConns(srv *httptest.Server) *atomic.Int64 {
	var n atomic.Int64
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	return &n
}

func post(t *testing.T, c *http.Client, url, body string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp, string(b)
}

func TestRequestsGoOutAsSentOverOneKeptConnection(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if r.Header.Get("Aeg-Event-Type") != "Notification" || r.ContentLength != int64(len(b)) || r.URL.RawQuery != "code=a%20b" || r.Proto != "HTTP/1.1" {
					w.WriteHeader(http.StatusBadRequest)
					return
				}
				w.Header().Set("X-Echo", r.Header.Get("X-Multi"))
				_, _ = w.Write(append([]byte("got "), b...))
			})
			srv := httptest.NewUnstartedServer(h)
			conns := countConns(srv)
			if scheme == "https" {
				srv.StartTLS()
			} else {
				srv.Start()
			}
			defer srv.Close()
			c := &http.Client{Transport: newTransport(nil)}
			for i := range 5 {
				resp, body := post(t, c, srv.URL+"/hook?code=a%20b", `{"n":`+strings.Repeat("1", i+1)+`}`,
					http.Header{"Aeg-Event-Type": {"Notification"}, "X-Multi": {"one"}})
				if resp.StatusCode != http.StatusOK || body != `got {"n":`+strings.Repeat("1", i+1)+`}` || resp.Header.Get("X-Echo") != "one" {
					t.Fatalf("request %d: %s %q %v", i, resp.Status, body, resp.Header)
				}
			}
			if n := conns.Load(); n != 1 {
				t.Fatalf("%d connections for 5 sequential requests, want 1", n)
			}
		})
	}
}

func TestAConnectionTheServerClosedIsRedialled(t *testing.T) {
	t.Parallel()
	var served atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		served.Add(1)
	}))
	conns := countConns(srv)
	srv.Start()
	defer srv.Close()
	c := &http.Client{Transport: newTransport(nil)}
	post(t, c, srv.URL, "a", nil)
	srv.CloseClientConnections() // the kept connection is closed under the transport
	if resp, _ := post(t, c, srv.URL, "b", nil); resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	if served.Load() != 2 || conns.Load() != 2 {
		t.Fatalf("served %d on %d connections, want 2 on 2", served.Load(), conns.Load())
	}
}

func TestACancelledRequestEndsWithItsCause(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-release
	}))
	defer srv.Close()
	defer close(release)
	cause := errors.New("the response timeout")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { <-arrived; cancel(cause) }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("x"))
	_, err := (&http.Client{Transport: newTransport(nil)}).Do(req)
	if !errors.Is(err, cause) {
		t.Fatalf("err = %v, want the context's cause", err)
	}
}

func TestAnAnswerLeftUnreadClosesItsConnection(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("z", 1<<20)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, big)
	}))
	conns := countConns(srv)
	srv.Start()
	defer srv.Close()
	c := &http.Client{Transport: newTransport(nil)}
	for range 2 {
		resp, err := c.Post(srv.URL, "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 10)); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if conns.Load() != 2 {
		t.Fatalf("%d connections, want 2: a half-read answer's connection is not reused", conns.Load())
	}
}

// rawServer answers every request on a connection with answer, as written,
// and closes the connection after an answer that asks for it or whose body
// ends with the connection.
func rawServer(t *testing.T, answer string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				br := bufio.NewReader(nc)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					if _, err := io.WriteString(nc, answer); err != nil ||
						strings.Contains(answer, "Connection: close") || strings.HasPrefix(answer, "HTTP/1.0") {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

func TestAnswersOfEveryFraming(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ answer, body string }{
		"chunked":         {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", "abcde"},
		"continue first":  {"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok", "ok"},
		"close":           {"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye", "bye"},
		"http/1.0 no len": {"HTTP/1.0 500 Internal Server Error\r\n\r\nboom", "boom"},
		"empty":           {"HTTP/1.1 204 No Content\r\n\r\n", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			url := rawServer(t, tc.answer)
			c := &http.Client{Transport: newTransport(nil)}
			for range 3 { // the connection's reuse, or its redial after a close
				_, body := post(t, c, url, "x", nil)
				if body != tc.body {
					t.Fatalf("body %q, want %q", body, tc.body)
				}
			}
		})
	}
}

func TestAProxiedRequestGoesThroughNetHTTP(t *testing.T) {
	t.Parallel()
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host == "webhook.example" {
			proxied.Add(1)
		}
	}))
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)
	c := &http.Client{Transport: newTransport(http.ProxyURL(proxyURL))}
	if resp, _ := post(t, c, "http://webhook.example/hook", "x", nil); resp.StatusCode != http.StatusOK || proxied.Load() != 1 {
		t.Fatalf("%s, proxied %d", resp.Status, proxied.Load())
	}
}

func TestAHeaderNetHTTPRefusesIsRefused(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("x"))
	req.Header.Set("X-Bad", "a\r\nInjected: yes")
	if _, err := (&http.Client{Transport: newTransport(nil)}).Do(req); err == nil || !strings.Contains(err.Error(), "invalid header field value") {
		t.Fatalf("err = %v, want net/http's refusal", err)
	}
}
