package container

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
)

// The probe's verdict is given to skipUnlessUsable with the value of
// RequireDockerVar, so these tests hold whatever the environment sets.

func TestNoDockerSkipsWithAMessageThatSaysWhatToDo(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessUsable(r, func(context.Context) error { return &noEngineError{errors.New("socket not found")} }, time.Second, false)
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
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessUsable(r, func(context.Context) error { return &noEngineError{errors.New("socket not found")} }, time.Second, true)
	if !r.WasFailed || r.WasSkipped {
		t.Fatalf("skipped=%v failed=%v, want a failure", r.WasSkipped, r.WasFailed)
	}
}

// An engine that answers but cannot pull the reaper's image is not "no
// engine": the message names the engine, the image and the two ways out.
func TestEngineThatCannotRunContainersSaysSoAndWhatToDo(t *testing.T) {
	t.Parallel()
	for _, required := range []bool{false, true} {
		r := &testenv.Recorder{}
		skipUnlessUsable(r, func(context.Context) error {
			return &cannotRunError{engine: "Docker 20.10.24 at unix:///var/run/docker.sock", reason: "pull failed: no such host"}
		}, time.Second, required)
		if r.WasSkipped == required || r.WasFailed != required {
			t.Errorf("required=%v: skipped=%v failed=%v", required, r.WasSkipped, r.WasFailed)
		}
		for _, want := range []string{"a Docker engine answers (Docker 20.10.24 at unix:///var/run/docker.sock)", "cannot run", "no such host"} {
			if !strings.Contains(r.Message, want) {
				t.Errorf("message %q lacks %q", r.Message, want)
			}
		}
		if strings.Contains(r.Message, "no Docker engine") {
			t.Errorf("message %q calls a present engine absent", r.Message)
		}
	}
}

func TestReachableDockerNeitherSkipsNorFails(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessUsable(r, func(context.Context) error { return nil }, time.Second, true)
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
	skipUnlessUsable(r, func(context.Context) error { <-release; return nil }, 50*time.Millisecond, false)
	if !r.WasSkipped || !strings.Contains(r.Message, "no answer within 50ms") {
		t.Fatalf("skipped=%v msg=%q, want a skip for the timeout", r.WasSkipped, r.Message)
	}
}

func TestPanickingDockerClientSkips(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	skipUnlessUsable(r, func(context.Context) error { panic("no docker host") }, time.Second, false)
	if !r.WasSkipped || !strings.Contains(r.Message, "panicked: no docker host") {
		t.Fatalf("skipped=%v msg=%q", r.WasSkipped, r.Message)
	}
}

// On this machine or any other, the real probe ends within its bound.
func TestSkipIfNoDockerAnswersInTime(t *testing.T) {
	t.Parallel()
	r := &testenv.Recorder{}
	start := time.Now()
	skipUnlessUsable(r, probeDocker, dockerProbeTimeout+pullTimeout, false)
	if took := time.Since(start); took > dockerProbeTimeout+pullTimeout+time.Second {
		t.Errorf("the probe took %v", took)
	}
	t.Logf("Docker usable: %v %s", !r.WasSkipped && !r.WasFailed, r.Message)
}
