package pipes

import (
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
)

// The changes of a pipe's counters, one method for each move of messages
// between the places the accounting names (metrics.go).

func (st *stats) polled() {
	st.mu.Lock()
	st.c.Polls++
	st.mu.Unlock()
}

// taken counts messages received into the open batch and returns how many
// of them the pipe had failed before.
func (st *stats) taken(recs []*record) (redelivered int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, r := range recs {
		if _, ok := st.awaiting[r.id]; ok {
			delete(st.awaiting, r.id)
			st.c.Redeliveries++
			redelivered++
		} else {
			st.c.Received++
		}
	}
	st.c.Batching += len(recs)
	return redelivered
}

// returned counts messages of an open batch the pipe let go without
// processing them (it stopped): they come back when their visibility
// timeout ends.
func (st *stats) returned(recs []*record) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.c.Batching -= len(recs)
	for _, r := range recs {
		st.awaiting[r.id] = struct{}{}
	}
}

// processing moves a batch from batching to in flight.
func (st *stats) processing(n int) {
	st.mu.Lock()
	st.c.Batching -= n
	st.c.InFlight += n
	st.mu.Unlock()
}

// outcome ends the in-flight part of a batch: delivered, filtered out, or
// failed and left to come back (awaiting its retry).
type outcome int

const (
	outDelivered outcome = iota
	outFiltered
	outFailed
)

func (st *stats) ended(recs []*record, how outcome) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.c.InFlight -= len(recs)
	switch how {
	case outDelivered:
		st.c.Delivered += uint64(len(recs))
	case outFiltered:
		st.c.Filtered += uint64(len(recs))
	case outFailed:
		for _, r := range recs {
			st.awaiting[r.id] = struct{}{}
		}
	}
}

// count adds to one of the CloudWatch counters.
func (st *stats) count(c *uint64) {
	st.mu.Lock()
	*c++
	st.mu.Unlock()
}

// deadLettered counts the moved messages the pipe had failed, and
// returns which they were.
func (st *stats) deadLettered(moved []sqssource.Redriven) map[string]bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	mine := map[string]bool{}
	for _, mv := range moved {
		if _, ok := st.awaiting[mv.ID]; ok {
			delete(st.awaiting, mv.ID)
			st.c.DeadLettered++
			mine[mv.ID] = true
		}
	}
	return mine
}

// awaitingIDs lists the messages awaiting their retry, sorted.
func (st *stats) awaitingIDs() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	ids := make([]string, 0, len(st.awaiting))
	for id := range st.awaiting {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// dropped counts as dropped those of ids still awaiting, and returns them.
func (st *stats) dropped(ids []string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := ids[:0]
	for _, id := range ids {
		if _, ok := st.awaiting[id]; ok {
			delete(st.awaiting, id)
			st.c.Dropped++
			out = append(out, id)
		}
	}
	return out
}

// splitArn splits an ARN into its six parts, nil when it is not one.
func splitArn(a string) []string {
	parts := strings.SplitN(a, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" {
		return nil
	}
	return parts
}
