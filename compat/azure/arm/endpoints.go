package arm

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Endpoint is one row of a face's table: a method, a path template and the
// handler that answers it. Path segments are literals, matched in any
// letter case as ARM matches "resourceGroups" or
// "providers/Microsoft.EventGrid", or {name} variables, which match one
// non-empty segment and reach the handler unescaped through Request.Var.
// An action is a literal last segment (…/topics/{topic}/listKeys).
type Endpoint struct {
	Method string
	Path   string
	Handle Handler
}

// Handler answers one ARM request with a Response or an Error; the table
// writes either.
type Handler func(*Request) (Response, *Error)

// Request is an ARM request and the variables its path template bound.
type Request struct {
	*http.Request
	vars map[string]string
}

// Var is the path segment bound to {name}, unescaped.
func (r *Request) Var(name string) string { return r.vars[name] }

// ReadBody reads the request body, which must be present (the package's
// ReadBody).
func (r *Request) ReadBody() ([]byte, *Error) { return ReadBody(r.Request) }

// Response is what a handler answers: Status, with Body as JSON, or no body
// when Body is nil.
type Response struct {
	Status int
	Body   any
}

// OK is a 200 with body.
func OK(body any) Response { return Response{Status: http.StatusOK, Body: body} }

// Created is a 201 with body: ARM's answer to a PUT that finished in its
// request.
func Created(body any) Response { return Response{Status: http.StatusCreated, Body: body} }

// NoContent is a 204, ARM's answer to a DELETE of what does not exist.
func NoContent() Response { return Response{Status: http.StatusNoContent} }

// Options are the checks a table makes before any handler runs.
type Options struct {
	// RequireAPIVersion refuses a request without ?api-version= with 400
	// MissingApiVersionParameter, as ARM does.
	RequireAPIVersion bool
	// CheckBody, when set, sees a PUT's or PATCH's body and the row's path
	// template before the row's handler (which reads the body again): its
	// error is the answer, as a resource provider checks a body against
	// its specification before it acts.
	CheckBody func(method, template string, body []byte) *Error
}

// Table routes ARM requests by path template and method. Mount it on a
// router: it claims only the paths of its templates, so other faces keep
// theirs. A claimed path with a method no row has answers 405 with Allow.
type Table struct {
	opts Options
	// roots are the first segments of the templates ("subscriptions",
	// "tenants", "providers"): a path starting otherwise is refused before
	// any work.
	roots     []string
	endpoints []compiled
}

type compiled struct {
	Endpoint
	segments []segment
}

// segment is a template segment: a literal, or a variable when name is set.
type segment struct {
	literal, name string
}

// NewTable compiles endpoints. A malformed template (an empty segment, or a
// variable first: ARM paths start with a literal) or a repeated method and
// path is a programming error, so it panics.
func NewTable(opts Options, endpoints ...Endpoint) *Table {
	t := &Table{opts: opts}
	seen := make(map[string]bool)
	for _, e := range endpoints {
		key := e.Method + " " + strings.ToLower(e.Path)
		if e.Handle == nil || e.Method == "" || seen[key] {
			panic("arm: endpoint " + key + " has no handler or is listed twice")
		}
		seen[key] = true
		c := compiled{Endpoint: e}
		for _, s := range strings.Split(strings.Trim(e.Path, "/"), "/") {
			if s == "" {
				panic("arm: empty segment in " + e.Path)
			}
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				c.segments = append(c.segments, segment{name: s[1 : len(s)-1]})
			} else {
				c.segments = append(c.segments, segment{literal: s})
			}
		}
		if c.segments[0].name != "" {
			panic("arm: " + e.Path + " starts with a variable")
		}
		if !slices.ContainsFunc(t.roots, func(r string) bool { return strings.EqualFold(r, c.segments[0].literal) }) {
			t.roots = append(t.roots, c.segments[0].literal)
		}
		t.endpoints = append(t.endpoints, c)
	}
	return t
}

// Mount claims the table's paths on r, on Azure Resource Manager's token
// plane: whatever spelling of a path the table takes, its tokens are
// checked as ARM's.
func (t *Table) Mount(r *mux.Router) {
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool { return t.Matches(req) }).Handler(entra.OnPlane(entra.ARMPlane(), t))
}

// Matches reports whether r's path is one of the table's, whatever the
// method.
func (t *Table) Matches(r *http.Request) bool {
	segs, ok := pathSegments(r.URL.EscapedPath(), t.roots)
	if !ok {
		return false
	}
	for i := range t.endpoints {
		if t.endpoints[i].matches(segs) {
			return true
		}
	}
	return false
}

// ServeHTTP checks the api-version and the method, runs the row's handler
// and writes what it returns.
func (t *Table) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e, vars, allowed := t.find(r)
	switch {
	case e == nil && len(allowed) == 0:
		WriteError(w, &Error{Status: http.StatusNotFound, Code: "NotFound",
			Message: "GridBridge serves no Event Grid resource at " + r.URL.Path + "."})
		return
	case t.opts.RequireAPIVersion && r.URL.Query().Get("api-version") == "":
		WriteError(w, &Error{Status: http.StatusBadRequest, Code: CodeMissingAPIVersion,
			Message: "The api-version query parameter (?api-version=) is required for all requests."})
		return
	case e == nil:
		list := strings.Join(allowed, ", ")
		w.Header().Set("Allow", list)
		WriteError(w, &Error{Status: http.StatusMethodNotAllowed, Code: CodeMethodNotAllowed,
			Message: "The HTTP method '" + r.Method + "' is not supported on this resource; allowed: " + list + "."})
		return
	}
	if err := e.injected(r); err != nil {
		WriteError(w, err)
		return
	}
	if t.opts.CheckBody != nil && (r.Method == http.MethodPut || r.Method == http.MethodPatch) && r.Body != nil {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err == nil && len(body) <= MaxBody {
			if aerr := t.opts.CheckBody(r.Method, e.Path, body); aerr != nil {
				WriteError(w, aerr)
				return
			}
		}
	}
	resp, err := e.Handle(&Request{Request: r, vars: vars})
	if err != nil {
		WriteError(w, err)
		return
	}
	Write(w, resp)
}

// injected is the error an API fault in force makes r answer, or nil. ARM
// faults name service "arm" and an operation of the row's method and
// resource type: its template's last literal ("PUT topics", "GET
// eventSubscriptions", "POST listKeys").
func (e *compiled) injected(r *http.Request) *Error {
	faults := engine.APIFaultsFrom(r.Context())
	if faults.None() {
		return nil
	}
	op := e.operation()
	hit, ok := faults.Take("arm", op)
	if !ok {
		return nil
	}
	status := hit.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	code := hit.Error
	if code == "" {
		code = engine.ARMCode(status)
	}
	msg := hit.Message
	if msg == "" {
		msg = "Failure injected by a GridBridge API fault (" + hit.ID + ")."
	}
	faults.Journal(hit, op, status, code, msg)
	return &Error{Status: status, Code: code, Message: msg}
}

// operation is the row's method and resource type, as API faults name it.
func (e *compiled) operation() string {
	for i := len(e.segments) - 1; i >= 0; i-- {
		if lit := e.segments[i].literal; lit != "" {
			return e.Method + " " + lit
		}
	}
	return e.Method
}

// find returns the row for r's path and method with its variables, or the
// methods the path allows when no row has r's method.
func (t *Table) find(r *http.Request) (*compiled, map[string]string, []string) {
	segs, ok := pathSegments(r.URL.EscapedPath(), t.roots)
	if !ok {
		return nil, nil, nil
	}
	var allowed []string
	for i := range t.endpoints {
		e := &t.endpoints[i]
		switch {
		case !e.matches(segs):
		case e.Method == r.Method:
			return e, e.bind(segs), nil
		default:
			allowed = append(allowed, e.Method)
		}
	}
	return nil, nil, allowed
}

// matches reports whether segs fit the template.
func (e *compiled) matches(segs []string) bool {
	if len(segs) != len(e.segments) {
		return false
	}
	for i, s := range e.segments {
		if s.name == "" && !strings.EqualFold(s.literal, segs[i]) {
			return false
		}
	}
	return true
}

// bind returns the variables of segs, which match the template.
func (e *compiled) bind(segs []string) map[string]string {
	vars := make(map[string]string, 4)
	for i, s := range e.segments {
		if s.name != "" {
			vars[s.name] = segs[i]
		}
	}
	return vars
}

// pathSegments splits an escaped path, drops empty segments (ARM collapses
// "//") and unescapes each one. A path whose first segment is none of roots
// (in any letter case) is refused before any other work.
func pathSegments(escapedPath string, roots []string) ([]string, bool) {
	p := strings.TrimLeft(escapedPath, "/")
	first, _, _ := strings.Cut(p, "/")
	if !slices.ContainsFunc(roots, func(r string) bool { return strings.EqualFold(r, first) }) {
		return nil, false
	}
	parts := strings.Split(p, "/")
	out := parts[:0] // filtered in place: one allocation per path
	for _, s := range parts {
		if s == "" {
			continue
		}
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return nil, false
		}
		out = append(out, u)
	}
	return out, true
}

// Resource is what one ARM resource answers: its methods (a nil handler
// leaves the method out) and its POST actions (…/{name}/listKeys).
type Resource struct {
	Get, Put, Patch, Delete Handler
	Actions                 []Action
}

// Action is a POST action of a resource, named by the last path segment.
type Action struct {
	Name   string
	Handle Handler
}

// At is the table rows of the resource at path: GET, PUT, PATCH and DELETE
// in that order (the order a 405's Allow lists them in), then the actions.
func (res Resource) At(path string) []Endpoint {
	var rows []Endpoint
	for _, m := range []struct {
		method string
		handle Handler
	}{{http.MethodGet, res.Get}, {http.MethodPut, res.Put}, {http.MethodPatch, res.Patch}, {http.MethodDelete, res.Delete}} {
		if m.handle != nil {
			rows = append(rows, Endpoint{Method: m.method, Path: path, Handle: m.handle})
		}
	}
	for _, a := range res.Actions {
		rows = append(rows, Endpoint{Method: http.MethodPost, Path: path + "/" + a.Name, Handle: a.Handle})
	}
	return rows
}

// List is the table row of a collection GET.
func List(path string, handle Handler) Endpoint {
	return Endpoint{Method: http.MethodGet, Path: path, Handle: handle}
}
