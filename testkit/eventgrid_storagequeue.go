package testkit

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azqueue"
)

// QueueEvent is one event an Event Grid Storage Queue destination put into
// a queue: the message text, base64-decoded, is the event's JSON in the
// subscription's delivery schema.
type QueueEvent struct {
	Event json.RawMessage
	// MessageID, Inserted and Expires are the queue message's own; Expires
	// minus Inserted is queueMessageTimeToLiveInSeconds (7 days when left
	// out; far in the future for -1).
	MessageID string
	Inserted  time.Time
	Expires   time.Time
}

// DrainStorageQueue takes every message out of queue with the official
// azqueue SDK (receive, then delete) and decodes each as Event Grid wrote
// it. connectionString needs a QueueEndpoint, as ./scripts/test.sh gives:
//
//	got, err := testkit.DrainStorageQueue(ctx, connectionString, "orders")
//	var ev map[string]any
//	_ = json.Unmarshal(got[0].Event, &ev) // ev["id"], ev["eventType"], …
func DrainStorageQueue(ctx context.Context, connectionString, queue string) ([]QueueEvent, error) {
	client, err := azqueue.NewQueueClientFromConnectionString(connectionString, queue, nil)
	if err != nil {
		return nil, err
	}
	var out []QueueEvent
	for {
		resp, err := client.DequeueMessages(ctx, &azqueue.DequeueMessagesOptions{NumberOfMessages: ptr[int32](32)})
		if err != nil {
			return nil, fmt.Errorf("receiving from queue %s: %w", queue, err)
		}
		if len(resp.Messages) == 0 {
			return out, nil
		}
		for _, m := range resp.Messages {
			ev, err := base64.StdEncoding.DecodeString(queueText(m.MessageText))
			if err != nil {
				return nil, fmt.Errorf("queue %s message %s is not base64: %w", queue, queueText(m.MessageID), err)
			}
			out = append(out, QueueEvent{Event: ev, MessageID: queueText(m.MessageID),
				Inserted: queueTime(m.InsertionTime), Expires: queueTime(m.ExpirationTime)})
			if _, err := client.DeleteMessage(ctx, queueText(m.MessageID), queueText(m.PopReceipt), nil); err != nil {
				return nil, fmt.Errorf("deleting message %s from queue %s: %w", queueText(m.MessageID), queue, err)
			}
		}
	}
}

func queueText(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func queueTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}
