package eventbridge

import (
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// maxBusesPerAccount is EventBridge's quota of event buses per account and
// region, the default bus included.
const maxBusesPerAccount = 100

func checkCreateEventBus(in *createEventBusInput, v *awsjson.Violations) {
	if in.Name == nil {
		v.Required("name")
	} else {
		checkLength(v, in.Name, "name", 1, 256)
		if *in.Name != "" && !busNamePattern.MatchString(*in.Name) {
			v.Add(in.Name, "name", awsjson.Pattern(busNameConstraint))
		}
	}
	checkLength(v, in.Description, "description", 0, 512)
	checkTags(v, in.Tags, "tags")
}

func (s *Service) createEventBus(c *call, in *createEventBusInput, t *tenant) (any, error) {
	if strings.Contains(*in.Name, "/") && in.EventSourceName == nil {
		return nil, awsjson.Validation("Event bus name must not contain '/'.")
	}
	if _, exists := t.buses[*in.Name]; exists {
		return nil, awsjson.AlreadyExists("Event bus %s already exists.", *in.Name)
	}
	if len(t.buses) >= maxBusesPerAccount {
		return nil, awsjson.LimitExceeded()
	}
	b := newBus(t.key, *in.Name, s.clock.Now())
	b.update(in.busSettings)
	t.buses[b.name] = b
	if len(in.Tags) > 0 {
		t.tags[b.arn] = mergeTags(nil, in.Tags)
	}
	return createEventBusOutput{EventBusArn: b.arn, busSettings: b.settings()}, nil
}

func checkBusName(in *nameInput, v *awsjson.Violations) { checkBusRef(v, in.Name, "name") }

func (s *Service) describeEventBus(_ *call, _ *nameInput, b *bus) (any, error) {
	return describeEventBusOutput{
		Name: b.name, Arn: b.arn, Description: b.description, KmsKeyIdentifier: b.kmsKey,
		DeadLetterConfig: b.deadLetter, Policy: b.policyDocument(), LogConfig: b.logConfig,
		timestamps: timesOf(b.created, b.modified),
	}, nil
}

func (s *Service) listEventBuses(_ *call, in *listEventBusesInput, t *tenant) (any, error) {
	items, next, err := listPage(t.buses, nil, in.NamePrefix, in.pageInput, func(b *bus) eventBusItem {
		return eventBusItem{
			Name: b.name, Arn: b.arn, Description: b.description, Policy: b.policyDocument(),
			timestamps: timesOf(b.created, b.modified),
		}
	})
	if err != nil {
		return nil, err
	}
	return listEventBusesOutput{EventBuses: items, NextToken: next}, nil
}

func checkUpdateEventBus(in *updateEventBusInput, v *awsjson.Violations) {
	checkBusRef(v, in.Name, "name")
	checkLength(v, in.Description, "description", 0, 512)
}

func (s *Service) updateEventBus(_ *call, in *updateEventBusInput, b *bus) (any, error) {
	b.update(in.busSettings)
	b.modified = s.clock.Now()
	return updateEventBusOutput{Arn: b.arn, Name: b.name, busSettings: b.settings()}, nil
}

// deleteEventBus deletes a custom bus with its rules and their targets, as
// GridBridge cascades where AWS's docs ask callers to delete rules first.
// It releases the lock before it removes the engine routes, so it decodes
// its input itself rather than run under op.
func (s *Service) deleteEventBus(c *call) (any, error) {
	in, err := decode(c, func(in *nameInput, v *awsjson.Violations) {
		awsjson.Require(v, in.Name, "name")
		checkBusRef(v, in.Name, "name")
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	t, name := s.busRefLocked(c, in.Name)
	if name == defaultBus {
		s.mu.Unlock()
		return nil, awsjson.Validation("Cannot delete event bus default.")
	}
	b, ok := t.buses[name]
	if !ok {
		s.mu.Unlock()
		return nil, awsjson.NotFound("Event bus %s does not exist.", name)
	}
	var routes []string
	for _, r := range b.rules {
		routes = append(routes, s.dropRuleLocked(t, r)...)
	}
	delete(t.buses, name)
	delete(t.tags, b.arn)
	s.mu.Unlock()
	for _, id := range routes {
		s.engine.RemoveRoute(id, "EventBusDeleted")
	}
	return nil, nil
}
