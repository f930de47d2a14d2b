package eventbridge

import (
	"sync"
	"time"
)

// pacers enforce each API destination's InvocationRateLimitPerSecond across
// every rule target that calls it: at most that many invocations start in
// any one second of the emulator clock; the excess waits, queued, for the
// next second. They have a lock of their own because the engine asks them
// with its lock held (engine.Route.Pace).
type pacers struct {
	mu    sync.Mutex
	byArn map[string]*pacer
}

type pacer struct {
	rate   int
	window time.Time // the clock second being counted
	used   int
}

func newPacers() *pacers { return &pacers{byArn: make(map[string]*pacer)} }

// set gives the API destination arn its rate, keeping the current count.
func (p *pacers) set(arn string, rate int32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pc, ok := p.byArn[arn]; ok {
		pc.rate = int(rate)
		return
	}
	p.byArn[arn] = &pacer{rate: int(rate)}
}

func (p *pacers) remove(arn string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.byArn, arn)
}

func (p *pacers) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.byArn)
}

// reserve takes a slot for an invocation of arn at now, or says how long
// to wait for the next second's slots.
func (p *pacers) reserve(arn string, now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	pc, ok := p.byArn[arn]
	if !ok || pc.rate <= 0 {
		return 0
	}
	window := now.Truncate(time.Second)
	if !window.Equal(pc.window) {
		pc.window, pc.used = window, 0
	}
	if pc.used < pc.rate {
		pc.used++
		return 0
	}
	return window.Add(time.Second).Sub(now)
}

// pace is the engine.Route.Pace of a target that calls API destination arn.
func (s *Service) pace(arn string) func(time.Time) time.Duration {
	return func(now time.Time) time.Duration { return s.pacers.reserve(arn, now) }
}
