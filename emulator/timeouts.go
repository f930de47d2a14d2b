package emulator

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// Listener limits (README "Timeouts and limits"). A client that sends its
// headers or body slowly, or keeps a connection idle, cannot hold it forever.
// There is deliberately no write timeout: a namespace receive, an inspection
// wait and a clock advance answer only when their work is done.
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a request's body, counted from the
	// end of its headers.
	DefaultReadTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection with no request.
	DefaultIdleTimeout = 120 * time.Second
	// MaxHeaderBytes bounds a request's header block.
	MaxHeaderBytes = 64 << 10
)

// bodyDeadline gives a request readTimeout to deliver its body, then lifts
// the deadline once the body is read, so a handler that answers later (a
// long poll) is not cut off. http.Server.ReadTimeout cannot do this: its
// deadline stays on the connection while the handler runs and cancels the
// request's context when it passes.
func bodyDeadline(readTimeout time.Duration, next http.Handler) http.Handler {
	if readTimeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body == nil || r.Body == http.NoBody {
			// Nothing to read: no deadline while the handler works.
			_ = rc.SetReadDeadline(time.Time{})
			next.ServeHTTP(w, r)
			return
		}
		if err := rc.SetReadDeadline(time.Now().Add(readTimeout)); err != nil {
			// Not a network connection (a recorder, as the topology loader
			// uses): nothing to bound.
			next.ServeHTTP(w, r)
			return
		}
		// The controller travels inside the body: one allocation, not two.
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: *rc}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline when the body has been read to its
// end.
type deadlineBody struct {
	io.ReadCloser
	rc   http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
