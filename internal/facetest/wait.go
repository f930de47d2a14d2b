package facetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// WaitTimeout bounds every wait in this package, in real time. A wait that
// runs out means the awaited thing never happened: tests advance the
// virtual clock, they never sleep, so nothing is slow on purpose.
const WaitTimeout = 30 * time.Second

// Context returns a context that ends after WaitTimeout or with the test.
func Context(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	t.Cleanup(cancel)
	return c
}

// Wait blocks on journal appends (never on time) until cond holds for the
// entries matching f, and returns them; what names the wait in a failure.
func (e *Env) Wait(t testing.TB, what string, f engine.Filter, cond func([]engine.Entry) bool) []engine.Entry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	got, err := e.Journal.Wait(ctx, f, cond)
	if err != nil {
		t.Fatalf("journal: waiting for %s (matching %+v): %v (have %d entries)", what, f, err, len(got))
	}
	return got
}

// WaitCount waits until at least n entries match f, and returns them.
func (e *Env) WaitCount(t testing.TB, f engine.Filter, n int) []engine.Entry {
	t.Helper()
	return e.Wait(t, fmt.Sprintf("%d entries", n), f, func(es []engine.Entry) bool { return len(es) >= n })
}
