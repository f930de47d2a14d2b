// Package frame is the request frame every GridBridge AWS API serves
// through: EventBridge, event buses v2, EventBridge Scheduler and SQS. It
// gives each request its id, reads its body up to the API's limit, and
// answers a request that panicked (a GridBridge bug) with the API's
// internal error after logging the panic's value and stack, so that no
// request takes the process down and none fails unseen.
//
// What differs between the APIs is theirs to say: the limit, the error
// codes of the frame's refusals, and the wire shape errors are written in
// (JSON 1.1, REST-JSON, SQS's JSON and query protocols).
package frame

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/uuidseq"
)

// API is one AWS API's frame. Its zero Log and NewID are usable. It must
// not be copied once it serves.
type API struct {
	// Name names the API in log lines ("EventBridge").
	Name string
	// MaxBody is the largest request body the API reads, in bytes: room
	// for AWS's own limit on its largest request, in the request's
	// encoding.
	MaxBody int64
	// Log receives a panicking request's value and stack; nil: discarded.
	Log *slog.Logger
	// NewID returns a request id; nil: one in a random UUID's form, as
	// AWS's are (uuidseq).
	NewID func() string
	// Admit, when set, is checked before the body is read; its error is
	// answered and the body left unread (SQS: a request must be signed,
	// and an unsigned one is refused before it costs a 4 MiB read).
	Admit func(*http.Request) error
	// Unreadable, TooLarge and Internal are the API's own errors for a
	// body that could not be read, a body over MaxBody, and a request
	// that failed inside GridBridge (answered with HTTP 500), each with
	// the frame's message.
	Unreadable, TooLarge, Internal func(message string) error
	// WriteError answers err in the API's wire shape.
	WriteError func(w http.ResponseWriter, req Request, err error)
	// Injected is the API's own error for an API fault (engine.APIFault)
	// with this code, HTTP status and message; nil: the API takes no
	// faults.
	Injected func(code string, status int, message string) error
	// Operation names the operation a request calls when neither an
	// X-Amz-Target header nor an Action parameter does (a REST API);
	// nil: such requests match only faults that name no operation.
	Operation func(*http.Request) string

	// ids makes the request ids when NewID is nil.
	ids uuidseq.Source
}

// Request is one request inside the frame.
type Request struct {
	HTTP *http.Request
	// ID is the request id, for the X-Amzn-RequestId header.
	ID string
	// Body is the whole body, at most MaxBody bytes.
	Body []byte
}

// Handler serves requests through the frame: serve answers a request, or
// returns an error for the frame to answer in the API's shape.
func (a *API) Handler(serve func(w http.ResponseWriter, req Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := Request{HTTP: r, ID: a.newID()}
		defer a.recover(w, req)
		if a.Admit != nil {
			if err := a.Admit(r); err != nil {
				a.WriteError(w, req, err)
				return
			}
		}
		body, err := readBody(r, a.MaxBody)
		switch {
		case err != nil:
			a.WriteError(w, req, a.Unreadable(fmt.Sprintf("The request body could not be read: %v.", err)))
			return
		case int64(len(body)) > a.MaxBody:
			a.WriteError(w, req, a.TooLarge(fmt.Sprintf("The request body is larger than the %d bytes this API accepts.", a.MaxBody)))
			return
		}
		req.Body = body
		if err := a.injected(req); err != nil {
			a.WriteError(w, req, err)
			return
		}
		if err := serve(w, req); err != nil {
			a.WriteError(w, req, err)
		}
	})
}

// injected is the error an API fault in force makes req answer, or nil.
// The faults travel in the request's context (engine.WithAPIFaults); a
// request is matched by the service its signature names (AWS's own name
// for the API: "events", "sqs") and its operation. It runs after the
// body is read, so a fault answers only requests the API would take.
func (a *API) injected(req Request) error {
	faults := engine.APIFaultsFrom(req.HTTP.Context())
	if faults.None() || a.Injected == nil {
		return nil
	}
	service := SigningService(req.HTTP)
	if service == "" {
		return nil
	}
	op := a.operation(req)
	hit, ok := faults.Take(service, op)
	if !ok {
		return nil
	}
	code, status, msg := hit.Error, hit.Status, hit.Message
	if code == "" {
		code = "InternalFailure"
	}
	if status == 0 {
		status = engine.AWSStatus(code)
	}
	if msg == "" {
		msg = "Failure injected by a GridBridge API fault (" + hit.ID + ")."
	}
	faults.Journal(hit, op, status, code, msg)
	return a.Injected(code, status, msg)
}

// operation names req's operation: the X-Amz-Target's (JSON protocols),
// the Action parameter (SQS's query protocol), or the API's Operation.
func (a *API) operation(req Request) string {
	if target := req.HTTP.Header.Get("X-Amz-Target"); target != "" {
		_, op, _ := strings.Cut(target, ".")
		return op
	}
	if op := req.HTTP.URL.Query().Get("Action"); op != "" {
		return op
	}
	if strings.HasPrefix(req.HTTP.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if form, err := url.ParseQuery(string(req.Body)); err == nil && form.Get("Action") != "" {
			return form.Get("Action")
		}
	}
	if a.Operation != nil {
		return a.Operation(req.HTTP)
	}
	return ""
}

// SigningService is the AWS service a request is signed for: the service
// of its SigV4 (AKID/date/region/service/aws4_request) or SigV4a
// (AKID/date/service/aws4_request) credential scope, or "" when it carries
// no signature.
func SigningService(r *http.Request) string {
	// Read from the end, without splitting: every AWS request asks.
	rest, ok := strings.CutSuffix(CredentialScope(r), "/aws4_request")
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 || strings.Count(rest[:i], "/") < 1 {
		return ""
	}
	return rest[i+1:]
}

// CredentialScope returns the Credential value of the Authorization header,
// or of the X-Amz-Credential query parameter of a presigned request.
func CredentialScope(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if i := strings.Index(auth, "Credential="); i >= 0 {
		v := auth[i+len("Credential="):]
		if j := strings.IndexAny(v, ", "); j >= 0 {
			v = v[:j]
		}
		return v
	}
	return r.URL.Query().Get("X-Amz-Credential")
}

// Refuse answers err to a request no operation of the API takes, with a
// request id of its own, leaving the body unread.
func (a *API) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	a.WriteError(w, Request{HTTP: r, ID: a.newID()}, err)
}

func (a *API) newID() string {
	if a.NewID != nil {
		return a.NewID()
	}
	return a.ids.Next()
}

// recover answers a request that panicked. http.ErrAbortHandler is the
// handler's own way to abort the response, and goes on to net/http.
func (a *API) recover(w http.ResponseWriter, req Request) {
	v := recover()
	if v == nil {
		return
	}
	if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
		panic(v)
	}
	if a.Log != nil {
		a.Log.Error("panic serving an AWS request (a GridBridge bug)", "api", a.Name,
			"method", req.HTTP.Method, "path", req.HTTP.URL.Path, "target", req.HTTP.Header.Get("X-Amz-Target"),
			"requestId", req.ID, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	}
	a.WriteError(w, req, a.Internal(fmt.Sprintf("GridBridge failed on this request (a bug worth reporting): %v", v)))
}

// readBody reads at most limit+1 bytes of r's body (one more than allowed,
// so an oversize body shows). The buffer starts at the declared length, so
// a body is read without the regrowing io.ReadAll does.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	size := int64(512)
	if r.ContentLength > 0 {
		// One byte more than declared: the read that finds the end of the
		// body needs room.
		size = min(r.ContentLength, limit) + 1
	}
	body := make([]byte, 0, size)
	rd := io.LimitReader(r.Body, limit+1)
	for {
		n, err := rd.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if err == io.EOF {
			return body, nil
		}
		if err != nil {
			return body, err
		}
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
	}
}
