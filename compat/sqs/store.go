package sqs

import (
	"sort"
	"strings"
	"sync"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/uuidseq"
)

// queueKey identifies a queue: SQS queue names are unique per account and
// region.
type queueKey struct {
	partition, region, account, name string
}

func (k queueKey) arn() string {
	return "arn:" + k.partition + ":sqs:" + k.region + ":" + k.account + ":" + k.name
}

func (k queueKey) fifo() bool { return strings.HasSuffix(k.name, fifoSuffix) }

// Store holds every queue of one emulator. It is safe for concurrent use.
type Store struct {
	clock engine.Clock

	mu     sync.RWMutex
	queues map[queueKey]*Queue
	// created is closed and replaced when a queue is created, for WaitFor.
	created chan struct{}
	// watchers are the source readers of each queue name, kept across the
	// queue's deletion and creation (source.go).
	watchers map[queueKey][]*watch
	// ids makes message ids, random UUIDs as SQS's are.
	ids uuidseq.Source
}

// NewStore returns an empty store on clock.
func NewStore(clock engine.Clock) *Store {
	return &Store{clock: clock, queues: map[queueKey]*Queue{}, created: make(chan struct{}), watchers: map[queueKey][]*watch{}}
}

// createQueue creates a queue, or returns the existing one when its
// attributes match what is asked (CreateQueue is idempotent on SQS).
// autoCreated marks a queue created by a write rather than by the API.
func (s *Store) createQueue(k queueKey, attrs, tags map[string]string, autoCreated bool) (*Queue, error) {
	if err := validQueueName(k.name); err != nil {
		return nil, err
	}
	if attrs["FifoQueue"] == "true" && !k.fifo() || k.fifo() && attrs["FifoQueue"] != "true" && !autoCreated {
		return nil, errInvalidParameter("The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.")
	}
	cfg := defaultConfig(k)
	if err := cfg.apply(attrs, true); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if q := s.queues[k]; q != nil {
		s.mu.Unlock() // a queue's lock is never taken under the store's
		if !autoCreated && !sameAttributes(q, attrs) {
			return nil, errQueueNameExists(k.name)
		}
		return q, nil
	}
	defer s.mu.Unlock()
	now := s.clock.Now()
	q := &Queue{
		store: s, key: k, arn: k.arn(), cfg: cfg, tags: map[string]string{}, created: now, modified: now,
		byID: map[string]*message{}, dedup: map[string]dedupEntry{},
	}
	for key, v := range tags {
		q.tags[key] = v
	}
	if autoCreated {
		q.tags[AutoCreatedTag] = "true"
	}
	// Not yet published: its watchers are set without its lock.
	q.watchers = append([]*watch(nil), s.watchers[k]...)
	s.queues[k] = q
	close(s.created)
	s.created = make(chan struct{})
	for _, w := range q.watchers {
		w.wake()
	}
	return q, nil
}

// AutoCreatedTag is the tag GridBridge puts on a queue it created because an
// EventBridge target or dead-letter queue wrote to it before anyone created
// it (ListQueueTags and /_emulator/sqs show it).
const AutoCreatedTag = "gridbridge:auto-created"

// sameAttributes reports whether attrs, as given to CreateQueue, agree with
// q's current attributes.
func sameAttributes(q *Queue, attrs map[string]string) bool {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	have, err := q.attributes(names)
	if err != nil {
		return false
	}
	for n, v := range attrs {
		if n == "RedrivePolicy" {
			want, err := parseRedrive(v)
			got, err2 := parseRedrive(have[n])
			if err != nil || err2 != nil || *want != *got {
				return false
			}
			continue
		}
		if have[n] != v && !(have[n] == "" && v == "false") { // FifoQueue=false: a standard queue
			return false
		}
	}
	return true
}

// queue returns the queue k, or nil.
func (s *Store) queue(k queueKey) *Queue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.queues[k]
}

// queueByARN returns the queue with that ARN, or nil.
func (s *Store) queueByARN(arn string) *Queue {
	k, err := parseQueueARN(arn)
	if err != nil {
		return nil
	}
	return s.queue(k)
}

func (s *Store) exists(arn string) bool { return s.queueByARN(arn) != nil }

// findByName returns the queue named name of account, preferring region; a
// queue URL names no region, so a client configured for another region
// still finds a queue when only one region has it.
func (s *Store) findByName(region, account, name string) *Queue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var found *Queue
	for k, q := range s.queues {
		if k.account != account || k.name != name {
			continue
		}
		if k.region == region {
			return q
		}
		if found != nil {
			return nil // ambiguous across regions
		}
		found = q
	}
	return found
}

// deleteQueue removes q; receivers waiting on it return empty.
func (s *Store) deleteQueue(q *Queue) {
	s.mu.Lock()
	if s.queues[q.key] == q {
		delete(s.queues, q.key)
	}
	s.mu.Unlock()
	q.mu.Lock()
	q.gone = true
	q.clearLocked()
	q.notifyLocked()
	q.mu.Unlock()
}

// list returns the queues of account in region whose names start with
// prefix, sorted by name.
func (s *Store) list(region, account, prefix string) []*Queue {
	s.mu.RLock()
	var out []*Queue
	for k, q := range s.queues {
		if k.region == region && k.account == account && strings.HasPrefix(k.name, prefix) {
			out = append(out, q)
		}
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].key.name < out[j].key.name })
	return out
}

// all returns every queue, sorted by ARN.
func (s *Store) all() []*Queue {
	s.mu.RLock()
	out := make([]*Queue, 0, len(s.queues))
	for _, q := range s.queues {
		out = append(out, q)
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].arn < out[j].arn })
	return out
}

// redrive moves messages to their dead-letter queues (outside any queue
// lock, so two queues redriving into each other cannot deadlock).
func (s *Store) redrive(moves []move) {
	for _, mv := range moves {
		if dlq := s.queueByARN(mv.target); dlq != nil {
			dlq.acceptMoved(mv)
		}
	}
}

// Reset deletes every queue.
func (s *Store) Reset() {
	s.mu.Lock()
	old := s.queues
	s.queues = map[queueKey]*Queue{}
	s.mu.Unlock()
	for _, q := range old {
		q.mu.Lock()
		q.gone = true
		q.clearLocked()
		q.notifyLocked()
		q.mu.Unlock()
	}
}
