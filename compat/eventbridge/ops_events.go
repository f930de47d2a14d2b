package eventbridge

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

const (
	maxEntriesPerRequest = 10
	// maxPutEventsSize is the 256 KB limit on a PutEvents request, counted
	// the way AWS documents (see entrySize).
	maxPutEventsSize = 256 * 1024
)

// putEventsBusPattern is EventBusName in PutEvents entries: like elsewhere,
// but a name may not contain '/'.
var putEventsBusPattern = regexp.MustCompile(`^(arn:aws[\w-]*:events:[a-z]+-[a-z]+-[\w-]+:[0-9]{12}:event-bus/)?[\.\-_A-Za-z0-9]+$`)

func checkPutEvents(in *putEventsInput, v *awsjson.Violations) {
	switch {
	case in.Entries == nil:
		v.Required("entries")
	case len(in.Entries) == 0:
		v.Add(ptr("[]"), "entries", awsjson.MinLength(1))
	case len(in.Entries) > maxEntriesPerRequest:
		v.Add(ptr(javaEntries(in.Entries)), "entries", awsjson.MaxLength(maxEntriesPerRequest))
	}
	for i, e := range in.Entries {
		if e == nil {
			v.Required(fmt.Sprintf("entries.%d.member", i+1))
			continue
		}
		if e.EventBusName != nil && (*e.EventBusName == "" || !putEventsBusPattern.MatchString(*e.EventBusName)) {
			v.Add(e.EventBusName, fmt.Sprintf("entries.%d.member.eventBusName", i+1),
				awsjson.Pattern(`(arn:aws[\w-]*:events:[a-z]+-[a-z]+-[\w-]+:[0-9]{12}:event-bus\/)?[\.\-_A-Za-z0-9]+`))
		}
	}
}

// putEvents refuses an oversize request before it takes the lock, and
// releases it before it hands events to the engine, so it decodes its input
// itself rather than run under op.
//
// It holds the service lock twice, briefly: to find the entries' buses, and
// to let the events in (acceptLocked: journal, archive, and the targets of
// the rules they matched). Checking entries, encoding events, matching them against their
// bus's rules and rendering the targets' inputs need no service state and
// happen outside it, so concurrent calls do that work in parallel.
func (s *Service) putEvents(c *call) (any, error) {
	in, err := decodePutEvents(c)
	if err != nil {
		return nil, err
	}
	size := 0
	for _, e := range in.Entries {
		size += entrySize(e)
	}
	if size > maxPutEventsSize {
		return nil, awsjson.Validation("Total size of the entries in the request is over the limit.")
	}

	now := s.clock.Now()
	out := putEventsOutput{Entries: make([]putEventsResultEntry, len(in.Entries))}
	sc := s.putEventsScratch(len(in.Entries))
	defer s.putScratch.Put(sc)
	defer sc.release()
	entries := sc.entries
	ids := newEventIDs(len(in.Entries))
	for i, e := range in.Entries {
		env, code, msg := entryEnvelope(e)
		if code != "" {
			out.Entries[i] = putEventsResultEntry{ErrorCode: ptr(code), ErrorMessage: ptr(msg)}
			out.FailedEntryCount++
			continue
		}
		env.ID = ids[i]
		ev := &event{env: env, ingested: now}
		entries[i].ev = ev
		out.Entries[i] = putEventsResultEntry{EventId: &ev.env.ID}
	}
	s.mu.Lock()
	for i := range entries {
		if a := &entries[i]; a.ev != nil {
			a.t, a.name = s.busRefLocked(c, in.Entries[i].EventBusName)
			a.b = a.t.buses[a.name]
		}
	}
	s.mu.Unlock()
	for i := range entries {
		a := &entries[i]
		if a.ev == nil || a.b == nil {
			continue
		}
		// A tenant's key and a bus's ARN never change once made.
		env := &a.ev.env
		env.Account, env.Region = a.t.key.account, a.t.key.region
		if env.Time.IsZero() {
			env.Time = now
		}
		a.ev.raw, a.ev.hops = env.encode(), a.b.self
		a.m = a.b.match(a.ev)
	}
	deliveries, journal := sc.deliveries, sc.journal
	s.mu.Lock()
	acceptedAt := s.clock.Now()
	for i := range entries {
		a := &entries[i]
		if a.ev == nil {
			continue
		}
		if a.b == nil || a.t.buses[a.name] != a.b {
			// AWS accepts an event for a bus that does not exist and drops
			// it; GridBridge says so in the journal (D-DROP). A bus deleted
			// since it was looked up counts as never there.
			journal = append(journal, engine.Entry{
				Time: now, Kind: engine.KindDrop, EventIDs: []string{a.ev.env.ID}, Outcome: "EventBusNotFound",
				Labels:  map[string]string{"cloud": "eventbridge", "bus": a.name},
				Message: fmt.Sprintf("event bus %s does not exist in account %s, region %s", a.name, a.t.key.account, a.t.key.region),
			})
			continue
		}
		if a.t.key.account != c.caller.Account && !a.b.allowsPutEvents(c.caller.Account) {
			// Cross-account PutEvents needs the bus's resource policy.
			code, msg := accessDenied(c.caller.Account, a.b.arn)
			out.Entries[i] = putEventsResultEntry{ErrorCode: ptr(code), ErrorMessage: ptr(msg)}
			out.FailedEntryCount++
			continue
		}
		journal, deliveries = s.acceptLocked(a, acceptedAt, journal, deliveries)
	}
	// Journalled under the lock, so the journal lists events in the order
	// their buses accepted (and archived) them.
	s.engine.Journal().AppendAll(journal)
	s.mu.Unlock()
	s.enqueue(deliveries)
	sc.journal, sc.deliveries = journal, deliveries // to clear what they grew to
	return out.encode(), nil
}

// putEventsScratch is one PutEvents call's working storage, reused by the
// calls that follow: none of it outlives the call (the journal copies its
// entries, enqueue makes items of the deliveries).
type putEventsScratch struct {
	entries    []arrival
	journal    []engine.Entry
	deliveries []delivery
}

// putEventsScratch returns storage for a call of n entries.
func (s *Service) putEventsScratch(n int) *putEventsScratch {
	sc, _ := s.putScratch.Get().(*putEventsScratch)
	if sc == nil {
		sc = new(putEventsScratch)
	}
	if cap(sc.entries) < n {
		sc.entries = make([]arrival, n)
	}
	sc.entries = sc.entries[:n]
	return sc
}

// release lets go of everything the storage refers to, so a pooled scratch
// keeps no event alive.
func (sc *putEventsScratch) release() {
	clear(sc.entries)
	clear(sc.journal)
	clear(sc.deliveries)
	sc.entries, sc.journal, sc.deliveries = sc.entries[:0], sc.journal[:0], sc.deliveries[:0]
}

// encode writes the answer. When every entry was accepted it is only event
// ids, which GridBridge made (hex digits and dashes), and is written
// directly; an answer with errors goes through encoding/json.
func (o *putEventsOutput) encode() any {
	if o.FailedEntryCount > 0 {
		return o
	}
	b := make([]byte, 0, len(`{"FailedEntryCount":0,"Entries":[]}`)+len(o.Entries)*len(`{"EventId":"00000000-0000-0000-0000-000000000000"},`))
	b = append(b, `{"FailedEntryCount":0,"Entries":[`...)
	for i, e := range o.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"EventId":"`...)
		b = append(b, *e.EventId...)
		b = append(b, `"}`...)
	}
	return json.RawMessage(append(b, "]}"...))
}

// newEventIDs returns n random (version 4) UUIDs, from one read of the
// system's random source rather than one per event.
func newEventIDs(n int) []string {
	var buf [16 * maxEntriesPerRequest]byte // on the stack: a call has at most 10 entries
	var raw []byte
	if n <= maxEntriesPerRequest {
		raw = buf[:16*n]
	} else {
		raw = make([]byte, 16*n)
	}
	_, _ = rand.Read(raw) // crypto/rand.Read never fails
	ids := make([]string, n)
	for i := range ids {
		var u uuid.UUID
		copy(u[:], raw[16*i:])
		u[6] = u[6]&0x0f | 0x40 // version 4
		u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
		ids[i] = u.String()
	}
	return ids
}

// entryEnvelope checks one entry and builds its envelope, or returns the
// per-entry error code and message AWS answers.
func entryEnvelope(e *putEventsEntry) (env envelope, code, msg string) {
	switch {
	case e.Source == nil || *e.Source == "":
		return env, "InvalidArgument", "Parameter Source is not valid. Reason: Source is a required argument."
	case e.DetailType == nil || *e.DetailType == "":
		return env, "InvalidArgument", "Parameter DetailType is not valid. Reason: DetailType is a required argument."
	case e.Detail == nil || *e.Detail == "":
		return env, "InvalidArgument", "Parameter Detail is not valid. Reason: Detail is a required argument."
	}
	detail, ok := compactObject(*e.Detail)
	if !ok {
		return env, "MalformedDetail", "Detail is malformed."
	}
	env = envelope{DetailType: *e.DetailType, Source: *e.Source, Resources: e.Resources, Detail: detail}
	if e.Time != nil {
		env.Time = e.Time.Time
	}
	return env, "", ""
}

// entrySize counts an entry toward the 256 KB limit as AWS documents it:
// 14 bytes for a Time, plus the UTF-8 bytes of Source, DetailType, Detail
// and every Resource.
func entrySize(e *putEventsEntry) int {
	n := len(deref(e.Source)) + len(deref(e.DetailType)) + len(deref(e.Detail))
	if e.Time != nil {
		n += 14
	}
	for _, r := range e.Resources {
		n += len(r)
	}
	return n
}

// javaEntries renders entries the way AWS's validation message quotes the
// rejected list (Java's toString of the request entries).
func javaEntries(entries []*putEventsEntry) string {
	parts := make([]string, 0, len(entries))
	for _, e := range entries {
		if e == nil {
			parts = append(parts, "null")
			continue
		}
		var t, resources string = "null", "null"
		if e.Time != nil {
			t = e.Time.UTC().Format(time.RFC3339)
		}
		if e.Resources != nil {
			resources = "[" + strings.Join(e.Resources, ", ") + "]"
		}
		parts = append(parts, fmt.Sprintf("PutEventsRequestEntry(time=%s, source=%s, resources=%s, detailType=%s, detail=%s, eventBusName=%s, traceHeader=%s)",
			t, javaString(e.Source), resources, javaString(e.DetailType), javaString(e.Detail), javaString(e.EventBusName), javaString(e.TraceHeader)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func javaString(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// requiredEventKeys are the envelope members TestEventPattern insists on.
var requiredEventKeys = []string{"id", "account", "source", "time", "region", "detail-type"}

func checkTestEventPattern(in *testEventPatternInput, v *awsjson.Violations) {
	if in.EventPattern == nil {
		v.Required("eventPattern")
	}
	if in.Event == nil {
		v.Required("event")
	}
	checkLength(v, in.EventPattern, "eventPattern", 0, maxPatternLength)
}

// testEventPattern touches no state, so it needs no lock.
func (s *Service) testEventPattern(c *call) (any, error) {
	in, err := decode(c, checkTestEventPattern)
	if err != nil {
		return nil, err
	}
	p, err := parsePattern(*in.EventPattern)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(*in.Event), &fields) != nil || fields == nil {
		return nil, awsjson.Validation("Parameter Event is not valid.")
	}
	for _, k := range requiredEventKeys {
		if _, ok := fields[k]; !ok {
			return nil, awsjson.Validation("Parameter Event is not valid.")
		}
	}
	matched, err := p.Match([]byte(*in.Event))
	if err != nil {
		return nil, awsjson.Validation("Parameter Event is not valid.")
	}
	return testEventPatternOutput{Result: matched}, nil
}
