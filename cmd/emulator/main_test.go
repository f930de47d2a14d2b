package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to write from run and read from the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	// lines receives each complete line written.
	lines chan string
	part  string
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{lines: make(chan string, 64)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	b.part += string(p)
	for {
		i := strings.IndexByte(b.part, '\n')
		if i < 0 {
			break
		}
		b.lines <- b.part[:i]
		b.part = b.part[i+1:]
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// endpoints reads the start-up lines until "ready" and returns name → value.
func endpoints(t *testing.T, out *syncBuffer) map[string]string {
	t.Helper()
	got := map[string]string{}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line := <-out.lines:
			f := strings.Fields(strings.TrimPrefix(line, "gridbridge: "))
			if len(f) >= 2 {
				got[f[0]] = f[1]
			}
			if strings.Contains(line, "ready in") {
				return got
			}
		case <-timeout:
			t.Fatalf("no ready line; output so far:\n%s", out.String())
		}
	}
}

func TestRunServesAndStopsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	out := newSyncBuffer()
	env := map[string]string{"GRIDBRIDGE_CLOCK": "virtual", "GRIDBRIDGE_CA_FILE": t.TempDir() + "/ca.pem"}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0"},
			func(k string) string { return env[k] }, out, io.Discard)
	}()
	eps := endpoints(t, out)
	if eps["clock"] != "virtual" {
		t.Errorf("clock from GRIDBRIDGE_CLOCK = %q, want virtual", eps["clock"])
	}
	if eps["ca"] != env["GRIDBRIDGE_CA_FILE"] {
		t.Errorf("ca file = %q, want %q", eps["ca"], env["GRIDBRIDGE_CA_FILE"])
	}
	resp, err := http.Get(eps["http"] + "/_emulator/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("health: %s", resp.Status)
	}
	// The start-up lines name the dashboard, and it is there.
	if eps["dashboard"] != eps["http"]+"/_emulator/ui/" {
		t.Errorf("dashboard line = %q, want %s/_emulator/ui/", eps["dashboard"], eps["http"])
	}
	if page, err := http.Get(eps["dashboard"]); err != nil || page.StatusCode != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET %s: %v %v", eps["dashboard"], err, page)
	} else {
		page.Body.Close()
	}
	hostPort := strings.TrimPrefix(eps["http"], "http://")
	if err := run(context.Background(), []string{"--healthcheck", "--addr", hostPort}, func(string) string { return "" }, io.Discard, io.Discard); err != nil {
		t.Fatalf("--healthcheck against a running emulator: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run returned %v", err)
	}
	if err := run(context.Background(), []string{"--healthcheck", "--addr", hostPort}, func(string) string { return "" }, io.Discard, io.Discard); err == nil {
		t.Fatal("--healthcheck passed after the emulator stopped")
	}
}

func TestFlagsAndEnvironment(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want string // substring of the error
	}{
		{"bad clock", []string{"--clock", "sundial", "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0"}, nil, `unknown clock "sundial"`},
		{"bad env number", nil, map[string]string{"GRIDBRIDGE_TIME_SCALE": "fast"}, "GRIDBRIDGE_TIME_SCALE"},
		{"bad scale", []string{"--time-scale", "-1", "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0"}, nil, "time scale"},
		{"stray argument", []string{"serve"}, nil, "unexpected arguments"},
		{"bad log level", []string{"--log-level", "loud"}, nil, "--log-level"},
		{"bad memory limit", nil, map[string]string{"GRIDBRIDGE_MEMORY_LIMIT": "lots"}, "GRIDBRIDGE_MEMORY_LIMIT"},
		{"bad gc percent", nil, map[string]string{"GRIDBRIDGE_GC_PERCENT": "lots"}, "GRIDBRIDGE_GC_PERCENT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := run(context.Background(), c.args, func(k string) string { return c.env[k] }, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestRepeatableFlagFromEnvironment(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // start, print, and return at once
	out := newSyncBuffer()
	env := map[string]string{
		"GRIDBRIDGE_ADDR":          "127.0.0.1:0",
		"GRIDBRIDGE_TLS_ADDR":      "127.0.0.1:0",
		"GRIDBRIDGE_AZURE_STORAGE": "UseDevelopmentStorage=true\nUseDevelopmentStorage=true",
		"GRIDBRIDGE_CA_FILE":       t.TempDir() + "/ca.pem",
	}
	if err := run(ctx, nil, func(k string) string { return env[k] }, out, io.Discard); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	n := 0
	for sc.Scan() {
		n++
	}
	if n < 5 {
		t.Fatalf("expected one line per endpoint, got:\n%s", out.String())
	}
}

func TestConfigFileErrorsNameTheLine(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/topology.yaml"
	if err := os.WriteFile(path, []byte("eventgrid:\n  topics:\n    - name: orders\n      inputSchema: Avro\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"--config", path, "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0"},
		func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "topology.yaml:4: eventgrid.topics[0].inputSchema") {
		t.Fatalf("err = %v, want it to name line 4 and the field", err)
	}
}

func TestConfigFileCreatesTopicsAtStart(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/topology.yaml"
	if err := os.WriteFile(path, []byte("eventgrid:\n  topics:\n    - name: orders\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := newSyncBuffer()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--config", path, "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0", "--ca-file", t.TempDir() + "/ca.pem"},
			func(string) string { return "" }, out, io.Discard)
	}()
	eps := endpoints(t, out)
	resp, err := http.Get(eps["http"] + "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/gridbridge/providers/Microsoft.EventGrid/topics/orders?api-version=2025-02-15")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the topic the file declares: %s", resp.Status)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	// --version answers at once, on the command line only.
	env := func(k string) string { return map[string]string{"GRIDBRIDGE_ADDR": "not an address"}[k] }
	if err := run(context.Background(), []string{"--version"}, env, &out, &errOut); err != nil {
		t.Fatalf("--version: %v", err)
	}
	if line := strings.TrimSpace(out.String()); !strings.HasPrefix(line, "gridbridge ") || !strings.Contains(line, runtime.Version()) || strings.Contains(line, "\n") {
		t.Errorf("--version printed %q, want one line naming gridbridge and %s", out.String(), runtime.Version())
	}

	out.Reset()
	err := run(context.Background(), []string{"--help"}, func(string) string { return "" }, &out, &errOut)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help returned %v, want flag.ErrHelp (main exits 0)", err)
	}
	help := errOut.String()
	for _, want := range []string{"Usage: ", "GridBridge emulates Azure Event Grid and Amazon EventBridge", "GRIDBRIDGE_<FLAG>", "--clock virtual", "--time-scale", "-sqs-endpoint", "-version"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not say %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "Usage of ") {
		t.Errorf("--help still starts with the flag package's own line:\n%s", help)
	}

	for argv0, want := range map[string]string{
		"/tmp/go-build2718/b001/exe/emulator": "go run ./cmd/emulator",
		"/usr/local/bin/emulator":             "emulator",
		"./gridbridge":                        "gridbridge",
		"/emulator":                           "emulator",
	} {
		if got := programName(argv0); got != want {
			t.Errorf("programName(%q) = %q, want %q", argv0, got, want)
		}
	}
}
