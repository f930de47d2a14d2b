package testkit_test

import (
	"testing"

	"github.com/gridbridge/gridbridge/testkit"
)

// BenchmarkStart measures testkit.Start: an in-process emulator on free
// ports with its CA, ready for requests.
func BenchmarkStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		func() {
			tb := &cleanupTB{TB: b}
			defer tb.cleanup()
			testkit.Start(tb)
		}()
	}
}

// cleanupTB runs cleanups when asked, so the benchmark does not keep
// thousands of emulators until it ends.
type cleanupTB struct {
	testing.TB
	fns []func()
}

func (c *cleanupTB) Cleanup(f func()) { c.fns = append(c.fns, f) }
func (c *cleanupTB) cleanup() {
	for i := len(c.fns) - 1; i >= 0; i-- {
		c.fns[i]()
	}
}
