package container_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit/container"
)

// Both ports are published on 127.0.0.1 only: the emulator has no
// authentication.
func TestPortsArePublishedOnLoopback_Container(t *testing.T) {
	t.Parallel()
	c := runContainer(t)
	inspect, err := c.Inspect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, port := range []string{container.HTTPPort, container.TLSPort} {
		var found bool
		for p, bindings := range inspect.NetworkSettings.Ports {
			if p.String() != port {
				continue
			}
			found = true
			for _, b := range bindings {
				if !b.HostIP.IsLoopback() {
					t.Errorf("%s published on %s, want 127.0.0.1", port, b.HostIP)
				}
			}
		}
		if !found {
			t.Errorf("%s is not published: %v", port, inspect.NetworkSettings.Ports)
		}
	}
	if inspect.Config.Labels[container.Label] != "true" {
		t.Errorf("labels %v, want %s", inspect.Config.Labels, container.Label)
	}
}

// docker stop (SIGTERM) with the dashboard's live feed open: the feed is
// answered, the container exits 0, well before Docker's 10 s SIGKILL.
func TestStopWithTheDashboardOpen_Container(t *testing.T) {
	t.Parallel()
	c := runContainer(t)
	ctx := context.Background()
	base, err := c.HTTPURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	feed := make(chan error, 1)
	go func() {
		resp, err := http.Get(base + "/_emulator/ui/api/changes?after=1000000000&wait=5m")
		if err == nil {
			resp.Body.Close()
		}
		feed <- err
	}()
	start := time.Now()
	grace := 10 * time.Second
	if err := c.Stop(ctx, &grace); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	state, err := c.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if state.ExitCode != 0 || took > 3*time.Second {
		t.Fatalf("exit code %d after %v; want 0 within 3 s", state.ExitCode, took)
	}
	// A feed the emulator had read is answered 200; one it had not read
	// yet is refused. Neither holds the stop up.
	if err := <-feed; err != nil && !testenv.RefusedAtShutdown(err) {
		t.Errorf("live feed at stop: %v", err)
	}
	t.Logf("docker stop: exit 0 in %v", took.Round(time.Millisecond))
}
