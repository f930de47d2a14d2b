package container_test

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
	"github.com/gridbridge/gridbridge/testkit/container"
)

// Without Docker, the next best proof of the container mode: the emulator
// binary started with exactly the environment Run gives the container
// (the image's listen addresses aside, and a topology file at its host
// path), then the same scenarios through testkit.Connect. It checks that
// every variable Run sets is one the binary reads, that the testkit
// defaults give the same schedules, and that the advertised
// https://localhost:<port> is the URL testkit reaches and its certificate
// is valid for.

func TestEventGridRetriesThenDeadLetters_ContainerEnv(t *testing.T) {
	t.Parallel()
	eventGridRetriesThenDeadLetters(t, runBinaryWithContainerEnv(t))
}

func TestEventBridgeRuleToQueue_ContainerEnv(t *testing.T) {
	t.Parallel()
	eventBridgeRuleToQueue(t, runBinaryWithContainerEnv(t))
}

func TestTopologyFile_ContainerEnv(t *testing.T) {
	t.Parallel()
	topologyIsInPlace(t, runBinaryWithContainerEnv(t, container.WithTopology(topologyFile)))
}

// runBinaryWithContainerEnv starts the emulator binary as Run would start
// the container, with opts besides WithTestkitDefaults, and attaches
// testkit to it. The binary is stopped when t ends.
func runBinaryWithContainerEnv(t *testing.T, opts ...container.Option) *testkit.Emulator {
	t.Helper()
	tlsPort := freeLoopbackPort(t)
	env, err := container.EmulatorEnv("localhost", tlsPort, append(opts, container.WithTestkitDefaults())...)
	if err != nil {
		t.Fatal(err)
	}
	// What the Dockerfile sets, on loopback; and the topology file where
	// the container would have a copy.
	env["GRIDBRIDGE_ADDR"] = "127.0.0.1:0"
	env["GRIDBRIDGE_TLS_ADDR"] = "127.0.0.1:" + strconv.Itoa(tlsPort)
	env["GRIDBRIDGE_CA_FILE"] = filepath.Join(t.TempDir(), "ca.pem")
	if _, ok := env["GRIDBRIDGE_CONFIG"]; ok {
		env["GRIDBRIDGE_CONFIG"] = topologyFile
	}

	cmd := exec.Command(testbinary.Path(t))
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return testkit.Connect(t, httpURLFromStartupLines(t, stdout))
}

// httpURLFromStartupLines reads the binary's start-up lines up to its
// ready line and returns the "gridbridge: http <url>" one.
func httpURLFromStartupLines(t *testing.T, stdout io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		defer close(found)
		url := ""
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			fields := strings.Fields(strings.TrimPrefix(lines.Text(), "gridbridge: "))
			if len(fields) == 2 && fields[0] == "http" {
				url = fields[1]
			}
			if strings.Contains(lines.Text(), "ready in") {
				found <- url
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
		}
	}()
	select {
	case url, ok := <-found:
		if !ok || url == "" {
			t.Fatal("the emulator exited before it was ready")
		}
		return url
	case <-time.After(testkit.DefaultWait):
		t.Fatalf("the emulator was not ready within %v", testkit.DefaultWait)
		return ""
	}
}

// freeLoopbackPort is a TCP port free on 127.0.0.1 now, as Run picks the
// host port for 4443.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
