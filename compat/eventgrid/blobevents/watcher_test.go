package blobevents

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

var containerSeq atomic.Int64

// azurite gives a watcher of the test Azurite's account, a client of it
// and a fresh container (Azurite is shared with parallel tests, so only
// the container's changes are looked at).
func azurite(t testing.TB) (*Watcher, *azblob.Client, string) {
	t.Helper()
	conn := testenv.AzureStorage(t)
	acct, err := azblobsink.ParseConnectionString(conn)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWatcher(acct)
	if err != nil {
		t.Fatal(err)
	}
	client, err := azblob.NewClientFromConnectionString(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("watch-%d-%d", time.Now().UnixNano()%1e9, containerSeq.Add(1))
	if _, err := client.CreateContainer(context.Background(), name, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = client.DeleteContainer(context.Background(), name, nil) })
	return w, client, name
}

func upload(t testing.TB, client *azblob.Client, container string, names ...string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(names))
	work := make(chan string)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				if _, err := client.UploadBuffer(context.Background(), container, n, []byte(n), nil); err != nil {
					errs <- err
				}
			}
		}()
	}
	for _, n := range names {
		work <- n
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func names(format string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i)
	}
	return out
}

// describe is what a change says, for comparing lists of them.
func describe(changes []Change, container string) []string {
	var out []string
	for _, c := range changes {
		if c.Container != container {
			continue
		}
		verb := "created"
		if c.Deleted {
			verb = "deleted"
		}
		out = append(out, verb+" "+c.Name)
	}
	return out
}

// Poll goes round the account a few blobs at a time, each poll listing no
// more than its budget, and reports each change once, in name order: one
// deleted from the middle, one overwritten, one added between two, one
// deleted at the end and one added after it.
func TestPollReportsEachChangeOnceInBoundedSteps(t *testing.T) {
	t.Parallel()
	w, client, container := azurite(t)
	ctx := context.Background()
	upload(t, client, container, names("b-%02d", 25)...)
	if changes, err := w.Scan(ctx); err != nil || len(changes) != 0 {
		t.Fatalf("the first scan: %v, %v; want it to record only", changes, err)
	}
	for _, n := range []string{"b-03", "b-24"} {
		if _, err := client.DeleteBlob(ctx, container, n, nil); err != nil {
			t.Fatal(err)
		}
	}
	upload(t, client, container, "b-10", "b-10a", "b-30")

	const budget = 10
	want := []string{"deleted b-03", "created b-10", "created b-10a", "deleted b-24", "created b-30"}
	var got []string
	for polls := 0; len(got) < len(want) && polls < 20000; polls++ {
		changes, err := w.Poll(ctx, budget)
		if err != nil {
			t.Fatal(err)
		}
		mine := describe(changes, container)
		// A poll lists at most budget blobs, so it sees changes only in the
		// names between its first and last: never all five at once.
		if len(mine) == len(want) {
			t.Fatalf("one poll of %d blobs reported every change: %v", budget, mine)
		}
		got = append(got, mine...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	// Nothing more: a full scan finds the account as the polls left it.
	changes, err := w.Scan(ctx)
	if err != nil || len(describe(changes, container)) != 0 {
		t.Fatalf("a scan after the polls: %v, %v", describe(changes, container), err)
	}
}

// BenchmarkWatcher10000Blobs is the emulator's CPU time (getrusage, this
// process; Azurite's own is not counted) of one poll of an account holding
// a container of 10,000 blobs with nothing changed, beside a full scan: what
// every poll cost before polls were bounded.
func BenchmarkWatcher10000Blobs(b *testing.B) {
	w, client, container := azurite(b)
	upload(b, client, container, names("blob-%05d", 10_000)...)
	ctx := context.Background()
	if _, err := w.Scan(ctx); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"poll", func() error { _, err := w.Poll(ctx, 1000); return err }},
		{"scan", func() error { _, err := w.Scan(ctx); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			before := cpu()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpu()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
