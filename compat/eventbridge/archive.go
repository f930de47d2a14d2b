package eventbridge

import (
	"encoding/json"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
)

const archiveEnabled = "ENABLED"

// archive keeps the events a bus accepted (those its pattern matches), on
// the emulator clock, for replays.
type archive struct {
	name, arn     string
	sourceArn     string
	busName       string
	description   *string
	eventPattern  *string
	compiled      *pattern.Pattern
	retentionDays int32
	kmsKey        *string
	created       time.Time
	events        []archivedEvent
	sizeBytes     int64
	// rule is the archive's managed rule on its bus (Events-Archive-<name>),
	// which sends it the bus's events: deleted, or without its target, the
	// archive keeps no more.
	rule *rule
}

// An archive's managed rule: its name's prefix, the service that manages it,
// and the member of its pattern that keeps replays out (AWS does not archive
// replayed events again).
const (
	archiveRulePrefix = "Events-Archive-"
	eventsPrincipal   = "events.amazonaws.com"
	notReplayed       = `[{"exists":false}]`
)

// archiveRulePattern is the event pattern of an archive's rule: the
// archive's own pattern (one parsePattern accepted: a JSON object), or every
// event, with "replay-name" absent.
func archiveRulePattern(archivePattern *string) string {
	members := map[string]json.RawMessage{}
	if archivePattern != nil {
		_ = json.Unmarshal([]byte(*archivePattern), &members)
	}
	members["replay-name"] = json.RawMessage(notReplayed)
	out, _ := json.Marshal(members)
	return string(out)
}

// putArchiveRule puts a's managed rule on bus b, with its one target, the
// archive. The rule is outside the bus's matcher: archiveLocked keeps the
// events it would match, and its target has no engine route.
func putArchiveRule(t *tenant, b *bus, a *archive, createdBy string) {
	name := archiveRulePrefix + a.name
	r := &rule{
		tenant: t.key, bus: b, name: name, arn: ruleArn(t.key, b.name, name), createdBy: createdBy,
		state: stateEnabled, managedBy: ptr(eventsPrincipal),
		eventPattern: ptr(archiveRulePattern(a.eventPattern)),
	}
	r.targets = []*target{{shape: &targetShape{Id: ptr(name), TargetInvocation: awsjson.TargetInvocation{Arn: ptr(a.arn)}}}}
	b.rules[name] = r
	a.rule = r
}

// receiving reports whether the archive's rule still sends it events.
func (a *archive) receiving() bool {
	if a.rule == nil || a.rule.deleted {
		return false
	}
	tg, _ := a.rule.target(archiveRulePrefix + a.name)
	return tg != nil
}

type archivedEvent struct {
	at  time.Time // when the bus accepted it
	env envelope
	raw []byte
}

// archiveLocked stores ev in every archive of bus b that wants it. Replayed
// events never reach here: AWS does not archive them again.
func (s *Service) archiveLocked(t *tenant, b *bus, ev *event) {
	for _, a := range t.archives {
		if a.busName != b.name || !a.receiving() {
			continue
		}
		a.expireLocked(ev.ingested)
		if a.compiled != nil {
			if ok, err := a.compiled.Match(ev.raw); err != nil || !ok {
				continue
			}
		}
		a.events = append(a.events, archivedEvent{at: ev.ingested, env: ev.env, raw: ev.raw})
		a.sizeBytes += int64(len(ev.raw))
	}
}

// expireLocked forgets events older than the retention period; 0 days keeps
// them forever.
func (a *archive) expireLocked(now time.Time) {
	if a.retentionDays <= 0 {
		return
	}
	cutoff := now.Add(-time.Duration(a.retentionDays) * 24 * time.Hour)
	n := 0
	for n < len(a.events) && a.events[n].at.Before(cutoff) {
		a.sizeBytes -= int64(len(a.events[n].raw))
		n++
	}
	if n > 0 {
		a.events = append([]archivedEvent(nil), a.events[n:]...)
	}
}

func (a *archive) item() archiveItem {
	return archiveItem{
		ArchiveName: a.name, EventSourceArn: a.sourceArn, stateWithReason: stateWithReason{State: archiveEnabled}, RetentionDays: a.retentionDays,
		SizeBytes: a.sizeBytes, EventCount: int64(len(a.events)), CreationTime: timestamp(a.created),
	}
}
