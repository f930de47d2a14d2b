package sqs

// ledger is a queue's counters of messages that arrived and left.
type ledger struct {
	arrived      uint64 // sent by the API, a target or a dead-letter queue's writer, or redriven in
	deleted      uint64 // DeleteMessage(Batch), or a pipe's delete
	deadLettered uint64 // moved to the redrive policy's dead-letter queue
	expired      uint64 // past MessageRetentionPeriod, removed when a receive met them
	purged       uint64 // PurgeQueue, or read by testkit (which empties the queue)
}

// QueueMetrics are one queue's books, as GET /_emulator/metrics lists them
// under "sqs". At every instant
//
//	sent = deleted + deadLettered + expired + purged + visible + inFlight + delayed
//
// where expired also counts the messages past their retention period that
// the queue still holds until a receive meets them.
type QueueMetrics struct {
	ARN          string `json:"arn"`
	Sent         uint64 `json:"sent"`
	Deleted      uint64 `json:"deleted"`
	DeadLettered uint64 `json:"deadLettered"`
	Expired      uint64 `json:"expired"`
	Purged       uint64 `json:"purged"`
	// What the queue holds now: visible (a receive would take them), in
	// flight (received, their visibility timeout running) and delayed
	// (DelaySeconds running).
	Visible  int `json:"visible"`
	InFlight int `json:"inFlight"`
	Delayed  int `json:"delayed"`
}

// Metrics returns every queue's books, sorted by ARN; nil for a store-less
// face (--sqs-endpoint).
func (s *Store) Metrics() []QueueMetrics {
	if s == nil {
		return nil
	}
	qs := s.all()
	out := make([]QueueMetrics, 0, len(qs))
	for _, q := range qs {
		q.mu.Lock()
		h := q.holdingLocked(q.store.clock.Now())
		c := q.counts
		q.mu.Unlock()
		out = append(out, QueueMetrics{
			ARN: q.arn, Sent: c.arrived, Deleted: c.deleted, DeadLettered: c.deadLettered,
			Expired: c.expired + uint64(h.pastRetention), Purged: c.purged,
			Visible: h.visible, InFlight: h.inflight, Delayed: h.delayed,
		})
	}
	return out
}
