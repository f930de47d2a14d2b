package testkit

import (
	"context"
	"fmt"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// RepublishDeadLetters publishes dead-lettered events back to a topic with
// the official azeventgrid client (the rehydrate use case, NS-10), in the
// form the topic's input schema takes:
//   - EventGridSchema: each record's Event, without topic and
//     metadataVersion (the service stamps those; keeping them would tie the
//     event to the topic it first went to);
//   - CloudEventSchemaV1_0: each record's Event as a CloudEvent, data kept
//     byte for byte;
//   - CustomEventSchema: each record's Data, the event as first published.
//
// It works against the emulator and real Azure alike:
//
//	records, _ := testkit.ReadDeadLetterBlobs(ctx, conn, "dead")
//	err := testkit.RepublishDeadLetters(ctx, publisher, armeventgrid.InputSchemaEventGridSchema, records)
func RepublishDeadLetters(ctx context.Context, client *azeventgrid.Client, topicSchema armeventgrid.InputSchema, records []DeadLetterRecord) error {
	if len(records) == 0 {
		return nil
	}
	switch topicSchema {
	case armeventgrid.InputSchemaEventGridSchema, "":
		events := make([]azeventgrid.Event, len(records))
		for i, r := range records {
			if err := events[i].UnmarshalJSON(r.Event); err != nil {
				return fmt.Errorf("dead letter %s is not an Event Grid event: %w", r.ID, err)
			}
			events[i].Topic, events[i].MetadataVersion = nil, nil
			if r.Data != nil {
				events[i].Data = r.Data // as published, not re-encoded
			}
		}
		_, err := client.PublishEvents(ctx, events, nil)
		return err
	case armeventgrid.InputSchemaCloudEventSchemaV10:
		events := make([]messaging.CloudEvent, len(records))
		for i, r := range records {
			if err := events[i].UnmarshalJSON(r.Event); err != nil {
				return fmt.Errorf("dead letter %s is not a CloudEvent: %w", r.ID, err)
			}
			if r.Data != nil {
				// The SDK keeps JSON data as []byte, which it would send as
				// data_base64; a RawMessage goes out as the JSON it is.
				events[i].Data = r.Data
			}
		}
		_, err := client.PublishCloudEvents(ctx, events, nil)
		return err
	case armeventgrid.InputSchemaCustomEventSchema:
		events := make([]any, len(records))
		for i, r := range records {
			if r.Data == nil {
				return fmt.Errorf("dead letter %s has no data: it is not a custom-schema dead letter", r.ID)
			}
			events[i] = r.Data
		}
		_, err := client.PublishCustomEventEvents(ctx, events, nil)
		return err
	}
	return fmt.Errorf("unknown topic input schema %q", topicSchema)
}

// RepublishDeadLetters publishes records back to topic (in ResourceGroup),
// reading the topic's endpoint, key and input schema through ARM; see the
// package function of the same name for what is sent:
//
//	dead := emu.EventGridDeadLetters(testkit.Filter{Subscription: "audit"})
//	// … fix the endpoint …
//	emu.RepublishDeadLetters("orders", dead)
func (e *Emulator) RepublishDeadLetters(topic string, records []DeadLetterRecord) {
	e.t.Helper()
	got, err := e.ARM().NewTopicsClient().Get(context.Background(), ResourceGroup, topic, nil)
	if err != nil {
		e.fatalf("reading topic %q: %v", topic, err)
	}
	var schema armeventgrid.InputSchema
	if got.Properties != nil && got.Properties.InputSchema != nil {
		schema = *got.Properties.InputSchema
	}
	if err := RepublishDeadLetters(context.Background(), e.EventGridPublisher(topic), schema, records); err != nil {
		e.fatalf("re-publishing %d dead letters to %q: %v", len(records), topic, err)
	}
}
