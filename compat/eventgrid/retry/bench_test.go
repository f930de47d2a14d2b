package retry_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// BenchmarkDayOfRetries: 10,000 always-failing events, one per batch, under
// the default policy (30 attempts, 24 h TTL, no jitter, no probation) with a
// dead-letter container in memory, through the engine on the virtual clock
// for 25 cloud hours: 11 attempts each (the 12th is due at 34h46m40s).
func BenchmarkDayOfRetries(b *testing.B) {
	benchmarkRetries(b, 25*time.Hour, 11, 0)
}

// BenchmarkDayOfRetriesToDeadLetter runs on to 35 cloud hours, so every event
// is also given up (TTL, at 34h46m40s, EG-14) and dead-lettered 5 minutes
// later.
func BenchmarkDayOfRetriesToDeadLetter(b *testing.B) {
	benchmarkRetries(b, 35*time.Hour, 11, 10_000)
}

func benchmarkRetries(b *testing.B, span time.Duration, attemptsEach, deadLetters int) {
	const events = 10_000
	b.ReportAllocs()
	for b.Loop() {
		clock := engine.NewVirtualClock(t0, 10*time.Second)
		eng := engine.New(clock, engine.NewJournal(0))
		sink := engine.NewMemorySink()
		eng.PutRoute(&engine.Route{
			ID:          routeID,
			Destination: routetest.Status(500),
			Retry:       retry.NewPolicy(retry.Config{}),
			DeadLetter:  deadletter.NewBuilder(routeID, deadletter.Destination{Account: "devstoreaccount1", Container: "deadletters"}).Policy(sink),
		})
		items := make([]*engine.Item, events)
		for i := range items {
			items[i] = newItem("e"+strconv.Itoa(i), t0)
		}
		if err := eng.Enqueue(routeID, items...); err != nil {
			b.Fatal(err)
		}
		clock.Advance(span)

		st := eng.Journal().Stats()
		if got := st.Counts[engine.KindAttempt]; got != uint64(events*attemptsEach) {
			b.Fatalf("%d attempts, want %d", got, events*attemptsEach)
		}
		if got := len(sink.List()); got != deadLetters {
			b.Fatalf("%d dead letters, want %d", got, deadLetters)
		}
	}
	b.ReportMetric(float64(events*attemptsEach), "attempts/op")
}
