package ui_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/testkit"
)

// The emulator mounts the dashboard on both listeners, behind the same guard
// as the rest of /_emulator: a foreign Host is refused, and the state changes
// the page makes need a JSON content type.
func TestDashboardOnBothListenersBehindTheGuard(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	client := emu.HTTPClient()
	for _, base := range []string{emu.URL(), emu.TLSURL()} {
		res, err := client.Get(base + "/_emulator/ui/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "GridBridge dashboard") ||
			!strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s/_emulator/ui/: %d, CSP %q", base, res.StatusCode, res.Header.Get("Content-Security-Policy"))
		}

		req, _ := http.NewRequest(http.MethodGet, base+"/_emulator/ui/", nil)
		req.Host = "attacker.example"
		res, err = client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s with Host attacker.example: %d, want 403", base, res.StatusCode)
		}
	}
	// What the page's buttons send: JSON passes, a form post does not.
	res, err := client.Post(emu.URL()+"/_emulator/faults", "text/plain", strings.NewReader(`{"status":503}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a fault posted as text/plain: %d, want 415", res.StatusCode)
	}
	res, err = client.Post(emu.URL()+"/_emulator/faults", "application/json", strings.NewReader(`{"match":{"subscription":"audit"},"status":503,"count":3}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Errorf("a fault posted as JSON: %d, want 201", res.StatusCode)
	}
}
