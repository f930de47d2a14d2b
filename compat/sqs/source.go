package sqs

import (
	"context"
	"slices"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/sqssource"
)

// Source returns the store as queues a GridBridge service reads as its
// source (an EventBridge pipe), through the same receive, delete and
// redrive as the SQS API's.
func (s *Store) Source() sqssource.Queues { return storeSource{s} }

// storeSource implements sqssource.Queues on a store.
type storeSource struct{ s *Store }

var _ sqssource.Queues = storeSource{}

// watch is one reader's interest in a queue name.
type watch struct{ wake func() }

func (src storeSource) Receive(_ context.Context, queueArn string, max int) (sqssource.Received, error) {
	q := src.s.queueByARN(queueArn)
	if q == nil {
		return sqssource.Received{}, sqssource.ErrNoQueue
	}
	none := time.Duration(0)
	q.mu.Lock()
	taken, moves := q.takeLocked(receiveInput{max: max, wait: &none})
	q.mu.Unlock()
	src.s.redrive(moves)
	var out sqssource.Received
	for _, mv := range moves {
		out.Redriven = append(out.Redriven, sqssource.Redriven{ID: mv.m.id, DeadLetterQueueArn: mv.target, ReceiveCount: mv.m.receiveCount})
	}
	if len(taken) > 0 {
		out.Messages = make([]sqssource.Message, len(taken))
	}
	for i := range taken {
		r := &taken[i]
		m := sqssource.Message{
			ID: r.id, ReceiptHandle: r.receipt, Body: r.body, MD5OfBody: r.md5Body, Attributes: r.system(),
			ReceiveCount: r.receiveCount,
		}
		if len(r.attrs) > 0 {
			m.MD5OfMessageAttributes = r.md5Attrs
			m.MessageAttributes = make(map[string]sqssource.Attribute, len(r.attrs))
			for name, v := range r.attrs {
				m.MessageAttributes[name] = sqssource.Attribute{DataType: v.DataType, StringValue: v.StringValue, BinaryValue: v.BinaryValue}
			}
		}
		out.Messages[i] = m
	}
	return out, nil
}

func (src storeSource) Delete(_ context.Context, queueArn string, receiptHandles []string) error {
	q := src.s.queueByARN(queueArn)
	if q == nil {
		return nil // gone with its messages
	}
	for _, h := range receiptHandles {
		if err := q.deleteMessage(h); err != nil {
			return err
		}
	}
	return nil
}

func (src storeSource) Watch(queueArn string, wake func()) (stop func()) {
	k, err := parseQueueARN(queueArn)
	if err != nil {
		return func() {}
	}
	w := &watch{wake: wake}
	s := src.s
	s.mu.Lock()
	s.watchers[k] = append(s.watchers[k], w)
	q := s.queues[k]
	s.mu.Unlock()
	if q != nil {
		// A queue created meanwhile took w from the store's list; adding
		// it twice would only wake the reader twice.
		q.mu.Lock()
		if !slices.Contains(q.watchers, w) {
			q.watchers = append(q.watchers, w)
		}
		q.mu.Unlock()
	}
	return func() {
		s.mu.Lock()
		s.watchers[k] = slices.DeleteFunc(s.watchers[k], func(x *watch) bool { return x == w })
		if len(s.watchers[k]) == 0 {
			delete(s.watchers, k)
		}
		q := s.queues[k]
		s.mu.Unlock()
		if q != nil {
			q.mu.Lock()
			q.watchers = slices.DeleteFunc(q.watchers, func(x *watch) bool { return x == w })
			q.mu.Unlock()
		}
	}
}

func (src storeSource) NextVisible(queueArn string) (time.Time, bool) {
	q := src.s.queueByARN(queueArn)
	if q == nil {
		return time.Time{}, false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.store.clock.Now()
	if !q.fifo() {
		if len(q.timed) == 0 {
			return time.Time{}, false
		}
		return q.timed[0].visibleAt, true
	}
	var next time.Time
	for _, m := range q.order {
		if !m.deleted && m.visibleAt.After(now) && (next.IsZero() || m.visibleAt.Before(next)) {
			next = m.visibleAt
		}
	}
	return next, !next.IsZero()
}

func (src storeSource) Holding(queueArn string, ids []string) []bool {
	out := make([]bool, len(ids))
	q := src.s.queueByARN(queueArn)
	if q == nil {
		return out
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.store.clock.Now()
	for i, id := range ids {
		m := q.byID[id]
		out[i] = m != nil && now.Before(m.sent.Add(q.cfg.retention))
	}
	return out
}

func (src storeSource) VisibilityTimeout(queueArn string) (time.Duration, error) {
	q := src.s.queueByARN(queueArn)
	if q == nil {
		return 0, sqssource.ErrNoQueue
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.cfg.visibility, nil
}
