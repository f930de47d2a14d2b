package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The server mounts the classic EventBridge API and event buses v2 on one
// router and one engine (EB-D1): each answers its own target prefix, and
// their buses are apart.
func TestEB_D1_ClassicAndV2BusesAreApart(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	call := func(target, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", target, resp.StatusCode, out)
		}
		return out
	}
	call("AWSEventsV2.CreateEventBus", `{"Name":"orders"}`)
	classicBuses := call("AWSEvents.ListEventBuses", `{}`)["EventBuses"].([]any)
	for _, b := range classicBuses {
		if b.(map[string]any)["Name"] == "orders" {
			t.Fatalf("a v2 bus shows on the classic face: %v", classicBuses)
		}
	}
	v2Buses := call("AWSEventsV2.ListEventBuses", `{}`)["EventBuses"].([]any)
	if len(v2Buses) != 1 || v2Buses[0].(map[string]any)["Name"] != "orders" {
		t.Fatalf("v2 buses = %v", v2Buses)
	}
}
