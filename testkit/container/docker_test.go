package container

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
)

func TestNoDockerSkipsWithAMessageThatSaysWhatToDo(t *testing.T) {
	t.Setenv(RequireDockerVar, "")
	r := &testenv.Recorder{}
	skipUnlessReachable(r, func(context.Context) error { return errors.New("socket not found") }, time.Second)
	if !r.WasSkipped || r.WasFailed {
		t.Fatalf("skipped=%v failed=%v, want a skip", r.WasSkipped, r.WasFailed)
	}
	for _, want := range []string{"no Docker engine reachable", "socket not found", "in-process twin", "DOCKER_HOST", RequireDockerVar} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("skip message %q lacks %q", r.Message, want)
		}
	}
}

func TestNoDockerFailsWhenDockerIsRequired(t *testing.T) {
	t.Setenv(RequireDockerVar, "1")
	r := &testenv.Recorder{}
	skipUnlessReachable(r, func(context.Context) error { return errors.New("socket not found") }, time.Second)
	if !r.WasFailed || r.WasSkipped {
		t.Fatalf("skipped=%v failed=%v, want a failure", r.WasSkipped, r.WasFailed)
	}
}

func TestReachableDockerNeitherSkipsNorFails(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessReachable(r, func(context.Context) error { return nil }, time.Second)
	if r.WasSkipped || r.WasFailed {
		t.Fatalf("skipped=%v failed=%v (%s)", r.WasSkipped, r.WasFailed, r.Message)
	}
}

// An engine that accepts the connection and never answers must not hang
// the test: the probe is abandoned at its timeout, even one that ignores
// its context.
func TestSilentDockerSkipsAtTheTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	r := &testenv.Recorder{}
	start := time.Now()
	skipUnlessReachable(r, func(context.Context) error { <-release; return nil }, 50*time.Millisecond)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	if !r.WasSkipped || !strings.Contains(r.Message, "no answer within 50ms") {
		t.Fatalf("skipped=%v msg=%q, want a skip for the timeout", r.WasSkipped, r.Message)
	}
}

func TestPanickingDockerClientSkips(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessReachable(r, func(context.Context) error { panic("no docker host") }, time.Second)
	if !r.WasSkipped || !strings.Contains(r.Message, "panicked: no docker host") {
		t.Fatalf("skipped=%v msg=%q", r.WasSkipped, r.Message)
	}
}

// On this machine or any other, the real probe ends within its bound.
func TestSkipIfNoDockerAnswersInTime(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	start := time.Now()
	skipUnlessReachable(r, pingDocker, dockerProbeTimeout)
	if took := time.Since(start); took > dockerProbeTimeout+time.Second {
		t.Errorf("the probe took %v", took)
	}
	t.Logf("Docker reachable: %v %s", !r.WasSkipped && !r.WasFailed, r.Message)
}
