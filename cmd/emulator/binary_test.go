package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// builtBinary builds the emulator binary once per test binary run.
type builtBinary struct {
	once sync.Once
	path string
	err  error
}

func (b *builtBinary) get(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "gridbridge-bin-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, "emulator")
		out, err := exec.Command("go", "build", "-o", b.path, ".").CombinedOutput()
		if err != nil {
			b.err = err
			b.path = string(out)
		}
	})
	if b.err != nil {
		t.Fatalf("building the emulator: %v\n%s", b.err, b.path)
	}
	return b.path
}

// binaryUnderTest is shared by the tests and benchmarks of this package;
// it is the test binary's only state and holds no test results.
var binaryUnderTest builtBinary

// startBinary runs the built emulator and returns its endpoints; it stops
// the process when the test ends.
func startBinary(t testing.TB, args ...string) (map[string]string, *exec.Cmd) {
	t.Helper()
	bin := binaryUnderTest.get(t)
	args = append([]string{"--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0", "--ca-file", filepath.Join(t.TempDir(), "ca.pem")}, args...)
	cmd := exec.Command(bin, args...)
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
	eps := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(sc.Text(), "gridbridge: "))
		if len(f) >= 2 {
			eps[f[0]] = f[1]
		}
		if strings.Contains(sc.Text(), "ready in") {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return eps, cmd
		}
	}
	t.Fatalf("the emulator exited before it was ready: %v", sc.Err())
	return nil, nil
}

func TestBinaryServesHTTPSWithItsCAAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	eps, cmd := startBinary(t, "--clock", "virtual")
	pem, err := os.ReadFile(eps["ca"])
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("CA file holds no certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(eps["https"] + "/_emulator/clock")
	if err != nil {
		t.Fatalf("HTTPS with the CA file: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"mode":"virtual"`) {
		t.Fatalf("clock = %s", body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
}

// BenchmarkBinaryStartToHealthy measures process start to the first 200
// from /_emulator/health, and reports the idle resident memory.
func BenchmarkBinaryStartToHealthy(b *testing.B) {
	bin := binaryUnderTest.get(b)
	dir := b.TempDir()
	var rssKB float64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0", "--ca-file", filepath.Join(dir, "ca.pem"))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		var httpURL string
		for sc.Scan() {
			f := strings.Fields(strings.TrimPrefix(sc.Text(), "gridbridge: "))
			if len(f) >= 2 && f[0] == "http" {
				httpURL = f[1]
				break
			}
		}
		resp, err := http.Get(httpURL + "/_emulator/health")
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		b.StopTimer()
		if i == 0 {
			rssKB = residentKB(cmd.Process.Pid)
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		b.StartTimer()
	}
	b.ReportMetric(rssKB/1024, "idle-RSS-MB")
}

func residentKB(pid int) float64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) < 2 {
				return 0
			}
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb
		}
	}
	return 0
}
