package eventbridge

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// PutEvents matches events against their bus's rules outside the service
// lock. A rule put, changed, disabled or deleted between that match and the
// moment PutEvents holds the lock again must count as it stands then, as if
// the event had been matched under the lock.
func TestMatchOutsideTheLockIsConfirmedUnderIt(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	eng := engine.New(engine.NewVirtualClock(start, 0), engine.NewJournal(0))
	s := New(Config{Engine: eng, SQS: sqs.New(sqs.Config{Clock: eng.Clock()}).Queues()})
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

// PutEvents writes its answer itself when every entry was accepted: it
// must be byte for byte what encoding/json writes, and event ids must be
// distinct random UUIDs, as AWS's are.
func TestPutEventsAnswer(t *testing.T) {
	t.Parallel()
	ids := newEventIDs(10)
	seen := map[string]bool{}
	for _, id := range ids {
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != id || seen[id] {
			t.Fatalf("event id %q: want a distinct version 4 UUID (%v)", id, err)
		}
		seen[id] = true
	}
	accepted := putEventsOutput{Entries: make([]putEventsResultEntry, len(ids))}
	for i := range ids {
		accepted.Entries[i].EventId = &ids[i]
	}
	failed := putEventsOutput{FailedEntryCount: 1, Entries: []putEventsResultEntry{
		{EventId: &ids[0]}, {ErrorCode: ptr("MalformedDetail"), ErrorMessage: ptr("Detail is malformed <&>.")},
	}}
	for _, out := range []putEventsOutput{accepted, failed, {Entries: []putEventsResultEntry{}}} {
		want, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		got := out.encode()
		if raw, ok := got.(json.RawMessage); ok {
			got = []byte(raw)
		} else if got, err = json.Marshal(got); err != nil {
			t.Fatal(err)
		}
		if string(got.([]byte)) != string(want) {
			t.Fatalf("answer %s, encoding/json: %s", got, want)
		}
	}
}

// The envelope's time is written as time.Format writes eventTimeLayout,
// whatever the instant.
func TestEventTimeIsTheLayout(t *testing.T) {
	t.Parallel()
	east := time.FixedZone("east", 5*3600+1800)
	for _, at := range []time.Time{
		time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2027, 1, 1, 3, 4, 5, 0, east), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 9, 9, 9, 9, 9, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 15, 1, 2, 3, 0, time.UTC), time.Unix(0, 0), time.Unix(1<<40, 0), {},
	} {
		if got, want := string(appendEventTime([]byte("x"), at)), "x"+at.UTC().Format(eventTimeLayout); got != want {
			t.Errorf("%v: got %s, want %s", at, got, want)
		}
	}
}
