package testkit

import (
	"context"
	"net/http"
	"net/url"
)

// APIFault makes calls to a cloud API answer an error, in that cloud's own
// wire shape, instead of being served (POST /_emulator/api-faults): how a
// test drives its own retry code, or an SDK's retryer.
//
//	{"service":"events","operation":"PutEvents","error":"ThrottlingException","count":2}
//	{"service":"sqs","operation":"ReceiveMessage","error":"InternalError","count":1}
//	{"service":"arm","operation":"PUT topics","status":429}
//	{"service":"eventgrid","operation":"publish","status":503,"count":1}
//
// Every call a fault fails is journalled (kind "apifault", labels service,
// operation and fault).
type APIFault struct {
	// ID is set by the emulator; pass it to RemoveAPIFault.
	ID string `json:"id,omitempty"`
	// Service is "events" (EventBridge), "sqs", "scheduler", "pipes" — the
	// name AWS signs the API's requests for — "arm" (Azure Resource
	// Manager: Event Grid's topics, subscriptions, domains, namespaces) or
	// "eventgrid" (publishing to a topic or a domain).
	Service string `json:"service"`
	// Operation is an AWS operation ("PutEvents", "SendMessage"), or for
	// ARM a method and resource type ("PUT topics", "GET
	// eventSubscriptions", "POST listKeys"), for Event Grid "publish", in
	// any letter case; empty:
	// every call to Service.
	Operation string `json:"operation,omitempty"`
	// Error is the error code. AWS faults need one; their Status defaults
	// to 400 (AWS's for throttling and client errors), 500 for a code
	// naming an internal failure, 503 for an unavailable service. Azure
	// faults (arm, eventgrid) need a Status; their Error defaults to
	// Azure's code for it ("TooManyRequests" for 429,
	// "InternalServerError" for 500).
	Error   string `json:"error,omitempty"`
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	// Count is how many calls fail before the fault is gone; 0: until
	// removed. Used counts the calls it failed so far.
	Count int `json:"count,omitempty"`
	Used  int `json:"used,omitempty"`
}

// InjectAPIError installs an API fault and returns it with its id:
//
//	emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 2})
//	// the next two PutEvents calls answer ThrottlingException (HTTP 400)
func (e *Emulator) InjectAPIError(f APIFault) APIFault {
	e.t.Helper()
	out, err := e.inspect.AddAPIFault(context.Background(), f)
	if err != nil {
		e.fatalf("injecting API fault: %v", err)
	}
	return out
}

// APIFaults lists the API faults in force, with the calls each failed.
func (e *Emulator) APIFaults() []APIFault {
	e.t.Helper()
	out, err := e.inspect.APIFaults(context.Background())
	if err != nil {
		e.fatalf("listing API faults: %v", err)
	}
	return out
}

// RemoveAPIFault deletes one API fault by the id InjectAPIError returned.
func (e *Emulator) RemoveAPIFault(id string) {
	e.t.Helper()
	if err := e.inspect.RemoveAPIFault(context.Background(), id); err != nil {
		e.fatalf("removing API fault %s: %v", id, err)
	}
}

// ClearAPIFaults removes every API fault.
func (e *Emulator) ClearAPIFaults() {
	e.t.Helper()
	if err := e.inspect.ClearAPIFaults(context.Background()); err != nil {
		e.fatalf("clearing API faults: %v", err)
	}
}

// AddAPIFault installs an API fault (POST /_emulator/api-faults).
func (in *Inspector) AddAPIFault(ctx context.Context, f APIFault) (APIFault, error) {
	return call[APIFault](ctx, in, http.MethodPost, "/api-faults", f)
}

// APIFaults lists the API faults in force (GET /_emulator/api-faults).
func (in *Inspector) APIFaults(ctx context.Context) ([]APIFault, error) {
	out, err := call[struct {
		Faults []APIFault `json:"faults"`
	}](ctx, in, http.MethodGet, "/api-faults", nil)
	return out.Faults, err
}

// RemoveAPIFault deletes one API fault (DELETE /_emulator/api-faults/{id}).
func (in *Inspector) RemoveAPIFault(ctx context.Context, id string) error {
	return in.do(ctx, http.MethodDelete, "/api-faults/"+url.PathEscape(id), nil, nil)
}

// ClearAPIFaults removes every API fault (DELETE /_emulator/api-faults).
func (in *Inspector) ClearAPIFaults(ctx context.Context) error {
	return in.do(ctx, http.MethodDelete, "/api-faults", nil, nil)
}
