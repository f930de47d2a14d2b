package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/gridbridge/gridbridge/compat/eventgrid/internal/routetest"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestEG24_OutcomeNames(t *testing.T) {
	t.Parallel()
	post := func(err error) error { return &url.Error{Op: "Post", URL: "https://hook.example/api", Err: err} }
	dial := func(err error) error {
		return post(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", err)})
	}
	tests := []struct {
		status int
		err    error
		want   string
	}{
		{200, nil, "Success"},
		{204, nil, "Success"},
		{400, nil, "BadRequest"},
		{401, nil, "Unauthorized"},
		{403, nil, "Forbidden"},
		{404, nil, "NotFound"},
		{410, nil, "NotFound"},
		{408, nil, "TimedOut"},
		{504, nil, "TimedOut"},
		{413, nil, "PayloadTooLarge"},
		{429, nil, "Busy"},
		{503, nil, "Busy"},
		{500, nil, "Busy"},
		{502, nil, "Busy"},
		{409, nil, "BadRequest"},
		{302, nil, "Aborted"},
		{205, nil, "Aborted"},
		{0, engine.ErrResponseTimeout, "TimedOut"},
		{0, post(context.DeadlineExceeded), "TimedOut"},
		{0, post(&net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}), "TimedOut"},
		{0, post(context.Canceled), "Canceled"},
		{0, dial(syscall.ECONNREFUSED), "SocketError"},
		{0, post(&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), "SocketError"},
		{0, post(io.EOF), "SocketError"},
		{0, post(&net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "hook.invalid", IsNotFound: true}}), "ResolutionError"},
		{0, post(&net.OpError{Op: "dial", Err: &net.DNSError{Err: "i/o timeout", Name: "hook.invalid", IsTimeout: true}}), "ResolutionError"},
		{0, errors.New("tls: handshake failure"), "SocketError"},
		// The transport error wins over a status.
		{503, dial(syscall.ECONNREFUSED), "SocketError"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %v", tt.status, tt.err), func(t *testing.T) {
			t.Parallel()
			if got := retry.OutcomeName(tt.status, tt.err); got != tt.want {
				t.Fatalf("OutcomeName(%d, %v) = %q, want %q", tt.status, tt.err, got, tt.want)
			}
		})
	}
	t.Run("journal and record use the name", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, setup{cfg: retry.Config{MaxDeliveryAttempts: 1}, dest: routetest.Status(503)})
		h.publish("e1")
		if got := h.one(engine.KindAttempt, "e1").Outcome; got != "Busy" {
			t.Fatalf("attempt outcome %q, want Busy", got)
		}
		h.advanceTo(at("5m"))
		if rec := h.record(h.one(engine.KindDeadLetter, "e1")); rec["lastDeliveryOutcome"] != "Busy" || rec["lastHttpStatusCode"] != 503.0 {
			t.Fatalf("record %v", rec)
		}
	})
}
