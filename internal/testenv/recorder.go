package testenv

import (
	"fmt"
	"testing"
)

// Recorder stands in for a testing.TB in tests of helpers that skip or fail
// (this package's, testkit/container's Docker check): it records whether
// the helper skipped or failed, and with what message, instead of ending
// the goroutine as a real T would.
type Recorder struct {
	testing.TB
	WasSkipped, WasFailed bool
	Message               string
}

func (r *Recorder) Helper() {}

func (r *Recorder) Skipf(format string, args ...any) {
	r.WasSkipped, r.Message = true, fmt.Sprintf(format, args...)
}

func (r *Recorder) Fatalf(format string, args ...any) {
	r.WasFailed, r.Message = true, fmt.Sprintf(format, args...)
}
