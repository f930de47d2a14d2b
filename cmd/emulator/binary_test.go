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
	"syscall"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
)

func TestBinaryServesHTTPSWithItsCAAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual")
	eps, cmd := proc.Endpoints, proc.Cmd
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
	bin := testbinary.Path(b)
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
