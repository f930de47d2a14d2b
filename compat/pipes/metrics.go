package pipes

import "sort"

// counters are what a pipe did, in the accounting every source message
// takes part in once the pipe has received it (D-DROP):
//
//	Received = Delivered + Filtered + DeadLettered + Dropped
//	           + Batching + InFlight + AwaitingRetry
//
// A message received again after a failure is counted once, in
// Redeliveries beside it.
type counters struct {
	Received     uint64 `json:"received"`
	Delivered    uint64 `json:"delivered"`
	Filtered     uint64 `json:"filtered"`
	DeadLettered uint64 `json:"deadLettered"`
	Dropped      uint64 `json:"dropped"`
	// Batching messages are taken and wait for the batching window.
	Batching int `json:"batching"`
	// InFlight messages are in the batch being processed.
	InFlight int `json:"inFlight"`
	// AwaitingRetry messages failed and wait in the source queue for
	// their visibility timeout to end.
	AwaitingRetry int    `json:"awaitingRetry"`
	Redeliveries  uint64 `json:"redeliveries"`
	Polls         uint64 `json:"polls"`
	// The CloudWatch metrics of a pipe, by their AWS names: batches
	// invoked, failed, partly failed, failed in a stage, and skipped
	// because the enrichment answered with nothing.
	Invocations              uint64 `json:"invocations"`
	ExecutionFailed          uint64 `json:"executionFailed"`
	ExecutionPartiallyFailed uint64 `json:"executionPartiallyFailed"`
	EnrichmentStageFailed    uint64 `json:"enrichmentStageFailed"`
	TargetStageFailed        uint64 `json:"targetStageFailed"`
	TargetStageSkipped       uint64 `json:"targetStageSkipped"`
}

// Metrics are one pipe's counters, as GET /_emulator/metrics lists them
// under "pipes".
type Metrics struct {
	Route  string            `json:"route"`
	Labels map[string]string `json:"labels"`
	// State is the pipe's CurrentState.
	State string `json:"state"`
	counters
}

// Metrics lists every pipe's counters, by route.
func (s *Service) Metrics() []Metrics {
	s.mu.Lock()
	var out []Metrics
	for _, t := range s.tenants {
		for _, p := range t {
			p.stats.mu.Lock()
			c := p.stats.c
			c.AwaitingRetry = len(p.stats.awaiting)
			p.stats.mu.Unlock()
			out = append(out, Metrics{Route: p.routeID, Labels: p.labels(""), State: p.current, counters: c})
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out
}
