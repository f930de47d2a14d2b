package eventsv2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// PutEvents limits, as for classic buses.
const (
	maxEntries          = 10
	maxEntriesBytes     = 256 * 1024
	maxGroupOrDedupID   = 128
	entryTimeFieldBytes = 14 // what a Time member counts toward the size limit
)

// Per-entry error codes of PutEvents.
const (
	entryInvalidArgument = "InvalidArgument"
	entryMalformedDetail = "MalformedDetail"
	entryBusNotFound     = "ResourceNotFoundException"
)

func (s *Service) putEvents(sc scope, in *putEventsInput) (putEventsOutput, error) {
	var v awsjson.Violations
	switch {
	case in.Entries == nil:
		v.Required("entries")
	case len(in.Entries) < 1:
		v.Add(ptr("[]"), "entries", awsjson.MinLength(1))
	case len(in.Entries) > maxEntries:
		v.Add(ptr(fmt.Sprintf("[%d entries]", len(in.Entries))), "entries", awsjson.MaxLength(maxEntries))
	}
	if err := v.Err(); err != nil {
		return putEventsOutput{}, err
	}
	if entriesSize(in.Entries) > maxEntriesBytes {
		return putEventsOutput{}, awsjson.Validation("Total size of the entries in the request is over the limit.")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now().UTC()
	out := putEventsOutput{Entries: make([]putEventsResult, len(in.Entries))}
	batches := newHandOut()
	for i := range in.Entries {
		r := s.putEntryLocked(sc, &in.Entries[i], now, batches)
		if r.ErrorCode != "" {
			out.FailedEntryCount++
		}
		out.Entries[i] = r
	}
	batches.enqueue()
	return out, nil
}

// putEntryLocked accepts one entry, or says why not.
func (s *Service) putEntryLocked(sc scope, e *putEventsEntry, now time.Time, out *handOut) putEventsResult {
	fail := func(code, format string, args ...any) putEventsResult {
		return putEventsResult{ErrorCode: code, ErrorMessage: fmt.Sprintf(format, args...)}
	}
	switch {
	case e.EventBusArn == nil || *e.EventBusArn == "":
		return fail(entryInvalidArgument, "Parameter EventBusArn is not valid. Reason: EventBusArn is a required argument.")
	case e.Source == nil || *e.Source == "":
		return fail(entryInvalidArgument, "Parameter Source is not valid. Reason: Source is a required argument.")
	case e.DetailType == nil || *e.DetailType == "":
		return fail(entryInvalidArgument, "Parameter DetailType is not valid. Reason: DetailType is a required argument.")
	case e.Detail == nil:
		return fail(entryInvalidArgument, "Parameter Detail is not valid. Reason: Detail is a required argument.")
	case e.EventGroupId != nil && (len(*e.EventGroupId) < 1 || len(*e.EventGroupId) > maxGroupOrDedupID):
		return fail(entryInvalidArgument, "Parameter EventGroupId is not valid. Reason: it must be 1 to %d characters long.", maxGroupOrDedupID)
	case e.DeduplicationId != nil && (len(*e.DeduplicationId) < 1 || len(*e.DeduplicationId) > maxGroupOrDedupID):
		return fail(entryInvalidArgument, "Parameter DeduplicationId is not valid. Reason: it must be 1 to %d characters long.", maxGroupOrDedupID)
	case e.EventGroupId != nil && !sqsIDChars(*e.EventGroupId):
		return fail(entryInvalidArgument, "Parameter EventGroupId is not valid. Reason: %s", sqsIDCharsRule)
	case e.DeduplicationId != nil && !sqsIDChars(*e.DeduplicationId):
		return fail(entryInvalidArgument, "Parameter DeduplicationId is not valid. Reason: %s", sqsIDCharsRule)
	}
	detail := bytes.TrimSpace([]byte(*e.Detail))
	if len(detail) == 0 || detail[0] != '{' || !json.Valid(detail) {
		return fail(entryMalformedDetail, "Detail is malformed.")
	}
	b, err := s.busLocked(sc, e.EventBusArn, "eventBusArn")
	if err != nil {
		var apiErr *awsjson.Error
		if errors.As(err, &apiErr) && apiErr.Code != awsjson.CodeResourceNotFound {
			return fail(entryInvalidArgument, "%s", apiErr.Message)
		}
		return fail(entryBusNotFound, "Event bus %s does not exist.", *e.EventBusArn)
	}
	if id, dup := b.duplicateOf(deref(e.DeduplicationId), now); dup {
		return putEventsResult{EventId: id}
	}
	eventTime := now
	if e.Time != nil && !e.Time.IsZero() {
		eventTime = e.Time.Time.UTC()
	}
	ev := &storedEvent{
		id:              s.newID(IDKindEvent),
		busArn:          b.arn,
		groupID:         deref(e.EventGroupId),
		deduplicationID: deref(e.DeduplicationId),
		ingestedAt:      now,
	}
	ev.envelope = envelope(ev.id, *e.DetailType, *e.Source, b, eventTime, e.Resources, detail)
	b.remember(ev.deduplicationID, ev.id, now)
	s.ingestLocked(b, ev, out)
	return putEventsResult{EventId: ev.id}
}

// ingestLocked retains ev on b and hands it to every live subscriber whose
// window and filters let it through.
func (s *Service) ingestLocked(b *eventBus, ev *storedEvent, out *handOut) {
	b.retain(ev, ev.ingestedAt)
	for _, sub := range b.subscribers {
		if it, ok := sub.admit(sub.config(), ev, DeliveryLive, ev.ingestedAt); ok {
			out.add(sub, it)
		}
	}
}

// forward puts ev on the v2 bus targetArn names (a bus target). It returns
// the EB-8 code and message when that cannot be done.
func (s *Service) forward(ev *storedEvent, targetArn string) (code, message string) {
	if targetArn == ev.busArn || slices.Contains(ev.path, targetArn) {
		return CodeLoopDetected, fmt.Sprintf("Event %s already passed through %s.", ev.id, targetArn)
	}
	ref, ok := parseEventsARN(targetArn, busResourceType)
	if !ok {
		return CodeResourceNotFound, cantAccessMessage(targetArn)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.busByRefLocked(ref)
	if b == nil {
		return CodeResourceNotFound, cantAccessMessage(targetArn)
	}
	fwd := *ev
	fwd.busArn = b.arn
	fwd.ingestedAt = s.clock.Now().UTC()
	fwd.path = append(slices.Clip(ev.path), ev.busArn)
	out := newHandOut()
	s.ingestLocked(b, &fwd, out)
	out.enqueue()
	return "", ""
}

// handOut gathers what one request hands to each subscriber, so the events
// of one PutEvents reach the engine together and can share a batch.
type handOut struct {
	order []*subscriber
	items map[*subscriber][]*engine.Item
}

func newHandOut() *handOut { return &handOut{items: make(map[*subscriber][]*engine.Item)} }

func (h *handOut) add(sub *subscriber, it *engine.Item) {
	if _, seen := h.items[sub]; !seen {
		h.order = append(h.order, sub)
	}
	h.items[sub] = append(h.items[sub], it)
}

func (h *handOut) enqueue() {
	for _, sub := range h.order {
		sub.enqueue(h.items[sub], DeliveryLive)
	}
}

// envelope builds the event as targets receive it, keys in the order
// EventBridge delivers them.
func envelope(id, detailType, source string, b *eventBus, t time.Time, resources []string, detail []byte) []byte {
	if resources == nil {
		resources = []string{}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, detail) != nil {
		compact.Reset()
		compact.Write(detail)
	}
	doc, _ := json.Marshal(struct {
		Version    string          `json:"version"`
		ID         string          `json:"id"`
		DetailType string          `json:"detail-type"`
		Source     string          `json:"source"`
		Account    string          `json:"account"`
		Time       string          `json:"time"`
		Region     string          `json:"region"`
		Resources  []string        `json:"resources"`
		Detail     json.RawMessage `json:"detail"`
	}{"0", id, detailType, source, b.account, t.Format(time.RFC3339), b.region, resources, compact.Bytes()})
	return doc
}

// entriesSize is the size PutEvents' limit counts: the UTF-8 bytes of
// Source, DetailType, Detail and Resources, and 14 bytes for a Time.
func entriesSize(entries []putEventsEntry) int {
	n := 0
	for _, e := range entries {
		if e.Time != nil {
			n += entryTimeFieldBytes
		}
		n += len(deref(e.Source)) + len(deref(e.DetailType)) + len(deref(e.Detail))
		for _, r := range e.Resources {
			n += len(r)
		}
	}
	return n
}

// sqsIDCharsRule is SQS's rule for MessageGroupId and MessageDeduplicationId,
// which a subscriber's FIFO queue receives these ids as: a CR, LF, NUL or
// space would otherwise be accepted here and refused at delivery.
const sqsIDCharsRule = "it can contain only alphanumeric characters (a-z, A-Z, 0-9) and punctuation (!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~)."

// sqsIDChars reports whether id holds only printable ASCII without spaces.
func sqsIDChars(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}
