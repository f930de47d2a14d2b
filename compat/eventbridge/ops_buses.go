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

// createEventBus creates a custom bus. A partner bus (EventSourceName) needs
// a partner event source, which only a SaaS partner can create and
// GridBridge has none of: every one named does not exist.
func (s *Service) createEventBus(c *call, in *createEventBusInput, t *tenant) (any, error) {
	if in.EventSourceName != nil {
		return nil, awsjson.NotFound("Event source %s does not exist.", *in.EventSourceName)
	}
	if strings.Contains(*in.Name, "/") {
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

func checkDeleteEventBus(in *nameInput, v *awsjson.Violations) {
	awsjson.Require(v, in.Name, "name")
	checkBusRef(v, in.Name, "name")
}

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

// deleteEventBus deletes a custom bus that has no rules left. AWS refuses a
// bus with rules (the docs: "All rules associated with this event bus need
// to be deleted"; its answer as AWS gives it); an archive's managed rule
// counts, so a bus's archives go first. A bus that does not exist is
// deleted already: the model declares no ResourceNotFoundException for
// DeleteEventBus, and AWS answers 200.
func (s *Service) deleteEventBus(c *call, in *nameInput, _ *tenant) (any, error) {
	t, name := s.busRefLocked(c, in.Name)
	if name == defaultBus {
		return nil, awsjson.Validation("Cannot delete event bus default.")
	}
	b, ok := t.buses[name]
	if !ok {
		return nil, nil
	}
	if len(b.rules) > 0 {
		return nil, awsjson.Validation("EventBus can't be deleted since it has rules.")
	}
	delete(t.buses, name)
	delete(t.tags, b.arn)
	return nil, nil
}
