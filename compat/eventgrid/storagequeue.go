package eventgrid

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azqueue"

	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/retry"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// storageQueueDestination delivers into an Azure Storage queue (Azurite in
// tests) with the official azqueue SDK, as Event Grid does: one message per
// event, whose text is the event's JSON in the delivery schema, base64
// encoded (what the service writes today, and what the Functions queue
// trigger decodes by default), with queueMessageTimeToLiveInSeconds as the
// message's time to live. It is an Azure-resource endpoint, so the retry
// rules give it their Azure-resource codes (EG-6, EG-7).
type storageQueueDestination struct {
	queue *azqueue.QueueClient // nil when no account could be chosen
	// unusable says why queue is nil; every attempt then fails NotFound.
	unusable string
	ttl      *int32
	name     string // "<account>/<queue>", for the journal
}

func (s *basicTopics) storageQueue(d *resource.Destination) engine.Destination {
	dest := &storageQueueDestination{name: d.StorageAccountName() + "/" + d.QueueName()}
	if secs, ok := d.QueueMessageTTL(); ok {
		ttl := int32(secs)
		dest.ttl = &ttl
	}
	svc, account, err := s.queues.service(d.StorageAccountName())
	if err != nil {
		dest.unusable = err.Error()
		return dest
	}
	dest.name = account + "/" + d.QueueName()
	dest.queue = svc.NewQueueClient(d.QueueName())
	return dest
}

// Deliver enqueues the batch's events in order (the route sends one at a
// time: Storage Queue destinations take no batching settings).
func (q *storageQueueDestination) Deliver(ctx context.Context, a *engine.Attempt) engine.Outcome {
	if q.queue == nil {
		return engine.Outcome{Name: retry.OutcomeNotFound, Destination: q.name,
			Message: "no queue service for this destination: " + q.unusable}
	}
	url := q.queue.URL() + "/messages"
	var rec *engine.RecordedRequest
	for _, it := range a.Batch.Items {
		text := base64.StdEncoding.EncodeToString(it.Bytes())
		rec = &engine.RecordedRequest{Method: http.MethodPost, URL: url, Body: []byte(text)}
		if _, err := q.queue.EnqueueMessage(ctx, text, &azqueue.EnqueueMessageOptions{TimeToLive: q.ttl}); err != nil {
			return q.failure(ctx, err, rec)
		}
	}
	return engine.Outcome{OK: true, Status: http.StatusCreated, Request: rec, Destination: q.name,
		Message: "enqueued into storage queue " + q.name + " (message text: the event's JSON, base64)"}
}

// failure names a failed enqueue as EG-24 does: by the queue service's
// status (404 for a missing queue: NotFound), or by the transport error
// (the engine's response timeout: TimedOut; Azurite down: SocketError).
func (q *storageQueueDestination) failure(ctx context.Context, err error, rec *engine.RecordedRequest) engine.Outcome {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		return engine.Outcome{Name: retry.OutcomeName(re.StatusCode, nil), Status: re.StatusCode, Request: rec,
			Destination: q.name, Message: fmt.Sprintf("storage queue %s answered %d %s", q.name, re.StatusCode, re.ErrorCode)}
	}
	if cause := context.Cause(ctx); cause != nil {
		err = cause
	}
	return engine.Outcome{Name: retry.OutcomeName(0, err), Request: rec, Destination: q.name,
		Message: fmt.Sprintf("storage queue %s: %v", q.name, err)}
}
