package sqs

import (
	"context"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// A receive whose client is gone takes nothing, even with messages ready:
// handed to a closed connection they would sit in flight with nobody to
// see them.
func TestReceiveOfAGoneClientTakesNothing(t *testing.T) {
	t.Parallel()
	store := NewStore(engine.NewVirtualClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Second))
	q, err := store.createQueue(queueKey{partition: "aws", region: "us-east-1", account: "000000000000", name: "gone"}, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.send(sendInput{body: "kept"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := q.receive(ctx, receiveInput{max: 10}); len(got) != 0 {
		t.Fatalf("a gone client's receive took %d messages", len(got))
	}
	q.mu.Lock()
	visible, inflight, _ := q.countsLocked(store.clock.Now())
	q.mu.Unlock()
	if visible != 1 || inflight != 0 {
		t.Fatalf("visible %d, in flight %d; want the message still visible", visible, inflight)
	}
	if got := q.receive(context.Background(), receiveInput{max: 10}); len(got) != 1 {
		t.Fatalf("the next receive took %d messages, want 1", len(got))
	}
}
