package testenv

import (
	"fmt"
	"strings"
	"testing"
)

// recorder stands in for a testing.TB and records whether the helper skipped
// or failed, instead of ending the goroutine as a real T would.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}

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
			r := &recorder{}
			if got := h.get(r); got != "value" || r.skipped || r.failed {
				t.Fatalf("got %q skipped=%v failed=%v, want the value and neither", got, r.skipped, r.failed)
			}
		})
		for _, ci := range []string{"", "false", "0"} {
			t.Run(name+"/unset/CI="+ci, func(t *testing.T) {
				t.Setenv(h.env, "")
				t.Setenv("CI", ci)
				r := &recorder{}
				h.get(r)
				if !r.skipped || r.failed {
					t.Fatalf("skipped=%v failed=%v, want a skip", r.skipped, r.failed)
				}
				if !strings.Contains(r.msg, "./scripts/test.sh") || !strings.Contains(r.msg, h.env) {
					t.Fatalf("skip message %q should name %s and ./scripts/test.sh", r.msg, h.env)
				}
			})
		}
		for _, ci := range []string{"true", "1"} {
			t.Run(name+"/unset/CI="+ci, func(t *testing.T) {
				t.Setenv(h.env, "")
				t.Setenv("CI", ci)
				r := &recorder{}
				h.get(r)
				if !r.failed || r.skipped {
					t.Fatalf("skipped=%v failed=%v, want a failure under CI", r.skipped, r.failed)
				}
				if !strings.Contains(r.msg, "./scripts/test.sh") {
					t.Fatalf("failure message %q should point at ./scripts/test.sh", r.msg)
				}
			})
		}
	}
}
