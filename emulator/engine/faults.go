package engine

import (
	"fmt"
	"slices"
	"sync"
)

// Fault makes attempts on matching routes fail without reaching their
// destination, so a test can drive retries and dead letters for
// destinations the emulator only captures (Service Bus, Lambda, …).
type Fault struct {
	ID string `json:"id"`
	// Labels select routes: every label must match (e.g. {"subscription": "s1"}).
	// Route selects one route by id. Both empty: every route.
	Labels map[string]string `json:"match,omitempty"`
	Route  string            `json:"route,omitempty"`
	// Events, when set, narrow the rule to attempts carrying one of these
	// event ids. A destination that reports a partial batch failure (an
	// EventBridge pipe's Lambda or Step Functions stand-in, answering
	// batchItemFailures) fails only these events and takes the rest; every
	// other destination fails the whole attempt.
	Events []string `json:"events,omitempty"`
	// Status is the HTTP status the attempt reports; Outcome the cloud's name
	// for it (e.g. "Busy", "THROTTLING"); Message its text.
	Status  int    `json:"status,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Message string `json:"message,omitempty"`
	// Count is how many attempts fail before the rule expires; 0 = forever.
	Count int `json:"count,omitempty"`
	// Used counts the attempts the rule has failed so far.
	Used int `json:"used"`
}

// Faults is the set of active fault rules.
type Faults struct {
	mu    sync.Mutex
	seq   int
	rules []*Fault
}

// NewFaults returns an empty rule set.
func NewFaults() *Faults { return &Faults{} }

// Add installs a rule and returns it with its id set.
func (f *Faults) Add(rule Fault) Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	rule.ID = fmt.Sprintf("fault-%d", f.seq)
	rule.Used = 0
	f.rules = append(f.rules, &rule)
	return rule
}

// List returns the active rules.
func (f *Faults) List() []Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Fault, len(f.rules))
	for i, r := range f.rules {
		out[i] = *r
	}
	return out
}

// Remove deletes a rule by id and reports whether it existed.
func (f *Faults) Remove(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.ID == id {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			return true
		}
	}
	return false
}

// Clear deletes every rule.
func (f *Faults) Clear() {
	f.mu.Lock()
	f.rules = nil
	f.mu.Unlock()
}

// outcomeFor consumes the first rule matching an attempt of b on route, if
// any. A rule naming events reports those of b as its FailedItems.
func (f *Faults) outcomeFor(route *Route, b *Batch) (Outcome, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if !r.matches(route) {
			continue
		}
		var failed []string
		if len(r.Events) > 0 {
			for _, it := range b.Items {
				if slices.Contains(r.Events, it.ID) {
					failed = append(failed, it.ID)
				}
			}
			if len(failed) == 0 {
				continue
			}
		}
		r.Used++
		o := Outcome{Status: r.Status, Name: r.Outcome, Message: r.Message, Injected: true, FailedItems: failed}
		if o.Name == "" && route.NameFault != nil {
			o.Name = route.NameFault(r.Status)
		}
		if o.Message == "" {
			o.Message = "failure injected by a fault rule"
		}
		if r.Count > 0 && r.Used >= r.Count {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
		}
		return o, true
	}
	return Outcome{}, false
}

func (r *Fault) matches(route *Route) bool {
	if r.Route != "" && r.Route != route.ID {
		return false
	}
	for k, v := range r.Labels {
		if route.Labels[k] != v {
			return false
		}
	}
	return true
}
