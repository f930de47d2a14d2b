package emulator

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An advance "to" a time further ahead than one advance can move (Go's
// longest duration, about 292 years) is refused, not stopped short with a
// 200; one just inside that bound moves the clock exactly there.
func TestAdvanceToBeyondTheLongestDurationIsRefused(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	advance := func(to time.Time) (int, string) {
		t.Helper()
		body := `{"to":"` + to.Format(time.RFC3339Nano) + `"}`
		resp, err := http.Post(s.URL()+"/_emulator/clock/advance", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	now := s.Clock().Now()
	if status, body := advance(now.AddDate(300, 0, 0)); status != http.StatusBadRequest || !strings.Contains(body, "the most one advance can move it") {
		t.Errorf("300 years ahead: HTTP %d %s, want 400", status, body)
	}
	if got := s.Clock().Now(); !got.Equal(now) {
		t.Errorf("the refused advance moved the clock to %s", got)
	}
	target := now.AddDate(290, 0, 0)
	status, body := advance(target)
	if status != http.StatusOK || !s.Clock().Now().Equal(target) {
		t.Errorf("290 years ahead: HTTP %d %s, clock at %s, want 200 and the clock at %s", status, body, s.Clock().Now(), target)
	}
}
