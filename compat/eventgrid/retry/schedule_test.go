package retry

import (
	"net/http"
	"testing"
	"time"
)

// EG-8: the standard steps after each failed attempt, then every 12 hours.
func TestStandardDelay_EG8(t *testing.T) {
	t.Parallel()
	want := []time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute,
		30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 12 * time.Hour}
	for i, w := range want {
		if got := standardDelay(i + 1); got != w {
			t.Errorf("after attempt %d: %v, want %v", i+1, got, w)
		}
	}
}

// EG-7: the floor of each retried status, per destination kind.
func TestFloor_EG7(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind   DestinationKind
		status int
		want   time.Duration
	}{
		{AzureResource, http.StatusUnauthorized, 5 * time.Minute},
		{AzureResource, http.StatusNotFound, 5 * time.Minute},
		{Webhook, http.StatusNotFound, 10 * time.Second},
		{Webhook, http.StatusRequestTimeout, 2 * time.Minute},
		{AzureResource, http.StatusServiceUnavailable, 30 * time.Second},
		{Webhook, http.StatusServiceUnavailable, 30 * time.Second},
		{Webhook, http.StatusInternalServerError, 10 * time.Second},
	} {
		if got := floor(c.kind, c.status); got != c.want {
			t.Errorf("kind %d, status %d: floor %v, want %v", c.kind, c.status, got, c.want)
		}
	}
}
