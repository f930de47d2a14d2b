package main

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
)

// send makes one request with a chosen Host header and content type.
func send(t *testing.T, client *http.Client, method, url, host, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s (Host %s): %v", method, url, host, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func insecureClient() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // test against the emulator's own CA
}

func TestBinaryRefusesHostsNotAllowed(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--allowed-host", "gridbridge.test", "--tls-host", "emu.internal")
	eps := proc.Endpoints
	client := insecureClient()
	armKeys := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t/listKeys?api-version=2025-02-15"
	// A DNS-rebinding page sends its own name as Host: refused on every
	// route of both listeners, the message naming the flag.
	for _, c := range []struct{ method, url string }{
		{"GET", eps["http"] + "/_emulator/deliveries"},
		{"GET", eps["https"] + "/_emulator/journal"},
		{"POST", eps["https"] + armKeys},
		{"POST", eps["http"] + "/"},
	} {
		status, body := send(t, client, c.method, c.url, "rebind.attacker.example", "application/json", "{}")
		if status != http.StatusForbidden || !strings.Contains(body, "--allowed-host") || !strings.Contains(body, "GRIDBRIDGE_ALLOWED_HOST") {
			t.Errorf("%s %s with Host rebind.attacker.example = %d %s, want 403 naming --allowed-host", c.method, c.url, status, body)
		}
	}
	port := eps["http"][strings.LastIndexByte(eps["http"], ':')+1:]
	for _, host := range []string{
		"127.0.0.1:" + port, "[::1]:" + port, "localhost:" + port, "LOCALHOST.", "app.localhost",
		"gridbridge.test", "emu.internal:" + port,
	} {
		if status, body := send(t, client, "GET", eps["http"]+"/_emulator/health", host, "", ""); status != http.StatusOK {
			t.Errorf("Host %s = %d %s, want 200", host, status, body)
		}
	}
	for _, host := range []string{"gridbridge.test.attacker.example", "localhost.attacker.example", "xgridbridge.test"} {
		if status, _ := send(t, client, "GET", eps["http"]+"/_emulator/health", host, "", ""); status != http.StatusForbidden {
			t.Errorf("Host %s = %d, want 403", host, status)
		}
	}
}

func TestBinaryAllowedHostFromTheEnvironment(t *testing.T) {
	t.Parallel()
	proc := testbinary.StartWithEnv(t, []string{"GRIDBRIDGE_ALLOWED_HOST=one.test .two.test"})
	for host, want := range map[string]int{"one.test": 200, "two.test": 200, "a.two.test": 200, "three.test": 403} {
		if status, _ := send(t, insecureClient(), "GET", proc.Endpoints["http"]+"/_emulator/health", host, "", ""); status != want {
			t.Errorf("Host %s = %d, want %d", host, status, want)
		}
	}
}

func TestBinaryRefusesCrossSiteSimplePosts(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual")
	base := proc.Endpoints["http"] + "/_emulator"
	client := insecureClient()
	clockNow := func() string {
		_, body := send(t, client, "GET", base+"/clock", "", "", "")
		var c struct{ Now string }
		_ = json.Unmarshal([]byte(body), &c)
		return c.Now
	}
	before := clockNow()
	// What a page can send cross-site without a preflight.
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
		for _, c := range []struct{ method, path, body string }{
			{"POST", "/clock/advance", `{"by":"1h"}`},
			{"POST", "/reset", ``},
			{"POST", "/faults", `{"match":{},"status":503}`},
			{"DELETE", "/faults", ``},
		} {
			status, body := send(t, client, c.method, base+c.path, "", ct, c.body)
			if status != http.StatusUnsupportedMediaType || !strings.Contains(body, "application/json") {
				t.Errorf("%s %s as %q = %d %s, want 415", c.method, c.path, ct, status, body)
			}
		}
	}
	if after := clockNow(); after != before {
		t.Fatalf("a refused advance moved the clock from %s to %s", before, after)
	}
	if _, body := send(t, client, "GET", base+"/faults", "", "", ""); strings.Contains(body, "503") {
		t.Fatalf("a refused POST added a fault: %s", body)
	}
	if status, body := send(t, client, "POST", base+"/clock/advance", "", "application/json; charset=utf-8", `{"by":"1h"}`); status != 200 {
		t.Fatalf("advance as JSON = %d %s", status, body)
	}
	if after := clockNow(); after == before {
		t.Fatal("a JSON advance did not move the clock")
	}
}

// The cloud APIs take bodies without a JSON content type (ARM's listKeys has
// none), so a page's "simple" POST is refused by its Origin instead: a
// schedule created or a key regenerated from another site is refused, while
// SDKs and the CLI (which send no Origin) and the emulator's own pages work.
func TestBinaryRefusesStateChangesFromOtherOrigins(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--allowed-host", "app.test")
	base := proc.Endpoints["http"]
	schedule := `{"ScheduleExpression":"rate(1 minute)","FlexibleTimeWindow":{"Mode":"OFF"},` +
		`"Target":{"Arn":"arn:aws:sqs:us-east-1:000000000000:q","RoleArn":"arn:aws:iam::000000000000:role/x"}}`
	post := func(name, origin string) (int, string) {
		req, err := http.NewRequest("POST", base+"/schedules/"+name, strings.NewReader(schedule))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/plain")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := insecureClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	for _, origin := range []string{"http://evil.example", "http://127.0.0.1:1", "http://localhost:3000", "null"} {
		if status, body := post("from-elsewhere", origin); status != http.StatusForbidden || !strings.Contains(body, "--allowed-host") {
			t.Errorf("POST from %s = %d %s, want 403 naming --allowed-host", origin, status, body)
		}
	}
	if status, _ := send(t, insecureClient(), "GET", base+"/schedules/from-elsewhere", "", "", ""); status != http.StatusNotFound {
		t.Fatalf("a refused cross-origin POST created the schedule (GET = %d)", status)
	}
	own := "http://" + strings.TrimPrefix(base, "http://")
	for name, origin := range map[string]string{"sdk": "", "own-page": own, "allowed-app": "http://app.test:5173"} {
		if status, body := post(name, origin); status != http.StatusOK {
			t.Errorf("POST with Origin %q = %d %s, want 200", origin, status, body)
		}
	}
}

func TestBinaryAnswersAWSShapeForUnknownTargets(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t)
	client := insecureClient()
	for _, c := range []struct{ name, target, contentType string }{
		{"no target, JSON 1.1", "", "application/x-amz-json-1.1"},
		{"no target, JSON 1.0", "", "application/x-amz-json-1.0"},
		{"unknown prefix", "AWSNothing.DoIt", "application/x-amz-json-1.1"},
		{"unknown prefix, any type", "Kinesis_20131202.PutRecord", "application/json"},
		{"known prefix, unknown operation", "AWSEvents.Nope", "application/x-amz-json-1.1"},
	} {
		for _, base := range []string{proc.Endpoints["http"], proc.Endpoints["https"]} {
			req, _ := http.NewRequest("POST", base+"/", strings.NewReader("{}"))
			req.Header.Set("Content-Type", c.contentType)
			if c.target != "" {
				req.Header.Set("X-Amz-Target", c.target)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Type    string `json:"__type"`
				Message string `json:"message"`
			}
			err = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
			if resp.StatusCode != 400 || err != nil || got.Type != "UnknownOperationException" || got.Message == "" {
				t.Errorf("%s on %s = %d %+v (%v), want 400 UnknownOperationException", c.name, base, resp.StatusCode, got, err)
			}
		}
	}
	// Azure's requests keep Azure's shape.
	status, body := send(t, client, "GET", proc.Endpoints["http"]+"/nothing/here", "", "", "")
	if status != 404 || !strings.Contains(body, `"code":"NotFound"`) {
		t.Fatalf("GET /nothing/here = %d %s", status, body)
	}
}

// closedWithin reads from conn until the server closes it, and fails when
// it is still open after limit.
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) string {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	data, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection is still open after %s (read %q)", limit, data)
	}
	return string(data)
}

func TestBinaryClosesSlowBodiesAndIdleConnections(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--read-timeout", "500ms", "--idle-timeout", "500ms")
	addr := strings.TrimPrefix(proc.Endpoints["http"], "http://")

	// A body that promises 100 bytes and sends one.
	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	_, _ = io.WriteString(slow, "POST /_emulator/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	if answer := closedWithin(t, slow, 20*time.Second); strings.HasPrefix(answer, "HTTP/1.1 2") {
		t.Fatalf("a body cut short was accepted: %q", answer)
	}

	// A keep-alive connection left idle after one request.
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	_, _ = io.WriteString(idle, "GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health on the idle connection: %v %v", resp, err)
	}
	closedWithin(t, idle, 20*time.Second)

	// A header block past the limit is refused.
	req, _ := http.NewRequest("GET", proc.Endpoints["http"]+"/_emulator/health", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 128<<10))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("128 KiB of headers = %d, want 431", resp.StatusCode)
		}
	}
}

func TestBinaryLongPollOutlivesTheReadTimeout(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual", "--read-timeout", "200ms")
	// A long poll with no body, and an advance with a body, both answered
	// after the read timeout has passed.
	start := time.Now()
	status, body := send(t, insecureClient(), "GET", proc.Endpoints["http"]+"/_emulator/deliveries?min=1&wait=1s", "", "", "")
	if status != 200 || time.Since(start) < time.Second {
		t.Fatalf("long poll = %d %s after %s", status, body, time.Since(start))
	}
}

func TestBinaryWritesTheCAFileWithoutFollowingALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("do not overwrite"), 0o600); err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.Symlink(victim, caFile); err != nil {
		t.Fatal(err)
	}
	testbinary.Start(t, "--ca-file", caFile)
	if got, _ := os.ReadFile(victim); string(got) != "do not overwrite" {
		t.Fatalf("the link's target was overwritten: %q", got)
	}
	fi, err := os.Lstat(caFile)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("ca file = %v %v, want a regular file", fi, err)
	}
	if pem, _ := os.ReadFile(caFile); !strings.Contains(string(pem), "BEGIN CERTIFICATE") {
		t.Fatalf("ca file = %q", pem)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}
