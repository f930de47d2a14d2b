package namespaces

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/cloudevent"
)

// Republish sends dead-lettered events back to the sender's topic (NS-10),
// in batches of at most 1,000 (the publish limit), each event with the id,
// attributes and data it was published with.
func Republish(ctx context.Context, sender *aznamespaces.SenderClient, records []DeadLetterRecord) error {
	events := make([]*messaging.CloudEvent, 0, len(records))
	for i, r := range records {
		ev, err := RecordEvent(r)
		if err != nil {
			return fmt.Errorf("namespaces: record %d: %w", i, err)
		}
		events = append(events, ev)
	}
	for len(events) > 0 {
		n := min(len(events), cloudevent.MaxEventsPerRequest)
		if _, err := sender.SendEvents(ctx, events[:n], nil); err != nil {
			return fmt.Errorf("namespaces: re-publishing %d event(s): %w", n, err)
		}
		events = events[n:]
	}
	return nil
}

// RecordEvent turns a dead-letter record's event into the SDK's CloudEvent.
// The SDK decodes `data` to raw JSON bytes, which it would send back as
// data_base64; the data is kept as JSON instead, so the event goes out as it
// came in.
func RecordEvent(r DeadLetterRecord) (*messaging.CloudEvent, error) {
	var ev messaging.CloudEvent
	if err := json.Unmarshal(r.Event, &ev); err != nil {
		return nil, err
	}
	var attrs struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Event, &attrs); err != nil {
		return nil, err
	}
	if len(attrs.Data) > 0 {
		ev.Data = attrs.Data
	}
	return &ev, nil
}
