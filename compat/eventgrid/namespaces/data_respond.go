package namespaces

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/auth"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// Data-plane error codes. BadRequest is confirmed by the Go SDK's live
// tests; the others follow the reference's suggested mapping (UNCONFIRMED).
const (
	codeBadRequest       = "BadRequest"
	codeUnauthorized     = "Unauthorized"
	codeNotFound         = "NotFound"
	codeTooLarge         = "RequestEntityTooLarge"
	codeMethodNotAllowed = "MethodNotAllowed"
)

// Journal outcomes of pull operations.
const (
	outcomeReceived     = "Received"
	outcomeAcknowledged = "Acknowledged"
	outcomeReleased     = "Released"
	outcomeRejected     = "Rejected"
	outcomeLockExpired  = "LockExpired"
)

// writeDataError answers with Azure.Core's error shape. The code also goes in
// x-ms-error-code, which the Go SDK prefers to the body.
func writeDataError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("x-ms-error-code", code)
	writeData(w, status, map[string]map[string]string{"error": {"code": code, "message": message}})
}

// dataHandler accepts only POST, as every data-plane operation is, and
// hands the request to the operation its path names.
func (s *Service) dataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeDataError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed,
				"The HTTP method '"+r.Method+"' is not supported; namespace operations are POST requests.")
			return
		}
		p, _ := parseDataPath(r.URL.Path) // the route matched it
		if p.topic == "" {
			s.publish(w, r, p)
		} else {
			s.subscriptionOperation(w, r, p)
		}
	})
}

// splitOperation splits "name:operation" at its last colon.
func splitOperation(segment string) (name, op string, ok bool) {
	i := strings.LastIndexByte(segment, ':')
	if i <= 0 || i == len(segment)-1 {
		return "", "", false
	}
	return segment[:i], segment[i+1:], true
}

// authorize finds the namespace and topic of a data-plane request and checks
// its credential against their keys (topic keys are accepted for their
// topic). On failure it has answered the request. A missing namespace is a
// 404 before authentication, a missing topic a 404 after it.
func (s *Service) authorize(w http.ResponseWriter, r *http.Request, namespace, topic string) (t *topicState, ok bool) {
	s.mu.RLock()
	ns := s.namespaceByName(namespace)
	var keys []string
	if ns != nil {
		keys = append(keys, ns.keys[0], ns.keys[1])
		if t = ns.topics[lower(topic)]; t != nil {
			keys = append(keys, t.keys[0], t.keys[1])
		}
	}
	s.mu.RUnlock()
	if ns == nil {
		writeDataError(w, http.StatusNotFound, codeNotFound, "The namespace '"+namespace+"' was not found.")
		return nil, false
	}
	if err := auth.Check(r, keys); err != nil {
		w.Header().Set("WWW-Authenticate", "SharedAccessKey")
		writeDataError(w, http.StatusUnauthorized, codeUnauthorized, err.Error())
		return nil, false
	}
	if t == nil {
		writeDataError(w, http.StatusNotFound, codeNotFound, "The topic '"+topic+"' was not found in namespace '"+namespace+"'.")
		return nil, false
	}
	return t, true
}

// live reports whether t is still reachable (not deleted, alone or with its
// namespace). The caller holds Service.mu.
func (s *Service) live(t *topicState) bool {
	return s.namespaceByName(t.ns.res.Name) == t.ns && t.ns.topics[lower(t.res.Name)] == t
}

// writeData answers with v in the data plane's bytes: HTML characters
// escaped and no newline after the value, as json.Marshal writes it.
func writeData(w http.ResponseWriter, status int, v any) {
	httpjson.Write(w, status, v, httpjson.EscapeHTML(), httpjson.NoNewline())
}

// readBody reads a request body up to limit bytes. tooLarge reports a body
// over the limit.
func readBody(r *http.Request, limit int64) (body []byte, tooLarge bool, err error) {
	size := int64(512)
	if n := r.ContentLength; n > 0 && n <= limit {
		// A declared length sizes the buffer once; the byte more lets the
		// read that finds the end do so without growing it.
		size = n + 1
	}
	body = make([]byte, 0, size)
	in := io.LimitReader(r.Body, limit+1)
	for {
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
		n, rerr := in.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, false, rerr
		}
	}
	if int64(len(body)) > limit {
		return nil, true, errors.New("request body too large")
	}
	return body, false, nil
}
