package sqssink

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
)

// TestBatchingDeliversEveryConcurrentWrite: writes that pile up behind a
// send go out in batches, and each Write reports its own entry: a body SQS
// refuses fails alone, the rest arrive.
func TestBatchingDeliversEveryConcurrentWrite(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	url, queueARN := srv.createQueue(t, srv.sdk, "", nil)
	sink := New(srv.endpoint).Batching()
	const n = 40
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"n":%d}`, i)
			if i%10 == 3 {
				body = "bad \u0001 body"
			}
			errs[i] = sink.Send(t.Context(), sqssend.Message{QueueArn: queueARN, Body: []byte(body)})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if (i%10 == 3) != (err != nil) {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if got := messageCount(t, srv.sdk, url); got != n-4 {
		t.Fatalf("the queue holds %d messages, want %d", got, n-4)
	}
}
