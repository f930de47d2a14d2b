package sqs

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/aws/sqssink"
	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Config is what the emulator hands the SQS face.
type Config struct {
	// Clock is the emulator clock the queues keep time on.
	Clock engine.Clock
	// Endpoint is --sqs-endpoint: when set, the AWS faces' SQS targets and
	// dead-letter queues write to that SQS server through the SQS SDK, and
	// GridBridge serves no SQS of its own. Empty: GridBridge's own queues
	// take the writes and the SQS API serves them (D-SINKS).
	Endpoint string
	// Log receives the panics the request frame catches; nil: discarded.
	Log *slog.Logger
}

// Service is the SQS the AWS faces write to: GridBridge's own queues and
// the SQS API over them, or a real SQS server at Config.Endpoint.
type Service struct {
	store    *Store         // nil with an endpoint
	queues   sqssend.Queues // what targets and dead-letter queues write to
	endpoint string
	// handler is the API behind the AWS request frame.
	handler http.Handler
	// answers holds *[]byte buffers for JSON answers to reuse.
	answers sync.Pool
	// model checks each JSON-protocol request against the SQS model's
	// constraints before its operation sees it.
	model *awsmodel.Checker
}

// New returns the SQS face: its own empty store, or the endpoint's queues.
func New(cfg Config) *Service {
	if cfg.Endpoint != "" {
		return &Service{queues: sqssink.New(cfg.Endpoint).Batching(), endpoint: cfg.Endpoint}
	}
	s := &Service{store: NewStore(cfg.Clock), model: awsmodel.NewChecker(awsmodel.SQS(), awsmodel.Wording{})}
	s.queues, s.handler = s.store, newFrame(cfg.Log).Handler(s.serve)
	return s
}

// Store returns GridBridge's own queues, nil with an endpoint.
func (s *Service) Store() *Store { return s.store }

// Queues returns where the AWS faces' SQS targets and dead-letter queues
// write: the store, or the endpoint's SQS server.
func (s *Service) Queues() sqssend.Queues { return s.queues }

// Sources returns the queues a pipe reads its SQS source from: the
// store's; nil with an endpoint, whose queues GridBridge does not watch.
func (s *Service) Sources() sqssource.Queues {
	if s.store == nil {
		return nil
	}
	return s.store.Source()
}

// maxRequestBody bounds a request. The largest, a message or a batch, may
// carry 1 MiB of bodies, attribute names, types and values (SQS's limit). On
// the wire a byte can take more: JSON encoders that escape non-ASCII or HTML
// characters write up to six characters per byte ("<" as \u003c), and the
// query protocol up to four (a binary value's base64, percent-encoded). The
// entries' framing comes on top: 7 MiB leaves room for all of it.
const maxRequestBody = 7 << 20

// Register mounts the API on r: POST / with X-Amz-Target: AmazonSQS.* (JSON
// protocol) or with a form body or query string naming an Action (query
// protocol), and queue URLs /<account>/<queue> in either protocol. With an
// endpoint it mounts nothing: clients use that server.
func (s *Service) Register(r *mux.Router) {
	if s.store == nil {
		return
	}
	r.Methods(http.MethodPost).Path("/").HeadersRegexp("X-Amz-Target", `^AmazonSQS\.`).Handler(s)
	r.Methods(http.MethodPost, http.MethodGet).Path("/").MatcherFunc(isQueryRequest).Handler(s)
	r.Methods(http.MethodPost, http.MethodGet).Path("/{account:[0-9]{12}}/{queue:[A-Za-z0-9_.-]+}").Handler(s)
}

// JSONTarget is the X-Amz-Target prefix of the JSON protocol and its
// handler, the requests Register's first route takes; none with an
// endpoint.
func (s *Service) JSONTarget() (string, http.Handler) {
	if s.store == nil {
		return "", nil
	}
	return "AmazonSQS.", s
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

// Reset deletes every queue of the store; a real server's queues are its own.
func (s *Service) Reset() {
	if s.store != nil {
		s.store.Reset()
	}
}

// call is one API request on its way through an operation.
type call struct {
	ctx    context.Context
	caller awsjson.Caller
	// base is the scheme and host queue URLs are built on.
	base string
	// pathQueue is the queue named by a request sent to a queue URL.
	pathAccount, pathQueue string
	decode                 func(v any) error
}

// ServeHTTP implements http.Handler: every request goes through the AWS
// request frame.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// isJSONProtocol reports whether r speaks the JSON protocol; the rest speak
// the query protocol.
func isJSONProtocol(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("X-Amz-Target"), "AmazonSQS.")
}

// newFrame is SQS's request frame: its refusals in SQS's codes, answered in
// the protocol the request speaks.
func newFrame(log *slog.Logger) *frame.API {
	invalid := func(msg string) error { return errInvalidParameter("%s", msg) }
	return &frame.API{
		Name: "SQS", MaxBody: maxRequestBody, Log: log, Unreadable: invalid, TooLarge: invalid,
		Admit: func(r *http.Request) error {
			if !signed(r) {
				return errMissingAuthentication()
			}
			return nil
		},
		Internal: func(msg string) error { return errInternal("%s", msg) },
		// An API fault's code is answered as given in both protocols.
		Injected: func(code string, status int, msg string) error {
			return &apiError{Code: code, QueryCode: code, Message: msg, Status: status, Sender: status < 500}
		},
		WriteError: func(w http.ResponseWriter, req frame.Request, err error) {
			e, ok := err.(*apiError)
			if !ok {
				e = errInternal("%v", err)
			}
			if isJSONProtocol(req.HTTP) {
				writeJSONError(w, req.ID, e)
			} else {
				writeQueryError(w, req.ID, e)
			}
		},
	}
}

// serve runs the action the request names (the frame has checked that it
// is signed).
func (s *Service) serve(w http.ResponseWriter, req frame.Request) error {
	r, body := req.HTTP, req.Body
	jsonProtocol := isJSONProtocol(r)
	vars := mux.Vars(r)
	c := &call{ctx: r.Context(), caller: awsjson.CallerOf(r), base: baseURL(r), pathAccount: vars["account"], pathQueue: vars["queue"]}
	var action string
	if jsonProtocol {
		action = strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "AmazonSQS.")
		c.decode = func(v any) error {
			if len(bytes.TrimSpace(body)) == 0 || decodeFast(body, v) {
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
				return errInvalidParameter("The request body is not a valid form: %v", err)
			}
			for k, v := range bodyForm {
				form[k] = v
			}
		}
		action = form.Get("Action")
		c.decode = func(v any) error { return decodeQuery(form, v) }
	}
	if jsonProtocol {
		if vs := s.model.Check(action, awsmodel.Input{Body: body}); len(vs) > 0 {
			return modelError(s.model.Service(), action, vs[0])
		}
	}
	op, ok := operations[action]
	if !ok {
		if jsonProtocol {
			return errUnknownOperation(action)
		}
		return errInvalidAction(action)
	}
	result, err := op(s, c)
	if err != nil {
		return err
	}
	if jsonProtocol {
		buf := s.answerBuffer()
		*buf = writeJSONResult(w, req.ID, result, *buf)
		s.putAnswerBuffer(buf)
	} else {
		writeQueryResult(w, action, req.ID, result)
	}
	return nil
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
	"AddPermission":                onQueue((*Service).addPermission),
	"RemovePermission":             onQueue((*Service).removePermission),
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

// resolve finds the queue a request names: by its QueueUrl parameter (a
// queue URL, or the bare name of one of the caller's queues), or by the queue
// URL it was sent to.
func (s *Service) resolve(c *call, queueURL string) (*Queue, error) {
	account, name := c.pathAccount, c.pathQueue
	switch {
	case queueURL == "":
	case !strings.Contains(queueURL, "/"):
		// SQS takes a queue's bare name for its URL: the caller's queue.
		account, name = c.caller.Account, queueURL
	default:
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
