package httpserve

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/net/http/httpguts"
)

// maxBuffered is how much of an answer's body is held before the headers
// go out: an answer up to this size leaves in one write, with a
// Content-Length.
const maxBuffered = 32 << 10

// response is the connection's http.ResponseWriter, reused by each request.
type response struct {
	c   *conn
	req *http.Request
	hdr http.Header

	status      int
	wroteHeader bool // the status is fixed and the headers serialized in head
	committed   bool // head is on the wire
	chunked     bool
	head        bool // a HEAD request: no body goes out
	bodyAllowed bool
	handlerDone bool
	hasType     bool
	hasDate     bool
	cl          int64 // the handler's Content-Length, or -1
	written     int64 // body bytes the handler wrote
	// head holds the status line and the handler's headers from
	// WriteHeader on; buf the body not yet written.
	headBuf []byte
	buf     []byte
	err     error
}

func (w *response) reset(req *http.Request) {
	c := w.c
	clear(w.hdr)
	*w = response{c: c, req: req, hdr: w.hdr, cl: -1, headBuf: w.headBuf[:0]}
	w.head = req.Method == http.MethodHead
}

func (w *response) Header() http.Header { return w.hdr }

func (w *response) WriteHeader(code int) {
	if w.wroteHeader {
		return // superfluous, as net/http ignores it
	}
	if code < 100 || code > 999 {
		panic("httpserve: invalid WriteHeader code " + strconv.Itoa(code))
	}
	if code < 200 && code != http.StatusSwitchingProtocols {
		w.writeInformational(code)
		return
	}
	w.wroteHeader = true
	w.status = code
	w.bodyAllowed = code != http.StatusNoContent && code != http.StatusNotModified
	if v, ok := w.hdr["Content-Length"]; ok {
		if len(v) > 0 {
			if n, err := strconv.ParseInt(v[0], 10, 64); err == nil && n >= 0 {
				w.cl = n
			}
		}
	}
	_, w.hasType = w.hdr["Content-Type"]
	_, w.hasDate = w.hdr["Date"]
	b := appendStatusLine(w.headBuf[:0], w.req.ProtoMinor, code)
	for k, vs := range w.hdr {
		switch k {
		case "Content-Length", "Transfer-Encoding", "Connection":
			// Framing is the server's; Connection: close is honoured.
			if k == "Connection" && hasToken(vs, "close") {
				w.c.closeAfter = true
			}
			continue
		}
		if !httpguts.ValidHeaderFieldName(k) {
			continue
		}
		for _, v := range vs {
			b = appendHeader(b, k, v)
		}
	}
	w.headBuf = b
}

func (w *response) writeInformational(code int) {
	if w.committed || w.err != nil {
		return
	}
	b := appendStatusLine(nil, w.req.ProtoMinor, code)
	for k, vs := range w.hdr {
		for _, v := range vs {
			b = appendHeader(b, k, v)
		}
	}
	b = append(b, "\r\n"...)
	w.send(b)
}

func appendStatusLine(b []byte, minor, code int) []byte {
	if minor == 0 {
		b = append(b, "HTTP/1.0 "...)
	} else {
		b = append(b, "HTTP/1.1 "...)
	}
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, ' ')
	text := http.StatusText(code)
	if text == "" {
		text = "status code " + strconv.Itoa(code)
	}
	b = append(b, text...)
	return append(b, "\r\n"...)
}

// appendHeader appends one field; newlines in a value become spaces, as
// net/http makes them, so a value cannot start another header.
func appendHeader(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch == '\r' || ch == '\n' {
			ch = ' '
		}
		b = append(b, ch)
	}
	return append(b, "\r\n"...)
}

func (w *response) Write(p []byte) (int, error) { return write(w, p) }

// WriteString saves io.WriteString a conversion.
func (w *response) WriteString(s string) (int, error) { return write(w, s) }

// write is Write and WriteString: the body is buffered, and flushed once
// it reaches maxBuffered.
func write[T string | []byte](w *response, p T) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.err != nil {
		return 0, w.err
	}
	if !w.bodyAllowed {
		return 0, http.ErrBodyNotAllowed
	}
	if w.cl >= 0 && w.written+int64(len(p)) > w.cl {
		return 0, http.ErrContentLength
	}
	w.written += int64(len(p))
	if w.head {
		return len(p), nil
	}
	if w.buf == nil {
		w.c.takeBuffers()
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= maxBuffered {
		w.flush()
	}
	return len(p), w.err
}

// Flush sends the headers and what the body has so far.
func (w *response) Flush() { _ = w.FlushError() }

// FlushError is what http.ResponseController.Flush calls.
func (w *response) FlushError() error {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	w.flush()
	return w.err
}

// SetReadDeadline is what http.ResponseController.SetReadDeadline calls
// (the emulator's body read timeout); it applies at the next read.
func (w *response) SetReadDeadline(t time.Time) error {
	w.c.wantAt(t)
	return nil
}

// SetWriteDeadline is what http.ResponseController.SetWriteDeadline calls.
func (w *response) SetWriteDeadline(t time.Time) error { return w.c.rwc.SetWriteDeadline(t) }

// EnableFullDuplex: reading the body after writing is always allowed.
func (w *response) EnableFullDuplex() error { return nil }

// flush writes what is buffered, the headers first if they have not gone.
func (w *response) flush() {
	if w.err != nil {
		return
	}
	if w.c.out == nil {
		w.c.takeBuffers()
	}
	out := w.c.out[:0]
	if !w.committed {
		out = w.appendHead(out)
	}
	if len(w.buf) > 0 {
		if w.chunked {
			out = strconv.AppendInt(out, int64(len(w.buf)), 16)
			out = append(out, "\r\n"...)
			out = append(out, w.buf...)
			out = append(out, "\r\n"...)
		} else {
			out = append(out, w.buf...)
		}
		w.buf = w.buf[:0]
	}
	if w.handlerDone && w.chunked {
		out = append(out, "0\r\n\r\n"...)
	}
	if len(out) > 0 {
		w.send(out)
	}
	if cap(out) <= 2*maxBuffered+4<<10 {
		w.c.out = out[:0]
	}
}

func (w *response) send(b []byte) {
	if _, err := w.c.rwc.Write(b); err != nil {
		w.err = err
		w.c.closeAfter = true
	}
}

// appendHead completes the headers with the framing, Date and Connection
// and commits them.
func (w *response) appendHead(out []byte) []byte {
	w.committed = true
	c := w.c
	out = append(out, w.headBuf...)
	switch {
	case !w.bodyAllowed:
	case w.cl >= 0:
		out = append(out, "Content-Length: "...)
		out = strconv.AppendInt(out, w.cl, 10)
		out = append(out, "\r\n"...)
	case w.handlerDone:
		if !w.head || w.written > 0 {
			out = append(out, "Content-Length: "...)
			out = strconv.AppendInt(out, w.written, 10)
			out = append(out, "\r\n"...)
		}
	case w.req.ProtoMinor >= 1 && !w.head:
		w.chunked = true
		out = append(out, "Transfer-Encoding: chunked\r\n"...)
	default:
		c.closeAfter = true // an HTTP/1.0 body ends with the connection
	}
	if !w.hasType && w.bodyAllowed && len(w.buf) > 0 {
		out = appendHeader(out, "Content-Type", http.DetectContentType(w.buf))
	}
	if !w.hasDate {
		now := time.Now()
		if sec := now.Unix(); sec != c.dateSec || c.date == nil {
			c.dateSec = sec
			c.date = now.UTC().AppendFormat(c.date[:0], http.TimeFormat)
		}
		out = append(out, "Date: "...)
		out = append(out, c.date...)
		out = append(out, "\r\n"...)
	}
	if c.closeAfter || c.srv.inShutdown.Load() {
		c.closeAfter = true
		out = append(out, "Connection: close\r\n"...)
	} else if w.req.ProtoMinor == 0 {
		out = append(out, "Connection: keep-alive\r\n"...)
	}
	return append(out, "\r\n"...)
}

// finish completes the answer after the handler returned: the rest of the
// request body is drained (or the connection marked for closing) before
// the headers go, so they can say Connection: close.
func (w *response) finish() {
	c := w.c
	w.handlerDone = true
	if !w.wroteHeader {
		if errors.Is(c.body.err, errBadChunk) {
			c.closeAfter = true
			w.hdr = http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.WriteString("400 Bad Request: malformed chunked body")
		} else {
			w.WriteHeader(http.StatusOK)
		}
	}
	if !w.committed && !c.body.drain() {
		c.closeAfter = true
	}
	if w.cl >= 0 && w.written < w.cl && !w.head {
		// The handler promised more than it wrote: the client cannot
		// frame the next answer, so the connection ends.
		c.closeAfter = true
	}
	w.flush()
	if w.committed && !c.body.eof {
		c.closeAfter = true
	}
}

// writeError answers a request the server refused, then the connection
// closes.
func (c *conn) writeError(e *requestError) {
	b := appendStatusLine(c.out[:0], 1, e.status)
	b = append(b, "Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"...)
	msg := strconv.Itoa(e.status) + " " + http.StatusText(e.status) + ": " + e.msg
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(msg)), 10)
	b = append(b, "\r\n\r\n"...)
	b = append(b, msg...)
	_, _ = c.rwc.Write(b)
}

// Compile-time checks of what http.ResponseController looks for.
var (
	_ http.Flusher = (*response)(nil)
	_ interface {
		SetReadDeadline(time.Time) error
		SetWriteDeadline(time.Time) error
		FlushError() error
	} = (*response)(nil)
)
