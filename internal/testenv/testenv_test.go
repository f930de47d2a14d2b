package testenv

import (
	"strings"
	"testing"
)

func TestHelpers(t *testing.T) {
	helpers := map[string]struct {
		get func(testing.TB) string
		env string
	}{
		"AzureStorage": {AzureStorage, AzureStorageVar},
		"SQSEndpoint":  {SQSEndpoint, SQSEndpointVar},
	}
	for name, h := range helpers {
		t.Run(name+"/set", func(t *testing.T) {
			t.Setenv(h.env, "value")
			t.Setenv("CI", "true")
			r := &Recorder{}
			if got := h.get(r); got != "value" || r.WasSkipped || r.WasFailed {
				t.Fatalf("got %q skipped=%v failed=%v, want the value and neither", got, r.WasSkipped, r.WasFailed)
			}
		})
		// Unset, the helper skips, naming the variable and the script;
		// under CI it fails instead, pointing at the script.
		for _, unset := range []struct {
			ci    string
			fails bool
		}{{"", false}, {"false", false}, {"0", false}, {"true", true}, {"1", true}} {
			t.Run(name+"/unset/CI="+unset.ci, func(t *testing.T) {
				t.Setenv(h.env, "")
				t.Setenv("CI", unset.ci)
				r := &Recorder{}
				h.get(r)
				if unset.fails && (!r.WasFailed || r.WasSkipped) {
					t.Fatalf("skipped=%v failed=%v, want a failure under CI", r.WasSkipped, r.WasFailed)
				}
				if !unset.fails && (!r.WasSkipped || r.WasFailed) {
					t.Fatalf("skipped=%v failed=%v, want a skip", r.WasSkipped, r.WasFailed)
				}
				if !strings.Contains(r.Message, "./scripts/test.sh") || (!unset.fails && !strings.Contains(r.Message, h.env)) {
					t.Fatalf("message %q should point at ./scripts/test.sh (and, when skipping, name %s)", r.Message, h.env)
				}
			})
		}
	}
}
