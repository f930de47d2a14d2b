package eventbridge

import (
	"time"

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
		if a.busName != b.name {
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
