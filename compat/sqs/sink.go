package sqs

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

var _ sqssend.Queues = (*Store)(nil)

// defaultMessageGroupID is the group of a FIFO write that names none, as the
// SQS dead-letter sink does for a real server.
const defaultMessageGroupID = "dead-letters"

// senderID is the SenderId of messages GridBridge itself writes.
const senderID = "AIDAGRIDBRIDGEEMULATOR"

// Send implements sqssend.Queues: the AWS faces' SQS targets and dead-letter
// queues send here. The queue is m.QueueArn, an SQS queue ARN. A queue that
// does not exist is created, standard or FIFO by its name, and tagged with
// AutoCreatedTag: tests need not create every queue a rule names (AWS would
// fail the target with a resource error instead). A FIFO write without a
// group lands in group "dead-letters"; without a deduplication id it is
// deduplicated on a SHA-256 of its body.
//
// A message sent AsSent goes as SQS's SendMessage would take it: nothing is
// filled in, and a refusal is SQS's answer (sqssend.Answer reads its code
// and message). A FIFO queue created for one has content-based
// deduplication, which is what EventBridge asks of a FIFO target's queue.
//
// A malformed ARN, or any other message SQS would refuse (too large, bad
// characters), fails with engine.ErrDestinationNotFound: retrying cannot
// help. One larger than the queue's MaximumMessageSize fails with
// sqssend.ErrMessageTooLarge too, and the SQS error SQS would answer.
func (s *Store) Send(_ context.Context, m sqssend.Message) error {
	k, err := parseQueueARN(m.QueueArn)
	if err != nil {
		return fmt.Errorf("sqs: %w: %w", err, engine.ErrDestinationNotFound)
	}
	q := s.queue(k)
	if q == nil {
		var attrs map[string]string
		if m.AsSent && k.fifo() {
			attrs = map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"}
		}
		if q, err = s.createQueue(k, attrs, nil, true); err != nil {
			return fmt.Errorf("sqs: creating %s: %w: %w", m.QueueArn, err, engine.ErrDestinationNotFound)
		}
	}
	in := sendInput{body: string(m.Body), attrs: toAttributeValues(m.Attributes), senderID: senderID}
	if q.fifo() {
		in.group, in.dedupID = m.MessageGroupID, m.DeduplicationID
		if !m.AsSent {
			in.group = cmp.Or(in.group, defaultMessageGroupID)
			if in.dedupID == "" {
				sum := sha256.Sum256(m.Body)
				in.dedupID = hex.EncodeToString(sum[:])
			}
		}
	}
	if _, err := q.send(in); err != nil {
		var apiErr *apiError
		if !errors.As(err, &apiErr) {
			return err
		}
		if m.AsSent {
			return fmt.Errorf("sqs: %s refused the message: %w", m.QueueArn, err)
		}
		return fmt.Errorf("sqs: %s refused the message: %w: %w", m.QueueArn, err, engine.ErrDestinationNotFound)
	}
	return nil
}

// InProcess says Send takes a message in the calling goroutine without
// waiting on anything outside the process (sqssend.InProcess).
func (s *Store) InProcess() bool { return true }

func toAttributeValues(attrs []engine.Attribute) map[string]AttributeValue {
	if len(attrs) == 0 {
		return nil
	}
	out := make(map[string]AttributeValue, len(attrs))
	for _, a := range attrs {
		v := AttributeValue{DataType: cmp.Or(a.Type, "String")}
		if strings.HasPrefix(v.DataType, "Binary") {
			v.BinaryValue = []byte(a.Value)
		} else {
			s := a.Value
			v.StringValue = &s
		}
		out[a.Name] = v
	}
	return out
}

func toEngineAttributes(attrs map[string]AttributeValue) []engine.Attribute {
	if len(attrs) == 0 {
		return nil
	}
	out := make([]engine.Attribute, 0, len(attrs))
	for name, v := range attrs {
		a := engine.Attribute{Name: name, Type: v.DataType, Value: string(v.BinaryValue)}
		if v.StringValue != nil {
			a.Value = *v.StringValue
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Messages returns the messages a queue holds (visible, in flight or
// delayed), oldest first, leaving them there. It serves /_emulator/sqs.
func (s *Store) Messages(queueArn string) []sqssend.Message {
	q := s.queueByARN(queueArn)
	if q == nil {
		return nil
	}
	q.mu.Lock()
	msgs := make([]*message, 0, len(q.byID))
	for _, m := range q.byID {
		msgs = append(msgs, m)
	}
	q.mu.Unlock()
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].seq < msgs[j].seq })
	out := make([]sqssend.Message, len(msgs))
	for i, m := range msgs {
		out[i] = sqssend.Message{
			QueueArn: queueArn, Body: []byte(m.body),
			Attributes: toEngineAttributes(m.attrs), MessageGroupID: m.group, DeduplicationID: m.dedupID,
		}
	}
	return out
}

// Receive deletes and returns every message of a queue, oldest first.
func (s *Store) Receive(queueArn string) []sqssend.Message {
	out := s.Messages(queueArn)
	if q := s.queueByARN(queueArn); q != nil {
		q.purge()
	}
	return out
}

// Queues lists the ARNs of every queue, sorted.
func (s *Store) Queues() []string {
	qs := s.all()
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.arn
	}
	return out
}

// WaitFor blocks until queueArn holds at least n messages or ctx ends, and
// returns the messages it holds then.
func (s *Store) WaitFor(ctx context.Context, queueArn string, n int) ([]sqssend.Message, error) {
	for {
		s.mu.RLock()
		created := s.created
		s.mu.RUnlock()
		var wake chan struct{}
		if q := s.queueByARN(queueArn); q != nil {
			q.mu.Lock()
			if len(q.byID) < n {
				if q.wake == nil {
					q.wake = make(chan struct{})
				}
				wake = q.wake
			}
			q.mu.Unlock()
			if wake == nil {
				return s.Messages(queueArn), nil
			}
		}
		select {
		case <-wake:
		case <-created:
		case <-ctx.Done():
			return s.Messages(queueArn), ctx.Err()
		}
	}
}
