package sqssink

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
)

// SQS's SendMessageBatch limits: 10 entries, 1 MiB in all (bodies and
// attributes' names, types and values).
const (
	maxBatchEntries = 10
	maxBatchBytes   = 1 << 20
	// maxInFlight is how many sends to one queue may be in flight at once
	// before writes wait to be batched: a few keep the round trips
	// overlapping, as several producers' would.
	maxInFlight = 4
)

// Batching returns a sink that writes like s but, while maxInFlight sends to
// the same queue are in flight, sends the writes that arrive meanwhile
// together with SendMessageBatch as soon as one of those ends (group
// commit). A lone write costs one SendMessage as before and waits for
// nothing; under load, up to ten writes share a round trip. Each Send still returns its own entry's
// result, so the engine retries and dead-letters event by event.
func (s *Sink) Batching() sqssend.Queues { return &batching{sink: s, lanes: map[string]*lane{}} }

type batching struct {
	sink  *Sink
	mu    sync.Mutex
	lanes map[string]*lane // by queue ARN
}

// lane is one queue's sends: at most maxInFlight in flight, the writes that
// arrive meanwhile queued in batches.
type lane struct {
	mu       sync.Mutex
	inFlight int
	waiting  []*pending
}

// pending is a batch waiting for its turn. Its first writer sends it.
type pending struct {
	entries []sqssend.Message
	bytes   int
	errs    []error
	turn    chan struct{} // closed when the batch may be sent
	done    chan struct{} // closed when errs is set
}

func (b *batching) lane(queueARN string) *lane {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.lanes[queueARN]
	if l == nil {
		l = &lane{}
		b.lanes[queueARN] = l
	}
	return l
}

// Send implements sqssend.Queues.
func (b *batching) Send(ctx context.Context, m sqssend.Message) error {
	l := b.lane(m.QueueArn)
	l.mu.Lock()
	if l.inFlight < maxInFlight {
		l.inFlight++
		l.mu.Unlock()
		err := b.sink.Send(ctx, m)
		l.next()
		return err
	}
	size := messageSize(m)
	var p *pending
	if n := len(l.waiting); n > 0 && len(l.waiting[n-1].entries) < maxBatchEntries && l.waiting[n-1].bytes+size <= maxBatchBytes {
		p = l.waiting[n-1]
	}
	leader := p == nil
	if leader {
		p = &pending{turn: make(chan struct{}), done: make(chan struct{})}
		l.waiting = append(l.waiting, p)
	}
	i := len(p.entries)
	p.entries = append(p.entries, m)
	p.bytes += size
	l.mu.Unlock()
	if leader {
		// The batch ahead is bounded by the client's request timeout, and
		// the writers that joined this batch depend on its leader: it waits
		// its turn whatever its own context says.
		<-p.turn
		p.errs = b.sink.writeBatch(ctx, p.entries)
		close(p.done)
		l.next()
	} else {
		<-p.done
	}
	return p.errs[i]
}

// next hands a finished send's place to the oldest waiting batch, or frees
// it.
func (l *lane) next() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.waiting) == 0 {
		l.inFlight--
		return
	}
	p := l.waiting[0]
	l.waiting[0] = nil
	l.waiting = l.waiting[1:]
	close(p.turn)
}

// writeBatch sends msgs, all to the same queue, with one SendMessageBatch and
// returns each one's result. A single entry goes through Send.
func (s *Sink) writeBatch(ctx context.Context, msgs []sqssend.Message) []error {
	errs := make([]error, len(msgs))
	if len(msgs) == 1 {
		errs[0] = s.Send(ctx, msgs[0])
		return errs
	}
	fail := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	dest := msgs[0].QueueArn
	target, err := parseQueueARN(dest)
	if err != nil {
		return fail(err)
	}
	inRegion := func(o *sqs.Options) { o.Region = target.Region }
	q, err := s.resolve(ctx, dest, target, inRegion)
	if err != nil {
		return fail(err)
	}
	entries := make([]types.SendMessageBatchRequestEntry, len(msgs))
	for i, m := range msgs {
		group, dedup := q.fifoIDs(m)
		entries[i] = types.SendMessageBatchRequestEntry{
			Id:                aws.String(strconv.Itoa(i)),
			MessageBody:       aws.String(string(m.Body)),
			MessageAttributes: messageAttributes(m.Attributes),
			MessageGroupId:    group, MessageDeduplicationId: dedup,
		}
	}
	out, err := s.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &q.url, Entries: entries}, inRegion)
	if err != nil {
		if queueMissing(err) {
			s.forget(dest)
		}
		return fail(classify(err, "sending a batch to", dest))
	}
	for _, f := range out.Failed {
		i, err := strconv.Atoi(aws.ToString(f.Id))
		if err != nil || i < 0 || i >= len(errs) {
			continue
		}
		// A refused entry fails as the same SendMessage would: with the
		// server's code and message, its fault the sender's when the server
		// says so (sqssend.CauseOf reads it).
		refused := &smithy.GenericAPIError{Code: aws.ToString(f.Code), Message: aws.ToString(f.Message), Fault: smithy.FaultServer}
		if f.SenderFault {
			refused.Fault = smithy.FaultClient
		}
		errs[i] = fmt.Errorf("sqssink: sending to %s: %w", dest, refused)
	}
	return errs
}

// messageSize is what m counts against SQS's batch limit.
func messageSize(m sqssend.Message) int {
	n := len(m.Body)
	for _, a := range m.Attributes {
		n += len(a.Name) + len(a.Type) + len(a.Value)
	}
	return n
}
