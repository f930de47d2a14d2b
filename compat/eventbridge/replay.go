package eventbridge

import (
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Replay states.
const (
	replayStarting   = "STARTING"
	replayRunning    = "RUNNING"
	replayCancelling = "CANCELLING"
	replayCompleted  = "COMPLETED"
	replayCancelled  = "CANCELLED"
	replayFailed     = "FAILED"
)

// replayStartDelay is how long, on the emulator clock, a replay stays
// STARTING before it sends its events, so CancelReplay can catch it.
const replayStartDelay = time.Second

// maxActiveReplays is EventBridge's quota of replays STARTING or RUNNING.
const maxActiveReplays = 10

// replay sends an archive's events again to the bus they came from.
type replay struct {
	name, arn    string
	description  *string
	archiveArn   string
	archiveName  string
	start, end   time.Time
	destination  replayDestination
	state        string
	stateReason  *string
	startedAt    time.Time
	endedAt      time.Time
	lastReplayed time.Time
}

func (r *replay) active() bool { return r.state == replayStarting || r.state == replayRunning }

func (r *replay) item() replayItem {
	return replayItem{
		ReplayName: r.name, EventSourceArn: r.archiveArn, stateWithReason: stateWithReason{State: r.state, StateReason: r.stateReason},
		EventStartTime: timestamp(r.start), EventEndTime: timestamp(r.end),
		EventLastReplayedTime: timestamp(r.lastReplayed),
		ReplayStartTime:       timestamp(r.startedAt), ReplayEndTime: timestamp(r.endedAt),
	}
}

// runReplay sends the archived events of the replay's window, in the order
// the bus accepted them, each with replay-name set, through the bus's rules
// (only those named in FilterArns when any are), entering it as every event
// does. Being replays, they are not archived again.
func (s *Service) runReplay(t *tenant, rp *replay, gen uint64) {
	s.mu.Lock()
	if gen != s.generation {
		s.mu.Unlock()
		return
	}
	now := s.clock.Now()
	if rp.state == replayCancelling {
		rp.state, rp.endedAt = replayCancelled, now
		s.mu.Unlock()
		return
	}
	a, okA := t.archives[rp.archiveName]
	var b *bus
	if okA {
		b = t.buses[a.busName]
	}
	if b == nil {
		rp.state, rp.endedAt = replayFailed, now
		rp.stateReason = ptr("The archive or its event bus no longer exists.")
		s.mu.Unlock()
		return
	}
	rp.state = replayRunning
	var keep func(*rule) bool
	if len(rp.destination.FilterArns) > 0 {
		allowed := map[string]bool{}
		for _, arn := range rp.destination.FilterArns {
			allowed[arn] = true
		}
		keep = func(r *rule) bool { return allowed[r.arn] }
	}
	a.expireLocked(now)
	var journal []engine.Entry
	var deliveries []delivery
	for _, ae := range a.events {
		if ae.at.Before(rp.start) || ae.at.After(rp.end) {
			continue
		}
		env := ae.env
		env.ReplayName = rp.name
		ev := newEvent(env, now, []string{b.arn})
		journal, deliveries = s.acceptLocked(&arrival{ev: ev, t: t, b: b, m: b.match(ev), keep: keep}, now, journal, deliveries)
		rp.lastReplayed = ae.at
	}
	rp.state, rp.endedAt = replayCompleted, now
	s.engine.Journal().AppendAll(journal)
	s.mu.Unlock()
	s.enqueue(deliveries)
}

// scheduleReplayLocked starts the replay after replayStartDelay.
func (s *Service) scheduleReplayLocked(t *tenant, rp *replay) {
	gen := s.generation
	s.clock.AfterFunc(replayStartDelay, func() { s.runReplay(t, rp, gen) })
}
