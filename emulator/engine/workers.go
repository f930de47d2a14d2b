package engine

import "time"

// workerIdle is how long a worker goroutine waits for more work before it
// ends. It is real time, not the emulator clock's: it bounds how long an
// idle goroutine is kept, which no cloud behaviour depends on.
const workerIdle = 30 * time.Second

// workers runs functions on goroutines that outlive them. A delivery
// attempt goes deep into HTTP and JSON code; a new goroutine for each one
// grows its stack to that depth again, copying it several times, which
// costs a busy route about a tenth of its CPU. A worker keeps the stack it
// grew for the next attempt; one idle for workerIdle ends.
type workers struct {
	idle chan func() // unbuffered: a send succeeds only to a waiting worker
}

func newWorkers() *workers { return &workers{idle: make(chan func())} }

// Go runs f on an idle worker, or on a new one when none waits.
func (w *workers) Go(f func()) {
	select {
	case w.idle <- f:
	default:
		go w.run(f)
	}
}

func (w *workers) run(f func()) {
	timer := time.NewTimer(workerIdle)
	defer timer.Stop()
	for {
		f()
		f = nil // the finished work is not kept alive while the worker waits
		timer.Reset(workerIdle)
		select {
		case f = <-w.idle:
		case <-timer.C:
			return
		}
	}
}
