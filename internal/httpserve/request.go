package httpserve

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// requestError is a request the server answers itself, then closes.
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(msg string) error { return &requestError{http.StatusBadRequest, msg} }

// readLine returns the next line without its CRLF (or LF). The slice is
// valid until the next read. limit is what the header block has left.
func (c *conn) readLine(limit *int) ([]byte, error) {
	line, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// Longer than the reader's buffer: gather it, within the limit.
		c.line = append(c.line[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(c.line) > *limit {
				return nil, &requestError{http.StatusRequestHeaderFieldsTooLarge, "request header too large"}
			}
			line, err = c.br.ReadSlice('\n')
			c.line = append(c.line, line...)
		}
		line = c.line
	}
	if err != nil {
		return nil, err
	}
	*limit -= len(line)
	if *limit < 0 {
		return nil, &requestError{http.StatusRequestHeaderFieldsTooLarge, "request header too large"}
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// readRequest reads the next request's line and header block into c.req
// and prepares its body. A *requestError is answered; any other error
// (the client went away or was too slow) closes the connection silently.
func (c *conn) readRequest() error {
	limit := c.srv.MaxHeaderBytes
	if limit <= 0 {
		limit = http.DefaultMaxHeaderBytes
	}
	var line []byte
	var err error
	// A client may send a stray CRLF after a body (RFC 9112 2.2).
	for range 4 {
		if line, err = c.readLine(&limit); err != nil || len(line) > 0 {
			break
		}
	}
	if err != nil {
		return err
	}
	req := c.req
	*req = c.blank
	clear(c.hdr)
	c.vals = c.vals[:0]
	req.Header = c.hdr

	method, rest, ok1 := bytes.Cut(line, []byte{' '})
	target, proto, ok2 := bytes.Cut(rest, []byte{' '})
	if !ok1 || !ok2 || len(method) == 0 || len(target) == 0 {
		return badRequest("malformed request line")
	}
	if req.Method = internMethod(method); req.Method == "" {
		return badRequest("invalid method")
	}
	switch string(proto) {
	case "HTTP/1.1":
		req.Proto, req.ProtoMajor, req.ProtoMinor = "HTTP/1.1", 1, 1
	case "HTTP/1.0":
		req.Proto, req.ProtoMajor, req.ProtoMinor = "HTTP/1.0", 1, 0
	default:
		major, minor, ok := http.ParseHTTPVersion(string(proto))
		if !ok {
			return badRequest("malformed HTTP version")
		}
		if major != 1 {
			return &requestError{http.StatusHTTPVersionNotSupported, "unsupported HTTP version"}
		}
		req.Proto, req.ProtoMajor, req.ProtoMinor = "HTTP/1.1", major, minor
	}
	for _, b := range target {
		if b <= ' ' || b == 0x7f {
			return badRequest("invalid request target")
		}
	}
	if string(target) != c.lastTgt || c.lastTgt == "" {
		tgt := string(target)
		u, err := url.ParseRequestURI(tgt)
		if err != nil || (u.Path != "*" && u.Path != "" && u.Path[0] != '/' && u.Host == "") {
			return badRequest("malformed request target")
		}
		if u.Path == "*" && req.Method != http.MethodOptions {
			return badRequest("* is a target for OPTIONS only")
		}
		c.lastTgt, c.lastURL = tgt, *u
	}
	c.url = c.lastURL
	req.URL = &c.url
	req.RequestURI = c.lastTgt
	req.RemoteAddr = c.remoteAddr

	for {
		line, err := c.readLine(&limit)
		if err != nil {
			return err
		}
		if len(line) == 0 {
			break
		}
		if err := c.addHeader(line); err != nil {
			return err
		}
	}
	return c.prepare(req)
}

func (c *conn) addHeader(line []byte) error {
	if line[0] == ' ' || line[0] == '\t' {
		return badRequest("obsolete line folding")
	}
	name, value, ok := bytes.Cut(line, []byte{':'})
	if !ok || len(name) == 0 {
		return badRequest("malformed header line")
	}
	value = bytes.Trim(value, " \t")
	k := c.keys[string(name)]
	if k == nil {
		for _, b := range name {
			if !httpguts.IsTokenRune(rune(b)) {
				return badRequest("invalid header name")
			}
		}
		k = &headerKey{canon: textproto.CanonicalMIMEHeaderKey(string(name))}
		if len(c.keys) < maxHeaderKeys {
			c.keys[string(name)] = k
		}
	}
	for _, b := range value {
		if (b < ' ' && b != '\t') || b == 0x7f {
			return badRequest("invalid header value")
		}
	}
	if string(value) != k.last {
		k.last = string(value)
	}
	if prev, ok := c.hdr[k.canon]; ok {
		c.hdr[k.canon] = append(prev, k.last)
		return nil
	}
	c.vals = append(c.vals, k.last)
	n := len(c.vals)
	c.hdr[k.canon] = c.vals[n-1 : n : n]
	return nil
}

// prepare applies the header rules (Host, Connection, framing, Expect) and
// sets up the body.
func (c *conn) prepare(req *http.Request) error {
	h := c.hdr
	hosts := h["Host"]
	if len(hosts) > 1 {
		return badRequest("too many Host headers")
	}
	if len(hosts) == 1 {
		if !httpguts.ValidHostHeader(hosts[0]) {
			return badRequest("malformed Host header")
		}
		req.Host = hosts[0]
	} else if req.ProtoMinor >= 1 {
		return badRequest("missing required Host header")
	}
	delete(h, "Host")
	if req.URL.Host != "" {
		req.Host = req.URL.Host // absolute-form wins (RFC 9112 3.2.2)
	}

	conn := h["Connection"]
	if req.ProtoMinor == 0 {
		c.closeAfter = !hasToken(conn, "keep-alive")
	} else {
		c.closeAfter = hasToken(conn, "close")
	}
	req.Close = c.closeAfter

	c.body.reset()
	te := h["Transfer-Encoding"]
	cl := h["Content-Length"]
	switch {
	case len(te) > 0 && req.ProtoMinor >= 1:
		if len(te) != 1 || !strings.EqualFold(te[0], "chunked") {
			return &requestError{http.StatusNotImplemented, "unsupported transfer encoding"}
		}
		if len(cl) > 0 {
			return badRequest("both Transfer-Encoding and Content-Length")
		}
		delete(h, "Transfer-Encoding")
		c.te = append(c.te[:0], "chunked")
		req.TransferEncoding = c.te
		req.ContentLength = -1
		c.body.chunked = true
	case len(cl) > 0:
		n, err := parseContentLength(cl)
		if err != nil {
			return err
		}
		req.ContentLength = n
		c.body.remain = n
	}
	if len(te) > 0 && req.ProtoMinor == 0 {
		delete(h, "Transfer-Encoding") // HTTP/1.0 has none (net/http ignores it too)
	}
	if req.ContentLength == 0 {
		req.Body = http.NoBody
		c.body.eof = true
	} else {
		req.Body = &c.body
	}

	if e := h["Expect"]; len(e) > 0 {
		if len(e) != 1 || !strings.EqualFold(e[0], "100-continue") {
			return &requestError{http.StatusExpectationFailed, "unsupported expectation"}
		}
		delete(h, "Expect")
		c.body.expectContinue = req.ProtoMinor >= 1 && req.ContentLength != 0
	}
	return nil
}

func parseContentLength(vals []string) (int64, error) {
	var n int64 = -1
	for _, v := range vals {
		for f := range strings.SplitSeq(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" || len(f) > 18 || strings.TrimLeft(f, "0123456789") != "" {
				return 0, badRequest("bad Content-Length")
			}
			m, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return 0, badRequest("bad Content-Length")
			}
			if n >= 0 && m != n {
				return 0, badRequest("conflicting Content-Length")
			}
			n = m
		}
	}
	return n, nil
}

// hasToken reports whether a comma-separated header has token.
func hasToken(vals []string, token string) bool {
	for _, v := range vals {
		for f := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), token) {
				return true
			}
		}
	}
	return false
}

// internMethod returns the method as a string, without allocating for the
// common ones, or "" when it is no token.
func internMethod(b []byte) string {
	switch string(b) {
	case "GET":
		return http.MethodGet
	case "POST":
		return http.MethodPost
	case "PUT":
		return http.MethodPut
	case "DELETE":
		return http.MethodDelete
	case "HEAD":
		return http.MethodHead
	case "OPTIONS":
		return http.MethodOptions
	case "PATCH":
		return http.MethodPatch
	}
	for _, r := range b {
		if !httpguts.IsTokenRune(rune(r)) {
			return ""
		}
	}
	return string(b)
}

var errBadChunk = errors.New("httpserve: malformed chunked request body")
