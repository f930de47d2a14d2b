package testkit

import (
	"context"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/pipes"
)

// PipeRole is the role ARN CreatePipe passes when the input names none:
// the emulator keeps roles as written and never assumes them.
const PipeRole = "arn:aws:iam::" + AWSAccount + ":role/gridbridge-pipe"

// Pipes returns an EventBridge Pipes client for the emulator.
func (e *Emulator) Pipes() *pipes.Client { return pipes.NewFromConfig(e.AWSConfig()) }

// PipeFilter selects the journal entries of one pipe, for Journal,
// Deliveries and faults; step "" is every step, else one of "source"
// (polls, redrives, drops), "filter", "enrichment" and "target":
//
//	emu.AddFault(testkit.Fault{Match: testkit.PipeFilter("orders", "enrichment").Labels, Status: 500})
func PipeFilter(pipe, step string) Filter {
	labels := map[string]string{"cloud": "pipes", "pipe": pipe}
	if step != "" {
		labels["step"] = step
	}
	return Filter{Labels: labels}
}

// CreatePipe creates a pipe from an SQS queue to a target (ARNs), with
// what edit adds (filters, an enrichment, parameters), and returns it as
// DescribePipe shows it: RUNNING, or failed with the reason.
//
//	emu.CreatePipe("orders", queueArn, busArn, func(in *pipes.CreatePipeInput) {
//		in.Enrichment = aws.String(apiDestinationArn)
//	})
func (e *Emulator) CreatePipe(name, source, target string, edit ...func(*pipes.CreatePipeInput)) *pipes.DescribePipeOutput {
	e.t.Helper()
	in := &pipes.CreatePipeInput{Name: aws.String(name), Source: aws.String(source), Target: aws.String(target), RoleArn: aws.String(PipeRole)}
	for _, f := range edit {
		f(in)
	}
	c := e.Pipes()
	if _, err := c.CreatePipe(context.Background(), in); err != nil {
		e.fatalf("creating pipe %s: %v", name, err)
	}
	out, err := c.DescribePipe(context.Background(), &pipes.DescribePipeInput{Name: aws.String(name)})
	if err != nil {
		e.fatalf("describing pipe %s: %v", name, err)
	}
	return out
}

// PipeMetrics returns pipe name's counters from GET /_emulator/metrics.
func (e *Emulator) PipeMetrics(name string) PipeMetrics {
	e.t.Helper()
	view, err := e.inspect.Metrics(context.Background())
	if err != nil {
		e.fatalf("reading metrics: %v", err)
	}
	var names []string
	for _, m := range view.Pipes {
		if m.Labels["pipe"] == name {
			return m
		}
		names = append(names, m.Labels["pipe"])
	}
	e.fatalf("no pipe %s; pipes: %s", name, strings.Join(names, ", "))
	return PipeMetrics{}
}

// WaitForPipeDeliveries waits until the target of pipe name has taken at
// least n source messages and returns the journal's delivered entries of
// the pipe (each a batch, its messages' ids in EventIDs).
func (e *Emulator) WaitForPipeDeliveries(name string, n int) []Entry {
	e.t.Helper()
	f := PipeFilter(name, "target")
	deadline := time.Now().Add(e.wait)
	var page JournalPage
	for want := 1; ; {
		var err error
		page, err = e.inspect.WaitEntries(context.Background(), KindDelivered, f, want, max(time.Until(deadline), 0))
		if err != nil {
			e.fatalf("waiting for pipe %s's deliveries: %v", name, err)
		}
		got := 0
		for _, en := range page.Entries {
			got += len(en.EventIDs)
		}
		if got >= n {
			return page.Entries
		}
		if len(page.Entries) < want || !time.Now().Before(deadline) {
			e.fatalf("waited %v for pipe %s to deliver %d messages; it delivered %d.\nIts journal:\n%s",
				e.wait, name, n, got, describe(e.entries("", PipeFilter(name, ""))))
		}
		want = len(page.Entries) + 1
	}
}
