package pipes

import (
	"fmt"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// settleLocked puts a pipe where it rests after a change: RUNNING, reading
// its source; STOPPED; or failed (CREATE_FAILED, UPDATE_FAILED,
// START_FAILED) with the reason in StateReason.
func (s *Service) settleLocked(p *pipe, failed string) {
	if p.desired == stateStopped {
		s.stopLocked(p)
		p.current, p.reason = stateStopped, ""
		return
	}
	if reason := s.cannotRun(p); reason != "" {
		s.stopLocked(p)
		p.current, p.reason = failed, reason
		return
	}
	p.current, p.reason = stateRunning, ""
	if p.run == nil {
		p.run = s.newRunner(p)
		p.run.start()
	}
}

// stopLocked stops a pipe's reading, if it reads.
func (s *Service) stopLocked(p *pipe) {
	if p.run != nil {
		p.run.stop()
		p.run = nil
	}
}

// cannotRun says why a pipe cannot run on GridBridge, "" when it can.
func (s *Service) cannotRun(p *pipe) string {
	if p.set.source != sourceSQS {
		return fmt.Sprintf("GridBridge runs pipes whose source is an Amazon SQS queue; it accepts a %s source as AWS does, but does not read it.", sourceNames[p.set.source].service)
	}
	if s.cfg.Sources == nil {
		return fmt.Sprintf("GridBridge reads a pipe's SQS source from its own SQS only; this emulator's SQS is the server at %s (--sqs-endpoint), whose queues it does not watch.", s.cfg.SQSEndpoint)
	}
	return ""
}

// journal appends a pipe's entry, stamped with the time, the pipe's route
// and labels with step.
func (s *Service) journal(p *pipe, step string, e engine.Entry) {
	if e.Time.IsZero() {
		e.Time = s.clock.Now()
	}
	e.Route, e.Labels = p.routeID, p.labels(step)
	s.engine.Journal().Append(e)
}
