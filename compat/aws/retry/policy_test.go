package retry

import (
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestWaitSchedule(t *testing.T) {
	t.Parallel()
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 480, 480}
	for i, w := range want {
		if got := Wait(i + 1); got != w*time.Second {
			t.Errorf("Wait(%d) = %s, want %s", i+1, got, w*time.Second)
		}
	}
	var total time.Duration
	for n := 1; n <= DefaultMaximumRetryAttempts; n++ {
		total += Wait(n)
	}
	if total >= DefaultMaximumEventAgeInSeconds*time.Second || total < 23*time.Hour {
		t.Errorf("185 default retries span %s; want just under 24h", total)
	}
}

func batch(published time.Time, attempts int) *engine.Batch {
	return &engine.Batch{Items: []*engine.Item{{ID: "e", PublishedAt: published}}, Attempts: attempts}
}

func TestPolicyDecisions(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	two, sixty := int32(2), int32(60)
	p := New(&two, nil)
	fail := engine.Outcome{Name: CodeThrottling}
	if d := p.AfterFailure(batch(t0, 1), fail, t0); d.Action != engine.Retry || d.After != time.Second {
		t.Errorf("first failure: %+v", d)
	}
	if d := p.AfterFailure(batch(t0, 2), fail, t0.Add(time.Second)); d.Action != engine.Retry || d.After != 2*time.Second {
		t.Errorf("second failure: %+v", d)
	}
	if d := p.AfterFailure(batch(t0, 3), fail, t0.Add(3*time.Second)); d.Action != engine.GiveUpDeadLetter || d.Reason != ReasonMaximumRetryAttempts {
		t.Errorf("retries used up: %+v", d)
	}
	if d := p.AfterFailure(batch(t0, 1), engine.Outcome{Name: CodeNoResource}, t0); d.Action != engine.GiveUpDeadLetter || d.Reason != ReasonNotRetryable {
		t.Errorf("not retryable: %+v", d)
	}
	aged := New(nil, &sixty)
	// After 7 failures the next wait (64 s) passes the 60 s age: give up at 60 s.
	if d := aged.AfterFailure(batch(t0, 7), fail, t0.Add(58*time.Second)); d.Action != engine.Retry || d.After != 2*time.Second {
		t.Errorf("retry capped by age: %+v", d)
	}
	if d := aged.BeforeRetry(batch(t0, 7), t0.Add(60*time.Second)); d.Action != engine.GiveUpDeadLetter || d.Reason != ReasonMaximumEventAgeInSeconds {
		t.Errorf("age reached: %+v", d)
	}
	jit := New(nil, nil)
	jit.Jitter = NewJitter(42)
	if d := jit.Jitter.Spread(8*time.Second, 0.5); d != 6*time.Second {
		t.Errorf("jittered wait for retry 4 (8 s) at the middle draw = %s, want 6s", d)
	}
	d := jit.AfterFailure(batch(t0, 4), fail, t0)
	if d.After < 4*time.Second || d.After >= 8*time.Second || d.After != jit.AfterFailure(batch(t0, 4), fail, t0).After {
		t.Errorf("jittered wait for retry 4 (8 s) = %s, want a repeatable draw in [4s, 8s)", d.After)
	}
}

func TestAttributes(t *testing.T) {
	t.Parallel()
	attrs := Attributes("rule", "target", engine.Outcome{Name: CodeThrottling, Message: "slow down"}, ReasonMaximumRetryAttempts, 185)
	want := map[string]string{"RULE_ARN": "rule", "TARGET_ARN": "target", "ERROR_CODE": "THROTTLING", "ERROR_MESSAGE": "slow down",
		"EXHAUSTED_RETRY_CONDITION": "MaximumRetryAttempts", "RETRY_ATTEMPTS": "185"}
	if len(attrs) != len(want) {
		t.Fatalf("got %d attributes: %+v", len(attrs), attrs)
	}
	for _, a := range attrs {
		if a.Type != "String" || want[a.Name] != a.Value {
			t.Errorf("attribute %+v, want %q of type String", a, want[a.Name])
		}
	}
	if got := Attributes("r", "t", engine.Outcome{Name: CodeNoResource}, ReasonNotRetryable, 0); len(got) != 5 {
		t.Errorf("a never-retried error carries %d attributes, want 5 (no EXHAUSTED_RETRY_CONDITION)", len(got))
	}
}
