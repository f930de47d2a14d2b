// Package sqssink sends the AWS faces' SQS messages (the events of SQS
// targets and the dead letters of targets and schedules) to a real SQS
// server through the SQS SDK, on any server that speaks the SQS JSON
// protocol: what --sqs-endpoint selects instead of GridBridge's own SQS.
package sqssink

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

const (
	// requestTimeout bounds one call to the SQS server. A message is
	// small; a call that takes longer means the server is stuck, and failing
	// it lets the engine retry on its own schedule and clock.
	requestTimeout = 10 * time.Second

	// defaultMessageGroupID is used for a FIFO queue when the message
	// names no group: SQS requires one, and a single group keeps dead
	// letters in the order they were written.
	defaultMessageGroupID = "dead-letters"
)

// An Option adjusts the SQS client that New builds, e.g. WithCredentials.
type Option func(*sqs.Options)

// WithCredentials replaces the default static credentials ("test"/"test"),
// which local SQS servers accept.
func WithCredentials(p aws.CredentialsProvider) Option {
	return func(o *sqs.Options) { o.Credentials = p }
}

// Sink sends messages to SQS queues named by ARN. It is safe for concurrent
// use.
type Sink struct {
	client *sqs.Client

	mu sync.Mutex
	// queues caches what GetQueueUrl and GetQueueAttributes said, by ARN, so
	// that each message costs one SendMessage.
	queues map[string]queue
}

var _ sqssend.Queues = (*Sink)(nil)

// queue is what the sink needs to know to send to one queue.
type queue struct {
	url string
	// fifo queues need a message group, and a deduplication id unless
	// contentDedup (the queue's ContentBasedDeduplication) is on.
	fifo, contentDedup bool
}

// fifoIDs are the message group and deduplication id m is sent with to q:
// none for a standard queue; on a FIFO queue the message's own (or the
// default group), and without content-based deduplication a hash of the
// body when it has no deduplication id. A message sent AsSent carries its
// own ids only, so the server answers as it answers such a SendMessage.
func (q *queue) fifoIDs(m sqssend.Message) (group, dedup *string) {
	if !q.fifo {
		return nil, nil
	}
	if m.AsSent {
		if m.MessageGroupID != "" {
			group = aws.String(m.MessageGroupID)
		}
		if m.DeduplicationID != "" {
			dedup = aws.String(m.DeduplicationID)
		}
		return group, dedup
	}
	group = aws.String(cmp.Or(m.MessageGroupID, defaultMessageGroupID))
	switch {
	case m.DeduplicationID != "":
		dedup = aws.String(m.DeduplicationID)
	case !q.contentDedup:
		sum := sha256.Sum256(m.Body)
		dedup = aws.String(hex.EncodeToString(sum[:]))
	}
	return group, dedup
}

// New returns a Sink that talks to the SQS server at endpoint, e.g.
// "http://127.0.0.1:4566"; an empty endpoint means AWS's own endpoint for the
// queue's region. The region of each call comes from the queue ARN.
// The client makes a single attempt per call: the engine retries dead-letter
// writes on the emulator clock.
func New(endpoint string, opts ...Option) *Sink {
	o := sqs.Options{
		Region:           "us-east-1", // replaced per call by the ARN's region
		Credentials:      credentials.NewStaticCredentialsProvider("test", "test", ""),
		RetryMaxAttempts: 1,
		HTTPClient:       awshttp.NewBuildableClient().WithTimeout(requestTimeout),
	}
	if endpoint != "" {
		o.BaseEndpoint = aws.String(endpoint)
	}
	for _, opt := range opts {
		opt(&o)
	}
	return &Sink{client: sqs.New(o), queues: map[string]queue{}}
}

// Send sends m.Body to the queue whose ARN is m.QueueArn
// ("arn:aws:sqs:<region>:<account>:<name>"), with m.Attributes as message
// attributes. For a FIFO queue it sets m.MessageGroupID (default
// "dead-letters") and m.DeduplicationID, which defaults to a SHA-256 of the
// body when the queue has no content-based deduplication.
//
// It returns an error wrapping engine.ErrDestinationNotFound when the ARN is
// malformed or the queue does not exist, and any other error for a transient
// failure.
func (s *Sink) Send(ctx context.Context, m sqssend.Message) error {
	target, err := parseQueueARN(m.QueueArn)
	if err != nil {
		return err
	}
	inRegion := func(o *sqs.Options) { o.Region = target.Region }

	q, err := s.resolve(ctx, m.QueueArn, target, inRegion)
	if err != nil {
		return err
	}
	group, dedup := q.fifoIDs(m)
	input := &sqs.SendMessageInput{
		QueueUrl:          &q.url,
		MessageBody:       aws.String(string(m.Body)),
		MessageAttributes: messageAttributes(m.Attributes),
		MessageGroupId:    group, MessageDeduplicationId: dedup,
	}
	if _, err := s.client.SendMessage(ctx, input, inRegion); err != nil {
		if queueMissing(err) {
			// The queue went away since it was resolved; forget it so that a
			// re-created queue is found again.
			s.forget(m.QueueArn)
		}
		return classify(err, "sending to", m.QueueArn)
	}
	return nil
}

// resolve returns the cached queue for arn, or asks the server once.
func (s *Sink) resolve(ctx context.Context, queueARN string, target arn.ARN, inRegion func(*sqs.Options)) (queue, error) {
	s.mu.Lock()
	q, ok := s.queues[queueARN]
	s.mu.Unlock()
	if ok {
		return q, nil
	}

	// Two writers may both resolve the same new queue; the answers are the
	// same, so the duplicate call is cheaper than holding the lock over I/O.
	out, err := s.client.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{
		QueueName:              aws.String(target.Resource),
		QueueOwnerAWSAccountId: aws.String(target.AccountID),
	}, inRegion)
	if err != nil {
		return queue{}, classify(err, "looking up", queueARN)
	}
	q = queue{url: aws.ToString(out.QueueUrl), fifo: strings.HasSuffix(target.Resource, ".fifo")}
	if q.fifo {
		attrs, err := s.client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
			QueueUrl:       out.QueueUrl,
			AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameContentBasedDeduplication},
		}, inRegion)
		if err != nil {
			return queue{}, classify(err, "reading the attributes of", queueARN)
		}
		q.contentDedup = strings.EqualFold(attrs.Attributes[string(types.QueueAttributeNameContentBasedDeduplication)], "true")
	}

	s.mu.Lock()
	s.queues[queueARN] = q
	s.mu.Unlock()
	return q, nil
}

func (s *Sink) forget(queueARN string) {
	s.mu.Lock()
	delete(s.queues, queueARN)
	s.mu.Unlock()
}

// parseQueueARN checks that dest is an SQS queue ARN. One that is not can
// never be written, so it is a missing destination.
func parseQueueARN(dest string) (arn.ARN, error) {
	a, err := arn.Parse(dest)
	if err == nil && a.Service == "sqs" && a.Region != "" && a.AccountID != "" &&
		a.Resource != "" && !strings.ContainsAny(a.Resource, ":/") {
		return a, nil
	}
	return arn.ARN{}, fmt.Errorf("sqssink: destination %q is not an SQS queue ARN (arn:aws:sqs:<region>:<account>:<name>): %w", dest, engine.ErrDestinationNotFound)
}

// messageAttributes maps attributes onto SQS message attributes. Type is the
// SQS data type ("String", "Number", or a custom "Number.int"); it defaults to
// String. Binary types carry the value's bytes.
func messageAttributes(attrs []engine.Attribute) map[string]types.MessageAttributeValue {
	if len(attrs) == 0 {
		return nil
	}
	out := make(map[string]types.MessageAttributeValue, len(attrs))
	for _, a := range attrs {
		v := types.MessageAttributeValue{DataType: aws.String(cmp.Or(a.Type, "String"))}
		if strings.HasPrefix(a.Type, "Binary") {
			v.BinaryValue = []byte(a.Value)
		} else {
			v.StringValue = aws.String(a.Value)
		}
		out[a.Name] = v
	}
	return out
}

// classify turns an SQS error into the engine's terms: a missing queue is
// permanent, everything else is worth retrying.
func classify(err error, doing, queueARN string) error {
	if queueMissing(err) {
		return fmt.Errorf("sqssink: queue %s does not exist: %w", queueARN, engine.ErrDestinationNotFound)
	}
	return fmt.Errorf("sqssink: %s %s: %w", doing, queueARN, err)
}

// queueMissing recognises "no such queue" in both the JSON protocol's typed
// error and the query protocol's code that some servers still send.
func queueMissing(err error) bool {
	var missing *types.QueueDoesNotExist
	if errors.As(err, &missing) {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue":
			return true
		}
	}
	return false
}
