package testkit

import (
	"context"
	"fmt"
	"io"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
)

// ReadDeadLetterBlobs lists a dead-letter container with the official
// azblob SDK, the way a user's own dead-letter processor does, and parses
// every blob (EG-23). Records come blob by blob in name order (subscription,
// then date and hour), each blob's in its order. It works against Azurite
// and real Azure Storage alike:
//
//	records, err := testkit.ReadDeadLetterBlobs(ctx, connectionString, "dead")
//	for _, r := range records {
//		if r.Subscription == "AUDIT" && r.DeadLetterReason == "MaxDeliveryAttemptsExceeded" { … }
//	}
func ReadDeadLetterBlobs(ctx context.Context, connectionString, container string) ([]DeadLetterRecord, error) {
	client, err := azblob.NewClientFromConnectionString(connectionString, nil)
	if err != nil {
		return nil, err
	}
	var out []DeadLetterRecord
	pager := client.NewListBlobsFlatPager(container, nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing container %s: %w", container, err)
		}
		for _, item := range page.Segment.BlobItems {
			records, err := readDeadLetterBlob(ctx, client, container, *item.Name)
			if err != nil {
				return nil, err
			}
			out = append(out, records...)
		}
	}
	return out, nil
}

func readDeadLetterBlob(ctx context.Context, client *azblob.Client, container, name string) ([]DeadLetterRecord, error) {
	resp, err := client.DownloadStream(ctx, container, name, nil)
	if err != nil {
		return nil, fmt.Errorf("downloading %s/%s: %w", container, name, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("downloading %s/%s: %w", container, name, err)
	}
	return ParseDeadLetterBlob(name, body)
}

// EventGridDeadLetters returns the dead letters of Event Grid topics (EG-23
// records; namespace records are read with the namespaces package) that
// pass f, as typed records, from the inspection API: the same
// whether they went to Azurite or stayed in the in-memory default, and
// whether the emulator runs in-process or in a container:
//
//	emu.Advance(5 * time.Minute) // EG-21: written 5 minutes after the give-up
//	dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: "audit"})
//	if len(dead) != 1 || dead[0].LastDeliveryOutcome != "BadRequest" { … }
func (e *Emulator) EventGridDeadLetters(f Filter) []DeadLetterRecord {
	e.t.Helper()
	return e.deadLetterRecords(e.DeadLetters(basicTopics(f)))
}

// basicTopics narrows f to Event Grid, so dead letters of other clouds
// (SQS records) never reach the blob parser.
func basicTopics(f Filter) Filter {
	labels := map[string]string{"cloud": "eventgrid"}
	for k, v := range f.Labels {
		labels[k] = v
	}
	f.Labels = labels
	return f
}

// WaitForEventGridDeadLetters waits until at least n dead-letter writes
// pass f, then returns their records (a write may hold several).
func (e *Emulator) WaitForEventGridDeadLetters(f Filter, n int) []DeadLetterRecord {
	e.t.Helper()
	return e.deadLetterRecords(e.waitFor(KindDeadLetter, basicTopics(f), n))
}

func (e *Emulator) deadLetterRecords(entries []Entry) []DeadLetterRecord {
	e.t.Helper()
	var out []DeadLetterRecord
	for _, en := range entries {
		if en.Labels["namespace"] != "" {
			continue // namespace records (NS-4): read them with the namespaces package
		}
		records, err := ParseDeadLetterBlob(en.Destination, en.Body)
		if err != nil {
			e.fatalf("dead letter #%d: %v", en.Seq, err)
		}
		out = append(out, records...)
	}
	return out
}
