package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestFirstAttemptRunsWithoutAdvance(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	e.PutRoute(&engine.Route{ID: "r", Retry: fixedPolicy{time.Second, 3},
		Destination: engine.DestinationFunc(func(context.Context, *engine.Attempt) engine.Outcome {
			return engine.Outcome{OK: true}
		})})
	if err := e.Enqueue("r", &engine.Item{ID: "e1", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got := waitKind(t, e, engine.KindDelivered, 1)
	if got[0].EventIDs[0] != "e1" || !got[0].Time.Equal(t0) {
		t.Fatalf("delivered entry = %+v", got[0])
	}
}

func TestBatchingTakesWhatIsAvailable(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t)
	sizes := make(chan int, 10)
	e.PutRoute(&engine.Route{ID: "r", Retry: giveUpAtOnce(), MaxBatchEvents: 3, PreferredBatchBytes: 10, Concurrency: 1,
		Destination: engine.DestinationFunc(func(_ context.Context, a *engine.Attempt) engine.Outcome {
			sizes <- len(a.Batch.Items)
			return engine.Outcome{OK: true}
		})})
	big := make([]byte, 50)
	_ = e.Enqueue("r",
		&engine.Item{ID: "1", Body: []byte("aaaa")}, &engine.Item{ID: "2", Body: []byte("bbbb")},
		&engine.Item{ID: "3", Body: []byte("cccc")}, // would pass 10 bytes: next batch
		&engine.Item{ID: "4", Body: big},            // larger than the target: alone
		&engine.Item{ID: "5", Body: []byte("e")}, &engine.Item{ID: "6", Body: []byte("f")},
		&engine.Item{ID: "7", Body: []byte("g")}, &engine.Item{ID: "8", Body: []byte("h")})
	waitKind(t, e, engine.KindDelivered, 5)
	close(sizes)
	var got []int
	for n := range sizes {
		got = append(got, n)
	}
	want := []int{2, 1, 1, 3, 1}
	if len(got) != len(want) {
		t.Fatalf("batch sizes %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("batch sizes %v, want %v", got, want)
		}
	}
}
