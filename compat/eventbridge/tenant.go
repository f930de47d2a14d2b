package eventbridge

import (
	"sync/atomic"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
)

const defaultBus = "default"

// tenantKey is one account in one region: EventBridge resources never cross
// that boundary except through ARNs.
type tenantKey struct {
	account string
	region  string
}

// tenant holds everything one account has in one region.
type tenant struct {
	key             tenantKey
	buses           map[string]*bus
	archives        map[string]*archive
	replays         map[string]*replay
	connections     map[string]*connection
	apiDestinations map[string]*apiDestination
	// tags by resource ARN; the default bus's survive because it is never
	// deleted, while a deleted rule or bus takes its tags with it.
	tags map[string][]awsjson.Tag
}

// tenantLocked returns the tenant of key, creating it with its default bus
// on first use.
func (s *Service) tenantLocked(key tenantKey) *tenant {
	if t, ok := s.tenants[key]; ok {
		return t
	}
	t := &tenant{
		key:             key,
		buses:           make(map[string]*bus),
		archives:        make(map[string]*archive),
		replays:         make(map[string]*replay),
		connections:     make(map[string]*connection),
		apiDestinations: make(map[string]*apiDestination),
		tags:            make(map[string][]awsjson.Tag),
	}
	t.buses[defaultBus] = newBus(key, defaultBus, s.clock.Now())
	s.tenants[key] = t
	return t
}

// callerTenantLocked is the tenant of the account and region that signed c.
func (s *Service) callerTenantLocked(c *call) *tenant {
	return s.tenantLocked(tenantKey{account: c.caller.Account, region: c.caller.Region})
}

// shutdownLocked stops the tenant's timers and returns its route ids, for
// Reset.
func (t *tenant) shutdownLocked() []string {
	var routes []string
	for _, b := range t.buses {
		for _, r := range b.rules {
			r.stopSchedule()
			for _, tg := range r.targets {
				if tg.routeID != "" { // an archive's target has no route
					routes = append(routes, tg.routeID)
				}
			}
		}
	}
	return routes
}

// bus is one event bus and its rules.
type bus struct {
	name, arn   string
	description *string
	kmsKey      *string
	deadLetter  *awsjson.DeadLetterConfig
	logConfig   *logConfig
	created     time.Time
	modified    time.Time
	rules       map[string]*rule
	// matcher holds the patterns of the bus's enabled rules, by rule name.
	matcher *pattern.Matcher
	// matcherVersion changes after every change to matcher, so PutEvents
	// can match outside the service lock and tell, once it holds the lock,
	// whether what it matched against is still the bus's rules.
	matcherVersion atomic.Uint64
	// self is the hops of an event put on the bus directly: its ARN alone.
	// journalLabels label the journal's entries of events the bus accepts.
	// Both are shared by every such event and never modified.
	self          []string
	journalLabels map[string]string
	// policy holds PutPermission statements, in the order they were added;
	// rawPolicy a whole policy given with PutPermission's Policy member.
	policy    []policyStatement
	rawPolicy *string
}

func newBus(key tenantKey, name string, now time.Time) *bus {
	arn := busArn(key, name)
	return &bus{
		name: name, arn: arn, created: now, modified: now,
		rules: make(map[string]*rule), matcher: pattern.NewMatcher(),
		self: []string{arn}, journalLabels: map[string]string{"cloud": "eventbridge", "bus": name},
	}
}

// settings are the bus's settings as CreateEventBus and UpdateEventBus give
// them back.
func (b *bus) settings() busSettings {
	return busSettings{Description: b.description, KmsKeyIdentifier: b.kmsKey, DeadLetterConfig: b.deadLetter, LogConfig: b.logConfig}
}

// update takes the settings that in sets and keeps the others.
func (b *bus) update(in busSettings) {
	setGiven(&b.description, in.Description)
	setGiven(&b.kmsKey, in.KmsKeyIdentifier)
	setGiven(&b.deadLetter, in.DeadLetterConfig)
	setGiven(&b.logConfig, in.LogConfig)
}

// busLocked resolves an EventBusName member (a name, an ARN, or nil for the
// default bus) to a bus, answering AWS's ResourceNotFoundException.
func (s *Service) busLocked(c *call, nameOrArn *string) (*tenant, *bus, error) {
	t, name := s.busRefLocked(c, nameOrArn)
	b, ok := t.buses[name]
	if !ok {
		return t, nil, awsjson.NotFound("Event bus %s does not exist.", name)
	}
	return t, b, nil
}

// busRefLocked names the tenant and bus an EventBusName member refers to,
// whether or not the bus exists.
func (s *Service) busRefLocked(c *call, nameOrArn *string) (*tenant, string) {
	if nameOrArn == nil || *nameOrArn == "" {
		return s.callerTenantLocked(c), defaultBus
	}
	if key, name, ok := parseBusArn(*nameOrArn); ok {
		return s.tenantLocked(key), name
	}
	return s.callerTenantLocked(c), *nameOrArn
}
