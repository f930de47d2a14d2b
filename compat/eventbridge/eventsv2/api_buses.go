package eventsv2

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

func (s *Service) createEventBus(sc scope, in *createEventBusInput) (eventBusShape, error) {
	var v awsjson.Violations
	checkName(&v, in.Name, "name", 256)
	checkLength(&v, in.Description, "description", 0, maxDescriptionLen)
	if r := in.RetentionPeriodInSeconds; r != nil {
		shown := strconv.FormatInt(*r, 10)
		if *r < int64(minRetention/time.Second) {
			v.Add(&shown, "retentionPeriodInSeconds", awsjson.MinValue(int(minRetention/time.Second)))
		} else if *r > int64(maxRetention/time.Second) {
			v.Add(&shown, "retentionPeriodInSeconds", awsjson.MaxValue(int(maxRetention/time.Second)))
		}
	}
	if err := v.Err(); err != nil {
		return eventBusShape{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.scopeLocked(sc)
	if _, exists := st.buses[*in.Name]; exists {
		return eventBusShape{}, awsjson.AlreadyExists("Event bus %s already exists.", *in.Name)
	}
	now := s.clock.Now().UTC()
	b := &eventBus{
		name: *in.Name, id: s.newID(IDKindEventBus),
		account: sc.account, region: sc.region,
		description: deref(in.Description),
		retention:   defaultRetention,
		created:     now, modified: now,
	}
	if in.RetentionPeriodInSeconds != nil {
		b.retention = time.Duration(*in.RetentionPeriodInSeconds) * time.Second
	}
	b.arn = busARN(sc, b.name, b.id)
	st.buses[b.name] = b
	return describeBus(b), nil
}

func (s *Service) describeEventBus(sc scope, in *nameInput) (eventBusShape, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.busLocked(sc, in.Name, "name")
	if err != nil {
		return eventBusShape{}, err
	}
	return describeBus(b), nil
}

func (s *Service) listEventBuses(sc scope, in *listEventBusesInput) (listEventBusesOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var buses map[string]*eventBus
	if st := s.scopes[sc]; st != nil {
		buses = st.buses
	}
	items, next, err := listPage(buses, nil, in.pageInput, describeBus)
	if err != nil {
		return listEventBusesOutput{}, err
	}
	return listEventBusesOutput{EventBuses: items, NextToken: next}, nil
}

// deleteEventBus refuses while subscribers remain, so deleting a bus never
// silently drops what its subscribers still deliver (D-DROP).
func (s *Service) deleteEventBus(sc scope, in *nameInput) (emptyOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.busLocked(sc, in.Name, "name")
	if err != nil {
		return emptyOutput{}, err
	}
	if n := len(b.subscribers); n > 0 {
		names := make([]string, n)
		for i, sub := range b.subscribers {
			names[i] = sub.name
		}
		return emptyOutput{}, awsjson.Validation("Event bus %s still has %d subscriber(s) (%s); delete them first.", b.name, n, strings.Join(names, ", "))
	}
	delete(s.scopes[scope{account: b.account, region: b.region}].buses, b.name)
	return emptyOutput{}, nil
}

// busLocked finds a bus by name or ARN. An ARN names its own account and
// region; its id must match, so a stale ARN of a re-created bus is not found.
func (s *Service) busLocked(sc scope, nameOrARN *string, member string) (*eventBus, error) {
	var v awsjson.Violations
	if nameOrARN == nil {
		v.Required(member)
	}
	checkLength(&v, nameOrARN, member, 1, maxTargetArnLen)
	if err := v.Err(); err != nil {
		return nil, err
	}
	id := *nameOrARN
	if strings.HasPrefix(id, "arn:") {
		ref, ok := parseEventsARN(id, busResourceType)
		if !ok {
			return nil, invalidParameter(upperFirst(member), fmt.Sprintf("%s is not an event bus v2 ARN (arn:aws:events:<region>:<account>:event-busv2/<name>/<id>).", id))
		}
		b := s.busByRefLocked(ref)
		if b == nil {
			return nil, awsjson.NotFound("Event bus %s does not exist.", id)
		}
		return b, nil
	}
	b := s.scopes[sc].busNamed(id)
	if b == nil {
		return nil, awsjson.NotFound("Event bus %s does not exist.", id)
	}
	return b, nil
}

// busByRefLocked returns the bus an ARN names, if its id is current.
func (s *Service) busByRefLocked(ref eventsRef) *eventBus {
	b := s.scopes[ref.scope].busNamed(ref.name)
	if b == nil || b.id != ref.id {
		return nil
	}
	return b
}

func describeBus(b *eventBus) eventBusShape {
	return eventBusShape{
		EventBusArn:              b.arn,
		Name:                     b.name,
		Description:              b.description,
		RetentionPeriodInSeconds: int64(b.retention / time.Second),
		wireTimes:                newWireTimes(b.created, b.modified),
	}
}

// upperFirst turns a Coral member path ("name") into the member name used
// in sentences ("Name").
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
