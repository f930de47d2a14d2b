package eventbridge

import (
	"time"

	"github.com/google/uuid"
)

// Scheduled rules fire on the emulator clock: each firing arms the next, so
// a test that advances a virtual clock by an hour sees every firing of a
// rate(1 minute) rule in that hour, in order.

// armScheduleLocked sets the rule's timer for its first firing after from.
func (s *Service) armScheduleLocked(r *rule, from time.Time) {
	next, ok := r.sched.Next(from)
	if !ok {
		return
	}
	seq, gen := r.scheduleSeq, s.generation
	r.timer = s.clock.AfterFunc(next.Sub(s.clock.Now()), func() { s.fireSchedule(r, seq, gen, next) })
}

// fireSchedule sends the rule's Scheduled Event to its targets. It does not
// enter the bus as other events do (acceptLocked): it meets no other rule
// and no archive.
func (s *Service) fireSchedule(r *rule, seq, gen uint64, at time.Time) {
	s.mu.Lock()
	if gen != s.generation || seq != r.scheduleSeq || r.deleted {
		s.mu.Unlock()
		return
	}
	ev := newEvent(envelope{
		ID: uuid.NewString(), DetailType: "Scheduled Event", Source: "aws.events",
		Account: r.tenant.account, Time: at, Region: r.tenant.region,
		Resources: []string{r.arn}, Detail: []byte("{}"),
	}, at, []string{r.bus.arn})
	s.engine.Journal().Append(publishEntry(r.bus, ev, s.clock.Now()))
	ds := r.deliveriesLocked(ev, nil)
	s.armScheduleLocked(r, at)
	s.mu.Unlock()
	s.enqueue(ds)
}
