package namespaces_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
)

func publishN(b *testing.B, sender *aznamespaces.SenderClient, n, batch int) {
	b.Helper()
	for sent := 0; sent < n; {
		size := min(batch, n-sent)
		events := make([]*messaging.CloudEvent, size)
		for i := range events {
			ev := newEvent(b, "bench.event", map[string]int{"i": sent + i})
			events[i] = &ev
		}
		if _, err := sender.SendEvents(context.Background(), events, nil); err != nil {
			b.Fatal(err)
		}
		sent += size
	}
}

// BenchmarkReceiveLatencyWhenReady is one SDK receive over TLS when an event
// is already available: the time from request to response.
func BenchmarkReceiveLatencyWhenReady(b *testing.B) {
	h := newHarness(b)
	p := h.pull(b, queueProps(300, 10, "", nil))
	publishN(b, p.sender, b.N, 1000)
	ctx := context.Background()
	opts := &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](1), MaxWaitTime: to.Ptr[int32](10)}
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		begin := time.Now()
		resp, err := p.receiver.ReceiveEvents(ctx, opts)
		lat[i] = time.Since(begin)
		if err != nil || len(resp.Details) != 1 {
			b.Fatalf("receive %d: %v, %d events", i, err, len(resp.Details))
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkPublishReceiveAckThroughput runs four publish → receive → ack
// pipelines (one topic and subscription each) in batches of 100 events.
func BenchmarkPublishReceiveAckThroughput(b *testing.B) {
	const pipelines, batch = 4, 100
	h := newHarness(b)
	ns := h.createNamespace(b, uniqueName("ns-"))
	type pipe struct {
		sender   *aznamespaces.SenderClient
		receiver *aznamespaces.ReceiverClient
	}
	pipes := make([]pipe, pipelines)
	for i := range pipes {
		topic := fmt.Sprintf("topic-%d", i)
		h.createTopic(b, ns.name, topic)
		h.createSubscription(b, ns.name, topic, "sub", queueProps(300, 10, "", nil))
		pipes[i] = pipe{h.sender(b, ns, topic), h.receiver(b, ns, topic, "sub")}
	}
	perPipe := (b.N + pipelines - 1) / pipelines
	ctx := context.Background()
	recvOpts := &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](batch), MaxWaitTime: to.Ptr[int32](10)}
	events := make([]*messaging.CloudEvent, batch)
	for i := range events {
		ev := newEvent(b, "bench.event", map[string]int{"i": i})
		events[i] = &ev
	}
	var wg sync.WaitGroup
	errs := make(chan error, pipelines)
	b.ResetTimer()
	begin := time.Now()
	for _, p := range pipes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < perPipe; {
				n := min(batch, perPipe-done)
				if _, err := p.sender.SendEvents(ctx, events[:n], nil); err != nil {
					errs <- err
					return
				}
				for acked := 0; acked < n; {
					resp, err := p.receiver.ReceiveEvents(ctx, recvOpts)
					if err != nil {
						errs <- err
						return
					}
					tokens := make([]string, len(resp.Details))
					for i, d := range resp.Details {
						tokens[i] = *d.BrokerProperties.LockToken
					}
					ack, err := p.receiver.AcknowledgeEvents(ctx, tokens, nil)
					if err != nil || len(ack.FailedLockTokens) > 0 {
						errs <- fmt.Errorf("ack: %v, %d failed", err, len(ack.FailedLockTokens))
						return
					}
					acked += len(tokens)
				}
				done += n
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(perPipe*pipelines)/elapsed.Seconds(), "events/s")
}
