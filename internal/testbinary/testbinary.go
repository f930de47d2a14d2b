// Package testbinary builds the emulator binary once per test process and
// runs it for tests that must prove the shipped binary, not only the
// in-process server, behaves.
package testbinary

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// build is the one binary of this test process. It is test scaffolding, not
// emulator state: building once keeps each test from paying a link step.
var build struct {
	once sync.Once
	path string
	err  error
	out  string
}

// BinaryVar names a prebuilt emulator binary to run instead of building
// cmd/emulator, so one benchmark command can measure two builds in turn.
const BinaryVar = "GRIDBRIDGE_TEST_BINARY"

// Path builds cmd/emulator (once per process) and returns the binary, or
// returns the binary BinaryVar names.
func Path(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		if prebuilt := os.Getenv(BinaryVar); prebuilt != "" {
			build.path, build.err = filepath.Abs(prebuilt)
			if build.err == nil {
				_, build.err = os.Stat(build.path)
			}
			return
		}
		dir, err := os.MkdirTemp("", "gridbridge-bin-")
		if err != nil {
			build.err = err
			return
		}
		root, err := repoRoot()
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "emulator")
		cmd := exec.Command("go", "build", "-o", build.path, "./cmd/emulator")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		build.err, build.out = err, string(out)
	})
	if build.err != nil {
		t.Fatalf("building the emulator: %v\n%s", build.err, build.out)
	}
	return build.path
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Process is a running emulator binary.
type Process struct {
	Cmd *exec.Cmd
	// Endpoints maps the start-up lines' names ("http", "https", "ca",
	// "clock") to their values.
	Endpoints map[string]string
}

// Start runs the binary on free ports with args added, waits for its ready
// line, and kills it when the test ends.
func Start(t testing.TB, args ...string) *Process {
	t.Helper()
	return StartWithEnv(t, nil, args...)
}

// StartWithEnv is Start with more environment variables ("NAME=value")
// added to the test process's own.
func StartWithEnv(t testing.TB, env []string, args ...string) *Process {
	t.Helper()
	bin := Path(t)
	args = append([]string{"--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0",
		"--ca-file", filepath.Join(t.TempDir(), "ca.pem")}, args...)
	cmd := exec.Command(bin, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stderr = io.Discard
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan map[string]string, 1)
	go func() {
		eps := map[string]string{}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(strings.TrimPrefix(sc.Text(), "gridbridge: "))
			if len(f) >= 2 {
				eps[f[0]] = f[1]
			}
			if strings.Contains(sc.Text(), "ready in") {
				ready <- eps
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
		}
		close(ready)
	}()
	select {
	case eps, ok := <-ready:
		if !ok {
			t.Fatalf("the emulator exited before it was ready (args %q)", args)
		}
		return &Process{Cmd: cmd, Endpoints: eps}
	case <-time.After(30 * time.Second):
		t.Fatalf("the emulator printed no ready line within 30 s (args %q)", args)
		return nil
	}
}
