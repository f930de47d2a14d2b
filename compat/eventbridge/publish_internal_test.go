package eventbridge

import (
	"slices"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// PutEvents matches events against their bus's rules outside the service
// lock. A rule put, changed, disabled or deleted between that match and the
// moment PutEvents holds the lock again must count as it stands then, as if
// the event had been matched under the lock.
func TestMatchOutsideTheLockIsConfirmedUnderIt(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := New(Config{Engine: engine.New(engine.NewVirtualClock(start, 0), engine.NewJournal(0))})
	key := tenantKey{account: "123456789012", region: "us-east-1"}
	b := newBus(key, "orders", start)
	putRule := func(name, text, state string) *rule {
		t.Helper()
		p, err := parsePattern(text)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := b.rules[name]
		if !ok {
			r = &rule{tenant: key, bus: b, name: name, arn: ruleArn(key, b.name, name)}
			b.rules[name] = r
		}
		r.compiled, r.state = p, state
		s.syncRuleLocked(r)
		return r
	}
	ev := newEvent(envelope{ID: "e1", Source: "shop", DetailType: "OrderPlaced", Account: key.account,
		Region: key.region, Time: start, Detail: []byte(`{"total":5}`)}, start, b.self)

	putRule("a", `{"source":["shop"]}`, stateEnabled)
	m := b.match(ev)
	if got := b.confirmLocked(m, ev); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("unchanged rules: got %v, want [a]", got)
	}

	steps := []struct {
		name   string
		change func()
		want   []string
	}{
		{"a second rule that matches", func() { putRule("b", `{"detail":{"total":[5]}}`, stateEnabled) }, []string{"a", "b"}},
		{"a rule disabled", func() { putRule("a", `{"source":["shop"]}`, stateDisabled) }, []string{"b"}},
		{"a pattern that no longer matches", func() { putRule("b", `{"source":["other"]}`, stateEnabled) }, nil},
		{"a rule enabled again", func() { putRule("a", `{"source":["shop"]}`, stateEnabled) }, []string{"a"}},
		{"a rule deleted", func() {
			r := b.rules["a"]
			r.deleted = true
			s.syncRuleLocked(r)
			delete(b.rules, "a")
		}, nil},
	}
	for _, step := range steps {
		m := b.match(ev)
		step.change()
		got := b.confirmLocked(m, ev)
		slices.Sort(got)
		if !slices.Equal(got, step.want) {
			t.Fatalf("after %s: got %v, want %v", step.name, got, step.want)
		}
	}
}
