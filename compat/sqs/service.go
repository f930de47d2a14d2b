package sqs

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/uuid"
	"github.com/gorilla/mux"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Service serves the SQS API over a Store.
type Service struct {
	store *Store
}

// New returns the SQS API over store.
func New(store *Store) *Service { return &Service{store: store} }

// Store returns the queues the API serves.
func (s *Service) Store() *Store { return s.store }

// maxRequestBody bounds a request: a 256 KiB batch, query-encoded (which
// can make a byte of UTF-8 three characters), and framing.
const maxRequestBody = 4 << 20

// Register mounts the API on r: POST / with X-Amz-Target: AmazonSQS.* (JSON
// protocol) or with a form body or query string naming an Action (query
// protocol), and queue URLs /<account>/<queue> in either protocol.
func (s *Service) Register(r *mux.Router) {
	r.Methods(http.MethodPost).Path("/").HeadersRegexp("X-Amz-Target", `^AmazonSQS\.`).Handler(s)
	r.Methods(http.MethodPost, http.MethodGet).Path("/").MatcherFunc(isQueryRequest).Handler(s)
	r.Methods(http.MethodPost, http.MethodGet).Path("/{account:[0-9]{12}}/{queue:[A-Za-z0-9_.-]+}").Handler(s)
}

// isQueryRequest matches a query-protocol request on "/": Action= in the URL
// or in a form body. A form body is read here and put back for the handler.
func isQueryRequest(r *http.Request, _ *mux.RouteMatch) bool {
	if r.Header.Get("X-Amz-Target") != "" {
		return false
	}
	if r.URL.Query().Get("Action") != "" {
		return true
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || ct != "application/x-www-form-urlencoded" || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	form, err := url.ParseQuery(string(body))
	return err == nil && form.Get("Action") != ""
}

// Reset deletes every queue.
func (s *Service) Reset() { s.store.Reset() }

// call is one API request on its way through an operation.
type call struct {
	ctx    context.Context
	caller caller
	// base is the scheme and host queue URLs are built on.
	base string
	// pathQueue is the queue named by a request sent to a queue URL.
	pathAccount, pathQueue string
	decode                 func(v any) error
}

// ServeHTTP implements http.Handler.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	requestID := uuid.NewString()
	target := r.Header.Get("X-Amz-Target")
	jsonProtocol := strings.HasPrefix(target, "AmazonSQS.")
	fail := func(e *apiError) {
		if jsonProtocol {
			writeJSONError(w, requestID, e)
		} else {
			writeQueryError(w, requestID, e)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			fail(errInternal("GridBridge failed to handle the request."))
		}
	}()
	if !signed(r) {
		fail(errMissingAuthentication())
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
	if err != nil {
		fail(errInvalidParameter("The request body could not be read."))
		return
	}
	if len(body) > maxRequestBody {
		fail(errInvalidParameter("The request body is larger than GridBridge accepts (%d bytes).", maxRequestBody))
		return
	}
	vars := mux.Vars(r)
	c := &call{ctx: r.Context(), caller: callerOf(r), base: baseURL(r), pathAccount: vars["account"], pathQueue: vars["queue"]}
	var action string
	if jsonProtocol {
		action = strings.TrimPrefix(target, "AmazonSQS.")
		c.decode = func(v any) error {
			if len(bytes.TrimSpace(body)) == 0 {
				return nil
			}
			if err := json.Unmarshal(body, v); err != nil {
				return newError("SerializationException", "SerializationException", "The request body could not be parsed: %s.", jsonerr.Describe(err, v, nil))
			}
			return nil
		}
	} else {
		form := r.URL.Query()
		if len(body) > 0 {
			bodyForm, err := url.ParseQuery(string(body))
			if err != nil {
				fail(errInvalidParameter("The request body is not a valid form: %v", err))
				return
			}
			for k, v := range bodyForm {
				form[k] = v
			}
		}
		action = form.Get("Action")
		c.decode = func(v any) error { return decodeQuery(form, v) }
	}
	op, ok := operations[action]
	if !ok {
		if jsonProtocol {
			fail(errUnknownOperation(action))
		} else {
			fail(errInvalidAction(action))
		}
		return
	}
	result, err := op(s, c)
	if err != nil {
		e, ok := err.(*apiError)
		if !ok {
			e = errInternal("%v", err)
		}
		fail(e)
		return
	}
	if jsonProtocol {
		writeJSONResult(w, requestID, result)
	} else {
		writeQueryResult(w, action, requestID, result)
	}
}

// operations maps each action to its implementation: first those that
// name no queue, then those on the queue their QueueUrl names.
var operations = map[string]func(*Service, *call) (any, error){
	"CreateQueue": (*Service).createQueue,
	"GetQueueUrl": (*Service).getQueueURL,
	"ListQueues":  (*Service).listQueues,

	"GetQueueAttributes":           onQueue((*Service).getQueueAttributes),
	"SetQueueAttributes":           onQueue((*Service).setQueueAttributes),
	"DeleteQueue":                  onQueue((*Service).deleteQueue),
	"PurgeQueue":                   onQueue((*Service).purgeQueue),
	"SendMessage":                  onQueue((*Service).sendMessage),
	"SendMessageBatch":             onQueue((*Service).sendMessageBatch),
	"ReceiveMessage":               onQueue((*Service).receiveMessage),
	"DeleteMessage":                onQueue((*Service).deleteMessage),
	"DeleteMessageBatch":           onQueue((*Service).deleteMessageBatch),
	"ChangeMessageVisibility":      onQueue((*Service).changeMessageVisibility),
	"ChangeMessageVisibilityBatch": onQueue((*Service).changeMessageVisibilityBatch),
	"TagQueue":                     onQueue((*Service).tagQueue),
	"UntagQueue":                   onQueue((*Service).untagQueue),
	"ListQueueTags":                onQueue((*Service).listQueueTags),
	"ListDeadLetterSourceQueues":   onQueue((*Service).listDeadLetterSourceQueues),
}

// baseURL is the scheme and host the client reached, which queue URLs are
// built on so they lead back to this listener.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// queueURL is <base>/<account>/<name>.
func (c *call) queueURL(q *Queue) string { return c.base + "/" + q.key.account + "/" + q.key.name }

// resolve finds the queue a request names: by its QueueUrl parameter, or by
// the queue URL it was sent to.
func (s *Service) resolve(c *call, queueURL string) (*Queue, error) {
	account, name := c.pathAccount, c.pathQueue
	if queueURL != "" {
		var ok bool
		if account, name, ok = parseQueueURL(queueURL); !ok {
			return nil, errQueueDoesNotExist()
		}
	}
	if name == "" {
		return nil, errMissingParameter("QueueUrl")
	}
	q := s.store.findByName(c.caller.Region, account, name)
	if q == nil {
		return nil, errQueueDoesNotExist()
	}
	return q, nil
}

// parseQueueURL takes the account and queue name from the last two path
// segments of a queue URL; any host is accepted, as clients may reach the
// emulator by any name.
func parseQueueURL(raw string) (account, name string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 {
		return "", "", false
	}
	return parts[len(parts)-2], parts[len(parts)-1], true
}

// caller is who sent a request: the account that owns the queues it touches
// and their region.
type caller struct {
	Account, Region string
}

const (
	defaultAccount = "000000000000"
	defaultRegion  = "us-east-1"
)

// callerOf reads the caller from the SigV4 credential scope, which GridBridge
// never verifies: a twelve-digit access key id is taken as the account (the
// convention local AWS emulators share, and the one the EventBridge face
// uses), the scope's region as the region.
func callerOf(r *http.Request) caller {
	c := caller{Account: defaultAccount, Region: defaultRegion}
	auth := r.Header.Get("Authorization")
	scope := ""
	if i := strings.Index(auth, "Credential="); i >= 0 {
		scope = auth[i+len("Credential="):]
		if j := strings.IndexAny(scope, ", "); j >= 0 {
			scope = scope[:j]
		}
	} else {
		scope = r.URL.Query().Get("X-Amz-Credential")
	}
	parts := strings.Split(scope, "/")
	if len(parts[0]) == 12 && strings.Trim(parts[0], "0123456789") == "" {
		c.Account = parts[0]
	}
	if len(parts) == 5 && parts[2] != "" {
		c.Region = parts[2]
	}
	return c
}
