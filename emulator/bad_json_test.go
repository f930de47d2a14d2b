package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// A body of the wrong shape is answered in the words of the API's JSON — the
// member and the kinds of value — on every API that decodes one, never with
// encoding/json's text naming the emulator's Go types.
func TestBadJSONIsExplainedInJSONTerms(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	for _, tc := range []struct {
		method, path, body, want string
	}{
		{http.MethodPost, "/_emulator/faults", `{"status":"x"}`, "member 'status' must be an integer, not a JSON string"},
		{http.MethodPost, "/_emulator/faults", `{"match":1}`, "member 'match' must be a JSON object, not a JSON number"},
		{http.MethodPost, "/_emulator/faults", `{"by":"1h"}`, `the body has a member "by", which this request does not take`},
		{http.MethodPost, "/_emulator/clock/advance", `{"by":5}`, "member 'by' must be a string, not a JSON number"},
		{http.MethodPost, "/_emulator/clock/advance", `{"by":`, "the body is not valid JSON: it ends too early"},
		{http.MethodPut, "/subscriptions/s/resourcegroups/rg?api-version=2021-04-01", `{"location":5}`,
			"member 'location' must be a string, not a JSON number"},
		{http.MethodPut, "/subscriptions/s/resourceGroups/rg/providers/Microsoft.EventGrid/topics/orders?api-version=2025-02-15",
			`{"location":"westus","tags":[]}`, "member 'tags' must be a JSON object, not a JSON array"},
	} {
		req, err := http.NewRequest(tc.method, s.URL()+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(raw, &answer); err != nil {
			t.Fatalf("%s %s: answer is not an error object: %s", tc.method, tc.path, raw)
		}
		msg := answer.Error.Message
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, tc.want) || strings.Contains(msg, "Go ") {
			t.Errorf("%s %s %s: %d %q, want 400 saying %q", tc.method, tc.path, tc.body, resp.StatusCode, msg, tc.want)
		}
	}
}
