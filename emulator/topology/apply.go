package topology

import (
	"context"
	"net/http"
)

// Apply creates everything the file declares by sending the clouds' own API
// requests to h, the emulator's handler, in file order: Event Grid topics
// (each followed by its event subscriptions), then namespaces (each with
// its topics and their subscriptions), then EventBridge buses (each with
// its rules, each rule followed by its targets), then event buses v2 (each
// followed by its subscribers), then Scheduler's schedule groups (each
// followed by its schedules, after the buses their targets may name).
//
// It stops at the first request the emulator refuses, returning an
// *APIError that names the resource, where the file declares it, and the
// emulator's message; or a *HookMissingError when the emulator ignored a
// GridBridge-only header the file relies on. Resources created before the
// failure stay.
func (f *File) Apply(ctx context.Context, h http.Handler) error {
	a := &applier{ctx: ctx, h: h, file: f.Name}
	if eg := f.EventGrid; eg != nil {
		for _, t := range eg.Topics {
			if err := a.topic(eg, t); err != nil {
				return err
			}
		}
		for _, dm := range eg.Domains {
			if err := a.domain(eg, dm); err != nil {
				return err
			}
		}
		for _, st := range eg.SystemTopics {
			if err := a.systemTopic(eg, st); err != nil {
				return err
			}
		}
		for _, ns := range eg.Namespaces {
			if err := a.namespace(eg, ns); err != nil {
				return err
			}
		}
	}
	if eb := f.EventBridge; eb != nil {
		for _, b := range eb.Buses {
			if err := a.bus(eb, b); err != nil {
				return err
			}
		}
		for _, b := range eb.V2Buses {
			if err := a.v2Bus(eb, b); err != nil {
				return err
			}
		}
		for _, g := range eb.ScheduleGroups {
			if err := a.scheduleGroup(eb, g); err != nil {
				return err
			}
		}
	}
	return nil
}
