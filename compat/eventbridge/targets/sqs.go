package targets

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/gridbridge/gridbridge/compat/eventbridge/retry"
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

func sinkFailure(queueArn string, err error, body []byte) engine.Outcome {
	o := engine.Outcome{
		Destination: queueArn,
		Request:     &engine.RecordedRequest{Method: "SendMessage", URL: queueArn, Body: body},
	}
	var netErr net.Error
	switch {
	case errors.Is(err, engine.ErrDestinationNotFound):
		o.Name = retry.CodeNoResource
		o.Message = fmt.Sprintf("SQS queue %s does not exist or cannot be reached by the rule: %v", queueArn, err)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, engine.ErrResponseTimeout):
		o.Name, o.Message = retry.CodeTimeout, "Sending to the SQS queue timed out: "+err.Error()
	case errors.As(err, &netErr):
		o.Name, o.Message = retry.CodeConnectionFailure, "Could not connect to SQS: "+err.Error()
	default:
		o.Name, o.Message = retry.CodeInternalError, "Sending to the SQS queue failed: "+err.Error()
	}
	return o
}
