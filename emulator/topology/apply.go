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
// followed by its schedules, after the buses their targets may name), then
// the pipes (after the buses they may put events on).
//
// It stops at the first request the emulator refuses, returning an
// *APIError that names the resource, where the file declares it, and the
// emulator's message; or a *HookMissingError when the emulator ignored a
// GridBridge-only header the file relies on. Resources created before the
// failure stay.
func (f *File) Apply(ctx context.Context, h http.Handler) error {
	a := &applier{ctx: ctx, h: h, file: f.Name}
	var steps []func() error
	if eg := f.EventGrid; eg != nil {
		steps = append(steps, each(eg, eg.Topics, a.topic), each(eg, eg.Domains, a.domain),
			each(eg, eg.SystemTopics, a.systemTopic), each(eg, eg.Namespaces, a.namespace))
	}
	if eb := f.EventBridge; eb != nil {
		steps = append(steps, each(eb, eb.Buses, a.bus), each(eb, eb.V2Buses, a.v2Bus),
			each(eb, eb.ScheduleGroups, a.scheduleGroup), each(eb, eb.Pipes, a.pipe))
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// each is the step that applies every resource of one list, in the file's
// order, stopping at the first the emulator refuses.
func each[S, R any](section S, resources []R, apply func(S, R) error) func() error {
	return func() error {
		for _, r := range resources {
			if err := apply(section, r); err != nil {
				return err
			}
		}
		return nil
	}
}
