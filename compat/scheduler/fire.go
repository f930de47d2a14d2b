package scheduler

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Schedules fire on the emulator clock: each firing arms the next, so a
// test that advances a virtual clock by an hour sees every firing of a
// rate(5 minutes) schedule in that hour, in order, each an invocation the
// engine delivers under the schedule's retry policy.

// armLocked sets the schedule's timer for its first firing from now.
func (s *Service) armLocked(sc *sched) {
	sc.seq++
	if sc.timer != nil {
		sc.timer.Stop()
		sc.timer = nil
	}
	if sc.set.in.State != "ENABLED" {
		return
	}
	now := s.clock.Now()
	at, ok := sc.set.expr.first(sc.window(), now)
	if !ok {
		return
	}
	s.armAtLocked(sc, at)
}

func (sc *sched) window() window {
	w := sc.set.win
	w.anchor = sc.modified
	return w
}

// armAtLocked sets the timer for the firing scheduled at `at`, moved by
// the flexible time window's offset.
func (s *Service) armAtLocked(sc *sched, at time.Time) {
	seq, gen := sc.seq, s.generation
	wait := at.Add(s.flexOffset(sc, at)).Sub(s.clock.Now())
	sc.timer = s.clock.AfterFunc(max(wait, 0), func() { s.fire(sc, seq, gen, at) })
}

// flexOffset places an invocation inside its FLEXIBLE window: a
// pseudo-random offset below MaximumWindowInMinutes, derived from the seed,
// the schedule and the scheduled time, so the same seed repeats a run.
func (s *Service) flexOffset(sc *sched, at time.Time) time.Duration {
	w := sc.set.in.FlexibleTimeWindow
	if w == nil || w.Mode != "FLEXIBLE" || w.MaximumWindowInMinutes == nil {
		return 0
	}
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%d|%s|%d", s.seed, sc.arn, at.UnixNano())
	span := int64(*w.MaximumWindowInMinutes) * int64(time.Minute/time.Second)
	return time.Duration(h.Sum64()%uint64(span)) * time.Second
}

// fire invokes the schedule for its firing scheduled at `at` and arms the
// next one. A schedule with no firing left is deleted when its
// ActionAfterCompletion says DELETE.
func (s *Service) fire(sc *sched, seq, gen uint64, at time.Time) {
	s.mu.Lock()
	if gen != s.generation || seq != sc.seq || sc.deleted {
		s.mu.Unlock()
		return
	}
	sc.timer = nil
	inv := &invocation{
		executionID: uuid.NewString(), scheduled: at, scheduleArn: sc.arn, input: "{}",
	}
	if sc.set.in.Target.Input != nil {
		inv.input = *sc.set.in.Target.Input
	}
	item := &engine.Item{ID: inv.executionID, Body: []byte(inv.render(1)), PublishedAt: s.clock.Now(), Meta: inv}
	routeID, labels := sc.routeID, s.labels(sc)
	maxAge := time.Duration(sc.set.retry.maxAgeSeconds) * time.Second
	var retire string
	if next, ok := sc.set.expr.next(sc.window(), at); ok {
		s.armAtLocked(sc, next)
	} else if sc.set.in.ActionAfterCompletion == "DELETE" {
		retire = s.completeLocked(sc)
	}
	s.mu.Unlock()
	s.engine.Journal().Append(engine.Entry{
		Time: s.clock.Now(), Kind: engine.KindPublish, Route: routeID, Labels: labels,
		EventIDs: []string{inv.executionID}, Body: item.Body,
		Message: "schedule fired for " + at.UTC().Format(time.RFC3339),
	})
	if err := s.engine.Enqueue(routeID, item); err != nil {
		s.engine.Journal().Append(engine.Entry{
			Time: s.clock.Now(), Kind: engine.KindDrop, Route: routeID, Labels: labels,
			EventIDs: []string{inv.executionID}, Outcome: "RouteMissing", Message: err.Error(),
		})
	}
	if retire != "" {
		// The last invocation keeps its route until its retries, bounded
		// by MaximumEventAgeInSeconds, are over.
		s.clock.AfterFunc(maxAge+time.Hour, func() { s.engine.RemoveRoute(retire, "") })
	}
}

// completeLocked deletes a schedule that has run for the last time
// (ActionAfterCompletion DELETE) and returns its route, left to finish.
func (s *Service) completeLocked(sc *sched) string {
	sc.deleted = true
	sc.seq++
	sc.group.removeLocked(sc.name)
	return sc.routeID
}

// stopLocked deletes a schedule and returns its route for the caller to
// remove once the lock is released.
func (s *Service) stopLocked(sc *sched) string {
	sc.deleted = true
	sc.seq++
	if sc.timer != nil {
		sc.timer.Stop()
		sc.timer = nil
	}
	return sc.routeID
}

func (s *Service) labels(sc *sched) map[string]string {
	return map[string]string{
		"cloud": "scheduler", "group": sc.group.name, "schedule": sc.name, "target": deref(sc.set.in.Target.Arn),
	}
}

// routeLocked builds the engine route that invokes the schedule's target.
func (s *Service) routeLocked(sc *sched, key tenantKey) *engine.Route {
	t := sc.set.in.Target
	inner := retry.New(&sc.set.retry.maxAttempts, &sc.set.retry.maxAgeSeconds)
	if s.jitter {
		inner.Jitter = retry.NewJitter(uint64(s.seed))
	}
	r := &engine.Route{
		ID: sc.routeID, Labels: s.labels(sc), Destination: s.destination(sc, key), Retry: policy{inner},
		MaxBatchEvents: 1, NameFault: codeForStatus,
	}
	if sc.set.kind == targetSQS && t.MessageGroup() != "" {
		r.Concurrency = 1 // FIFO order within the group
	}
	if dlq := t.DeadLetterArn(); dlq != "" {
		r.DeadLetter = deadLetters(s.sqs, dlq, sc.arn, *t.Arn)
	}
	return r
}
