package targets

import (
	"context"
	"errors"
	"net"

	"github.com/gridbridge/gridbridge/compat/aws/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Queue sends each event to an SQS queue through a sink: the SQS server
// GridBridge was pointed at, or its in-memory queues.
type Queue struct {
	Sink     engine.Sink
	QueueArn string
	// MessageGroupID is SqsParameters.MessageGroupId, required for FIFO queues.
	MessageGroupID string
}

// Deliver implements engine.Destination.
func (q Queue) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	fifo := IsFIFOQueue(q.QueueArn)
	for _, it := range a.Batch.Items {
		msg := engine.DeadLetter{
			Destination: q.QueueArn, Body: it.Body, ContentType: "application/json", EventIDs: []string{it.ID},
		}
		if fifo {
			// EventBridge's deduplication id for FIFO targets is not documented;
			// the event id makes a retried send of the same event a duplicate.
			msg.MessageGroupID, msg.DeduplicationID = q.MessageGroupID, it.ID
		}
		if err := q.Sink.Write(ctx, msg); err != nil {
			return sinkFailure(q.QueueArn, err, it.Body)
		}
	}
	return engine.Outcome{
		OK: true, Destination: q.QueueArn,
		Request: &engine.RecordedRequest{Method: "SendMessage", URL: q.QueueArn, Body: batchBody(a.Batch)},
	}
}

// sqsNonExistentQueue is SQS's answer for a queue that does not exist, as
// EventBridge passes it on (the Java SDK's rendering of the error).
const sqsNonExistentQueue = "The specified queue does not exist or you do not have access to it. " +
	"(Service: AmazonSQS; Status Code: 400; Error Code: AWS.SimpleQueueService.NonExistentQueue)"

func sinkFailure(queueArn string, err error, body []byte) engine.Outcome {
	o := engine.Outcome{
		Destination: queueArn,
		Request:     &engine.RecordedRequest{Method: "SendMessage", URL: queueArn, Body: body},
	}
	// The messages say what SQS would say; the sink's own error text
	// (sqssink: …, a Go network error) names GridBridge's plumbing, not the
	// cloud, and stays out of the dead-letter record.
	var netErr net.Error
	switch {
	case errors.Is(err, engine.ErrDestinationNotFound):
		o.Name = retry.CodeNoResource
		o.Message = sqsNonExistentQueue
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, engine.ErrResponseTimeout):
		o.Name, o.Message = retry.CodeTimeout, "Timed out sending the message to the SQS queue "+queueArn+"."
	case errors.As(err, &netErr):
		o.Name, o.Message = retry.CodeConnectionFailure, "Unable to connect to SQS to send the message to "+queueArn+"."
	default:
		o.Name, o.Message = retry.CodeInternalError, "SQS failed to accept the message for "+queueArn+"."
	}
	return o
}
