package eventbridge

import (
	"context"
	"sort"
	"sync"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// MemoryQueues is an in-memory SQS that SQS targets and DLQs write to and
// tests and the inspection API read: a MemorySQS, or the emulator's SQS
// store (compat/sqs), which also answers the SQS API.
type MemoryQueues interface {
	engine.Sink
	// Messages returns a queue's messages, oldest first, leaving them there.
	Messages(queueArn string) []engine.DeadLetter
	// Receive removes and returns every message of a queue.
	Receive(queueArn string) []engine.DeadLetter
	// Queues lists the queue ARNs, sorted.
	Queues() []string
	// WaitFor blocks until a queue holds at least n messages or ctx ends.
	WaitFor(ctx context.Context, queueArn string, n int) ([]engine.DeadLetter, error)
	// Reset empties every queue.
	Reset()
}

var _ MemoryQueues = (*MemorySQS)(nil)

// MemorySQS is a minimal in-memory stand-in for SQS: SQS targets and
// dead-letter queues write here when no SQS server is configured (D-SINKS).
// Any queue ARN is accepted; each message is kept with its attributes, FIFO
// group and deduplication id, for the inspection API and tests to read.
type MemorySQS struct {
	mu     sync.Mutex
	queues map[string][]engine.DeadLetter
	// changed is closed and replaced on every write, for WaitFor.
	changed chan struct{}
}

var _ engine.Sink = (*MemorySQS)(nil)

// NewMemorySQS returns an empty set of queues.
func NewMemorySQS() *MemorySQS {
	return &MemorySQS{queues: make(map[string][]engine.DeadLetter), changed: make(chan struct{})}
}

// Write implements engine.Sink: it appends the message to the queue named by
// dl.Destination. It never fails.
func (m *MemorySQS) Write(_ context.Context, dl engine.DeadLetter) error {
	dl.Body = append([]byte(nil), dl.Body...)
	m.mu.Lock()
	m.queues[dl.Destination] = append(m.queues[dl.Destination], dl)
	close(m.changed)
	m.changed = make(chan struct{})
	m.mu.Unlock()
	return nil
}

// Messages returns the messages of a queue, oldest first, leaving them there.
func (m *MemorySQS) Messages(queueArn string) []engine.DeadLetter {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]engine.DeadLetter(nil), m.queues[queueArn]...)
}

// Receive returns and removes every message of a queue, oldest first.
func (m *MemorySQS) Receive(queueArn string) []engine.DeadLetter {
	m.mu.Lock()
	defer m.mu.Unlock()
	msgs := m.queues[queueArn]
	delete(m.queues, queueArn)
	return msgs
}

// Queues lists the ARNs of the queues that hold messages, sorted.
func (m *MemorySQS) Queues() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.queues))
	for arn, msgs := range m.queues {
		if len(msgs) > 0 {
			out = append(out, arn)
		}
	}
	sort.Strings(out)
	return out
}

// WaitFor blocks until queueArn holds at least n messages or ctx ends, and
// returns the messages it holds then.
func (m *MemorySQS) WaitFor(ctx context.Context, queueArn string, n int) ([]engine.DeadLetter, error) {
	for {
		m.mu.Lock()
		msgs := append([]engine.DeadLetter(nil), m.queues[queueArn]...)
		changed := m.changed
		m.mu.Unlock()
		if len(msgs) >= n {
			return msgs, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return msgs, ctx.Err()
		}
	}
}

// Reset empties every queue.
func (m *MemorySQS) Reset() {
	m.mu.Lock()
	m.queues = make(map[string][]engine.DeadLetter)
	m.mu.Unlock()
}
