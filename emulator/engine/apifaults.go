package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// KindAPIFault journals an API call answered with an injected error:
// Labels "service" and "operation" name the call, Outcome the error code.
const KindAPIFault = "apifault"

// APIFault makes calls to a cloud API answer an error instead of being
// served, so a test can drive its own retry code (an SDK's retryer, a
// publisher's back-off) against PutEvents answering ThrottlingException or
// ARM answering 429.
type APIFault struct {
	ID string `json:"id"`
	// Service is the API: "events", "sqs", "scheduler", "pipes" (the
	// name AWS signs requests for), "arm" (Azure Resource Manager) or
	// "eventgrid" (the publish endpoints of topics and domains).
	Service string `json:"service"`
	// Operation is the call: an AWS operation ("PutEvents",
	// "ReceiveMessage"), or an ARM method and resource type ("PUT
	// topics", "POST listKeys"), or "publish" for Event Grid, in any
	// letter case. Empty: every call to Service.
	Operation string `json:"operation,omitempty"`
	// Error is the error code answered ("ThrottlingException",
	// "TooManyRequests"), Status its HTTP status and Message its text;
	// what is left out the API's frame derives (AWSStatus, ARMCode).
	Error   string `json:"error,omitempty"`
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	// Count is how many calls fail before the fault is gone; 0: until
	// removed. Used counts the calls it failed so far.
	Count int `json:"count,omitempty"`
	Used  int `json:"used"`
}

// APIFaults is the set of API faults in force; every call they fail is
// journalled.
type APIFaults struct {
	journal *Journal
	clock   Clock

	// active counts the rules, so a call with none in force (nearly
	// every call) is served without taking the lock.
	active atomic.Int32

	mu    sync.Mutex
	seq   int
	rules []*APIFault
}

// NewAPIFaults returns an empty set that journals into journal at clock's time.
func NewAPIFaults(clock Clock, journal *Journal) *APIFaults {
	return &APIFaults{clock: clock, journal: journal}
}

// Add installs a fault and returns it with its id set.
func (f *APIFaults) Add(rule APIFault) APIFault {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	rule.ID = fmt.Sprintf("apifault-%d", f.seq)
	rule.Used = 0
	f.rules = append(f.rules, &rule)
	f.active.Store(int32(len(f.rules)))
	return rule
}

// List returns the faults in force.
func (f *APIFaults) List() []APIFault {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]APIFault, len(f.rules))
	for i, r := range f.rules {
		out[i] = *r
	}
	return out
}

// Remove deletes a fault by id and reports whether it existed.
func (f *APIFaults) Remove(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.ID == id {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			f.active.Store(int32(len(f.rules)))
			return true
		}
	}
	return false
}

// Clear deletes every fault.
func (f *APIFaults) Clear() {
	f.mu.Lock()
	f.rules = nil
	f.active.Store(0)
	f.mu.Unlock()
}

// None reports whether no fault is in force: what a request frame asks
// before it works out a request's service and operation.
func (f *APIFaults) None() bool { return f == nil || f.active.Load() == 0 }

// Take consumes the first fault matching a call of operation on service,
// journals the failed call and returns the fault (as it was when it
// matched); ok is false when none matches and the call is served.
func (f *APIFaults) Take(service, operation string) (APIFault, bool) {
	if f == nil {
		return APIFault{}, false
	}
	f.mu.Lock()
	var hit APIFault
	found := false
	for i, r := range f.rules {
		if !strings.EqualFold(r.Service, service) || (r.Operation != "" && !strings.EqualFold(r.Operation, operation)) {
			continue
		}
		r.Used++
		hit, found = *r, true
		if r.Count > 0 && r.Used >= r.Count {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			f.active.Store(int32(len(f.rules)))
		}
		break
	}
	f.mu.Unlock()
	return hit, found
}

// Journal records a call hit answered with status, code and message.
func (f *APIFaults) Journal(hit APIFault, operation string, status int, code, message string) {
	f.journal.Append(Entry{
		Time: f.clock.Now(), Kind: KindAPIFault,
		Labels:  map[string]string{"service": hit.Service, "operation": operation, "fault": hit.ID},
		Outcome: code, Status: status, Message: message,
	})
}

type apiFaultsKey struct{}

// WithAPIFaults returns ctx carrying faults: the emulator puts its set on
// every request, so the one request frame of each protocol (the AWS frame,
// the ARM table) finds it without each face being handed it.
func WithAPIFaults(ctx context.Context, faults *APIFaults) context.Context {
	return context.WithValue(ctx, apiFaultsKey{}, faults)
}

// APIFaultsFrom returns the faults ctx carries, or nil.
func APIFaultsFrom(ctx context.Context) *APIFaults {
	f, _ := ctx.Value(apiFaultsKey{}).(*APIFaults)
	return f
}

// AWSStatus is the HTTP status an AWS API answers code with when a fault
// names none: 500 for an internal failure, 503 for an unavailable
// service, 400 (AWS's status for throttling and client errors) otherwise.
func AWSStatus(code string) int {
	switch {
	case strings.Contains(code, "Internal"):
		return 500
	case strings.Contains(code, "Unavailable"):
		return 503
	}
	return 400
}

// ARMCode is the error code ARM answers status with when a fault names
// none.
func ARMCode(status int) string {
	switch status {
	case 400:
		return "InvalidRequest"
	case 404:
		return "ResourceNotFound"
	case 409:
		return "Conflict"
	case 429:
		return "TooManyRequests"
	case 500:
		return "InternalServerError"
	case 503:
		return "ServiceUnavailable"
	}
	return "InjectedFault"
}
