package container

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder stands in for a testing.TB and records a skip or a failure
// instead of ending the goroutine as a real T would.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}

func TestNoDockerSkipsWithAMessageThatSaysWhatToDo(t *testing.T) {
	t.Setenv(RequireDockerVar, "")
	r := &recorder{}
	skipUnlessReachable(r, func(context.Context) error { return errors.New("socket not found") }, time.Second)
	if !r.skipped || r.failed {
		t.Fatalf("skipped=%v failed=%v, want a skip", r.skipped, r.failed)
	}
	for _, want := range []string{"no Docker engine reachable", "socket not found", "in-process twin", "DOCKER_HOST", RequireDockerVar} {
		if !strings.Contains(r.msg, want) {
			t.Errorf("skip message %q lacks %q", r.msg, want)
		}
	}
}

func TestNoDockerFailsWhenDockerIsRequired(t *testing.T) {
	t.Setenv(RequireDockerVar, "1")
	r := &recorder{}
	skipUnlessReachable(r, func(context.Context) error { return errors.New("socket not found") }, time.Second)
	if !r.failed || r.skipped {
		t.Fatalf("skipped=%v failed=%v, want a failure", r.skipped, r.failed)
	}
}

func TestReachableDockerNeitherSkipsNorFails(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	skipUnlessReachable(r, func(context.Context) error { return nil }, time.Second)
	if r.skipped || r.failed {
		t.Fatalf("skipped=%v failed=%v (%s)", r.skipped, r.failed, r.msg)
	}
}

// An engine that accepts the connection and never answers must not hang
// the test: the probe is abandoned at its timeout, even one that ignores
// its context.
func TestSilentDockerSkipsAtTheTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	r := &recorder{}
	start := time.Now()
	skipUnlessReachable(r, func(context.Context) error { <-release; return nil }, 50*time.Millisecond)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	if !r.skipped || !strings.Contains(r.msg, "no answer within 50ms") {
		t.Fatalf("skipped=%v msg=%q, want a skip for the timeout", r.skipped, r.msg)
	}
}

func TestPanickingDockerClientSkips(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	skipUnlessReachable(r, func(context.Context) error { panic("no docker host") }, time.Second)
	if !r.skipped || !strings.Contains(r.msg, "panicked: no docker host") {
		t.Fatalf("skipped=%v msg=%q", r.skipped, r.msg)
	}
}

// On this machine or any other, the real probe ends within its bound.
func TestSkipIfNoDockerAnswersInTime(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	start := time.Now()
	skipUnlessReachable(r, pingDocker, dockerProbeTimeout)
	if took := time.Since(start); took > dockerProbeTimeout+time.Second {
		t.Errorf("the probe took %v", took)
	}
	t.Logf("Docker reachable: %v %s", !r.skipped && !r.failed, r.msg)
}
