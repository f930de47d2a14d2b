package eventsv2

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// System metadata keys (EB-D3): what SYSTEM_METADATA filters match and what
// targets receive beside the event. A key whose value the event lacks
// (no EventGroupId, no DeduplicationId) is left out, so {"exists": false}
// patterns work.
const (
	MetaEventID         = "aws:EventId"
	MetaEventGroupID    = "aws:EventGroupId"
	MetaDeduplicationID = "aws:DeduplicationId"
	MetaIngestionTime   = "aws:IngestionTime"
	MetaDeliveryType    = "aws:DeliveryType"
	MetaEventBusArn     = "aws:EventBusArn"
	MetaSubscriberArn   = "aws:SubscriberArn"
)

// Values of aws:DeliveryType (EB-13).
const (
	DeliveryLive   = "LIVE"
	DeliveryReplay = "REPLAY"
)

// ingestionTimeLayout writes aws:IngestionTime: RFC 3339, UTC, milliseconds.
const ingestionTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// TransportName is how a system metadata key travels as an SQS message
// attribute name and as an HTTP header name: the colon becomes a hyphen
// ("aws:DeliveryType" → "aws-DeliveryType"). Neither SQS attribute names nor
// HTTP header names may contain a colon, and SQS reserves names starting with
// "aws." — so the key cannot travel unchanged, and the hyphen keeps it
// recognisable.
func TransportName(key string) string {
	return strings.Replace(key, ":", "-", 1)
}

// metadataPair is one system metadata key and value.
type metadataPair struct{ key, value string }

// systemMetadata lists an event's system metadata for one delivery, in a
// fixed order so that attributes, headers and the filter object agree.
func systemMetadata(ev *storedEvent, deliveryType, subscriberArn string) []metadataPair {
	pairs := make([]metadataPair, 0, 7)
	pairs = append(pairs, metadataPair{MetaEventID, ev.id})
	if ev.groupID != "" {
		pairs = append(pairs, metadataPair{MetaEventGroupID, ev.groupID})
	}
	if ev.deduplicationID != "" {
		pairs = append(pairs, metadataPair{MetaDeduplicationID, ev.deduplicationID})
	}
	pairs = append(pairs,
		metadataPair{MetaIngestionTime, ev.ingestedAt.UTC().Format(ingestionTimeLayout)},
		metadataPair{MetaDeliveryType, deliveryType},
		metadataPair{MetaEventBusArn, ev.busArn},
		metadataPair{MetaSubscriberArn, subscriberArn},
	)
	return pairs
}

// metadataDocument is the JSON object SYSTEM_METADATA patterns match.
func metadataDocument(pairs []metadataPair) []byte {
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		m[p.key] = p.value
	}
	b, _ := json.Marshal(m) // a map of strings always encodes
	return b
}

// metadataAttributes turns the metadata into SQS message attributes.
func metadataAttributes(pairs []metadataPair) []engine.Attribute {
	attrs := make([]engine.Attribute, len(pairs))
	for i, p := range pairs {
		attrs[i] = engine.Attribute{Name: TransportName(p.key), Type: "String", Value: p.value}
	}
	return attrs
}

// formatRecordTime writes a dead-letter record's timestamps as the seed's
// example does: RFC 3339, UTC, whole seconds.
func formatRecordTime(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}
