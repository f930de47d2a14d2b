package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// exitBound is what the shutdown tests allow between SIGTERM and exit. The
// emulator's own bound is emulator.ShutdownGrace (500 ms) for requests in
// flight; the rest is headroom for a loaded CI machine. Before, an unused
// connection or a long poll cost 5 s and exit status 2, a storage account
// that never answers up to 9 s.
const exitBound = 3 * time.Second

// silentListener accepts connections and never answers: a storage account
// that hangs. Each accepted connection is reported on the channel.
func silentListener(t *testing.T) (addr string, accepted <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan struct{}, 16)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}()
	return ln.Addr().String(), ch
}

// terminate sends sig to the binary and returns its exit status and how
// long it took to exit.
func terminate(t *testing.T, cmd *exec.Cmd, signals ...syscall.Signal) (int, time.Duration) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	start := time.Now()
	for _, sig := range signals {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-exited:
		took := time.Since(start)
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), took
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, took
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30 s after the signal")
		return -1, 0
	}
}

// SIGTERM while a client holds a connection it never used, the dashboard's
// live feed waits (up to 5 minutes), and an ARM call waits on a storage
// account that never answers (the first listing of a system topic's
// account): exit 0 at once.
func TestSIGTERMWithAnUnusedConnectionALongPollAndAHangingStorageAccount(t *testing.T) {
	t.Parallel()
	storage, scanned := silentListener(t)
	account := "DefaultEndpointsProtocol=http;AccountName=hang;AccountKey=" + azblobsink.DevAccountKey + ";BlobEndpoint=http://" + storage + "/hang;"
	proc := testbinary.Start(t, "--azure-storage", account)
	httpURL := proc.Endpoints["http"]

	unused, err := net.Dial("tcp", strings.TrimPrefix(httpURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer unused.Close()

	// The system topic's first listing of the account hangs.
	sub := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers"
	go func() {
		req, _ := http.NewRequest(http.MethodPut, httpURL+sub+"/Microsoft.EventGrid/systemTopics/blobs?api-version=2025-02-15",
			strings.NewReader(`{"location":"westus","properties":{"source":"`+sub+`/Microsoft.Storage/storageAccounts/hang","topicType":"Microsoft.Storage.StorageAccounts"}}`))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-scanned:
	case <-time.After(10 * time.Second):
		t.Fatal("the emulator never listed the storage account")
	}

	poll := make(chan error, 1)
	go func() {
		resp, err := http.Get(httpURL + "/_emulator/ui/api/changes?after=1000000000&wait=5m")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %s", resp.Status)
			}
		}
		poll <- err
	}()
	// The feed answers 200 at shutdown when the emulator has read the
	// request; one not read yet is refused. Either way it must not hold the
	// exit up (the emulator package's tests prove that a long poll in
	// flight is answered 200).
	status, took := terminate(t, proc.Cmd, syscall.SIGTERM)
	if status != 0 || took > exitBound {
		t.Fatalf("exit status %d after %v; want 0 within %v", status, took, exitBound)
	}
	if err := <-poll; err != nil && !testenv.RefusedAtShutdown(err) {
		t.Errorf("the live feed at shutdown: %v", err)
	}
	t.Logf("exit 0 %v after SIGTERM", took.Round(time.Millisecond))
}

// A request that does not end with shutdown (a handler reading a body that
// never comes) is cut off after the grace; a second signal does not wait
// even for that. (The second is an interrupt: the kernel merges a second
// SIGTERM into the first while that one is pending.)
func TestSIGTERMCutsOffAStuckRequestAndASecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel()
	for name, signals := range map[string][]syscall.Signal{
		"one signal":  {syscall.SIGTERM},
		"two signals": {syscall.SIGTERM, syscall.SIGINT},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			proc := testbinary.Start(t)
			testenv.StuckInBodyRead(t, strings.TrimPrefix(proc.Endpoints["http"], "http://"))
			status, took := terminate(t, proc.Cmd, signals...)
			want := 0
			if len(signals) == 2 {
				want = secondSignalStatus
			}
			if status != want || took > exitBound {
				t.Fatalf("exit status %d after %v; want %d within %v", status, took, want, exitBound)
			}
			t.Logf("exit %d %v after %d signal(s)", status, took.Round(time.Millisecond), len(signals))
		})
	}
}
