package eventbridge

import "github.com/gridbridge/gridbridge/compat/aws/awsjson"

// operation answers one AWSEvents.<name> call with the result to write as
// JSON, or an error in AWS's shape (awsjson.Error).
type operation func(*Service, *call) (any, error)

// operations is the API by X-Amz-Target operation name; ServeHTTP answers a
// name that is not here as unknown. Most rows are op(check, find, run):
// see op for what each part does.
func operations() map[string]operation {
	return map[string]operation{
		// Event buses and their resource policy (ops_buses.go, permissions.go).
		"CreateEventBus":   op(checkCreateEventBus, callerTenant, (*Service).createEventBus),
		"DescribeEventBus": op(checkBusName, findBus[nameInput], (*Service).describeEventBus),
		"ListEventBuses":   op(nil, callerTenant, (*Service).listEventBuses),
		"UpdateEventBus":   op(checkUpdateEventBus, findBus[updateEventBusInput], (*Service).updateEventBus),
		"DeleteEventBus":   op(checkDeleteEventBus, callerTenant, (*Service).deleteEventBus),
		"PutPermission":    op(checkPutPermission, findBus[putPermissionInput], (*Service).putPermission),
		"RemovePermission": op(nil, findBus[removePermissionInput], (*Service).removePermission),

		// Rules and their targets (ops_rules.go, ops_targets.go).
		"PutRule":               (*Service).putRule,
		"DescribeRule":          op(checkRuleRef, findRule[ruleRefInput], (*Service).describeRule),
		"ListRules":             op(checkListRules, findBus[listRulesInput], (*Service).listRules),
		"DeleteRule":            op(checkRuleRef, findBus[ruleRefInput], (*Service).deleteRule),
		"EnableRule":            op(checkRuleRef, findRule[ruleRefInput], ruleState(stateEnabled)),
		"DisableRule":           op(checkRuleRef, findRule[ruleRefInput], ruleState(stateDisabled)),
		"PutTargets":            (*Service).putTargets,
		"RemoveTargets":         (*Service).removeTargets,
		"ListTargetsByRule":     op(checkListTargetsByRule, findRule[listTargetsByRuleInput], (*Service).listTargetsByRule),
		"ListRuleNamesByTarget": op(checkListRuleNamesByTarget, findBus[listRuleNamesByTargetInput], (*Service).listRuleNamesByTarget),

		// Events (ops_events.go).
		"PutEvents":        (*Service).putEvents,
		"TestEventPattern": (*Service).testEventPattern,

		// Tags of buses and rules (ops_tags.go).
		"TagResource":         op(checkTagResource, findTaggable, (*Service).tagResource),
		"UntagResource":       op(checkUntagResource, findTaggable, (*Service).untagResource),
		"ListTagsForResource": op(checkResourceARN, findTaggable, (*Service).listTagsForResource),

		// Archives and replays (ops_archives.go, ops_replays.go).
		"CreateArchive":   op(checkArchive(true), callerTenant, (*Service).createArchive),
		"DescribeArchive": op(checkArchive(false), findArchive, (*Service).describeArchive),
		"ListArchives":    op(checkListArchives, callerTenant, (*Service).listArchives),
		"UpdateArchive":   op(checkArchive(false), findArchive, (*Service).updateArchive),
		"DeleteArchive":   op(checkArchive(false), findArchive, (*Service).deleteArchive),
		"StartReplay":     op(checkStartReplay, callerTenant, (*Service).startReplay),
		"DescribeReplay":  op(checkReplayName, findReplay, (*Service).describeReplay),
		"ListReplays":     op(checkListReplays, callerTenant, (*Service).listReplays),
		"CancelReplay":    op(checkReplayName, findReplay, (*Service).cancelReplay),

		// Connections and API destinations (ops_connections.go, ops_apidestinations.go).
		"CreateConnection":       op(checkConnection(true), callerTenant, (*Service).createConnection),
		"DescribeConnection":     op(checkConnection(false), findConnection, (*Service).describeConnection),
		"ListConnections":        op(nil, callerTenant, (*Service).listConnections),
		"UpdateConnection":       op(checkConnection(false), findConnection, (*Service).updateConnection),
		"DeauthorizeConnection":  op(checkConnection(false), findConnection, (*Service).deauthorizeConnection),
		"DeleteConnection":       op(checkConnection(false), findConnection, (*Service).deleteConnection),
		"CreateApiDestination":   op(checkAPIDestination(true), callerTenant, (*Service).createApiDestination),
		"DescribeApiDestination": op(checkAPIDestination(false), findAPIDestination, (*Service).describeApiDestination),
		"ListApiDestinations":    op(nil, callerTenant, (*Service).listApiDestinations),
		"UpdateApiDestination":   op(checkAPIDestination(false), findAPIDestination, (*Service).updateApiDestination),
		"DeleteApiDestination":   op(checkAPIDestination(false), findAPIDestination, (*Service).deleteApiDestination),
	}
}

// op is an operation in the shape most take, in AWS's order: the body is
// decoded into In and checked (decode), then, under the service lock, find
// looks up what the call addresses (its bus, rule, archive… or the caller's
// tenant) and run acts on it. An error at any step is the answer.
// Operations that must release the lock before they finish (to remove
// engine routes) or that answer some errors before the look-up call decode
// themselves.
func op[In, T any](check func(*In, *awsjson.Violations), find func(*Service, *call, *In) (T, error), run func(*Service, *call, *In, T) (any, error)) operation {
	return func(s *Service, c *call) (any, error) {
		in, err := decode(c, check)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		found, err := find(s, c, in)
		if err != nil {
			return nil, err
		}
		return run(s, c, in, found)
	}
}

// decode reads the call's body into an In and applies check (nil checks
// nothing): a body that is not In's JSON is a SerializationException, and
// every member that breaks the model's constraints is listed in one
// ValidationException, before anything is looked up.
func decode[In any](c *call, check func(*In, *awsjson.Violations)) (*In, error) {
	in := new(In)
	if err := awsjson.Decode(c.body, in); err != nil {
		return nil, err
	}
	if check != nil {
		var v awsjson.Violations
		check(in, &v)
		if err := v.Err(); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// The look-ups op runs under the service lock.

func callerTenant[In any](s *Service, c *call, _ *In) (*tenant, error) {
	return s.callerTenantLocked(c), nil
}

// busAddressed is an input that names an event bus (by name or ARN; nil is
// the default bus).
type busAddressed interface{ busName() *string }

func (in *nameInput) busName() *string                  { return in.Name }
func (in *updateEventBusInput) busName() *string        { return in.Name }
func (in *putPermissionInput) busName() *string         { return in.EventBusName }
func (in *removePermissionInput) busName() *string      { return in.EventBusName }
func (in *listRulesInput) busName() *string             { return in.EventBusName }
func (in *ruleRefInput) busName() *string               { return in.EventBusName }
func (in *listRuleNamesByTargetInput) busName() *string { return in.EventBusName }
func (in *targetsRule) busName() *string                { return in.EventBusName }

// ruleAddressed is an input that names a rule on a bus.
type ruleAddressed interface {
	busAddressed
	ruleName() *string
}

func (in *ruleRefInput) ruleName() *string { return in.Name }
func (in *targetsRule) ruleName() *string  { return in.Rule }

// findBus finds the bus the input names: ResourceNotFoundException when
// there is none.
func findBus[In any, P interface {
	*In
	busAddressed
}](s *Service, c *call, in P) (*bus, error) {
	_, b, err := s.busLocked(c, in.busName())
	return b, err
}

// findRule finds the rule the input names: ResourceNotFoundException for a
// missing bus or rule.
func findRule[In any, P interface {
	*In
	ruleAddressed
}](s *Service, c *call, in P) (*rule, error) {
	_, r, err := s.ruleLocked(c, in.busName(), in.ruleName())
	return r, err
}

// findNamed finds the resource of byName called name, the look-up of the
// Describe, Update and Delete operations on a named resource; with none,
// ResourceNotFoundException says notFound (a format of the name).
func findNamed[R any](byName map[string]R, name, notFound string) (R, error) {
	r, ok := byName[name]
	if !ok {
		var none R
		return none, awsjson.NotFound(notFound, name)
	}
	return r, nil
}

// Update* operations change only the members the request gives (not nil).

// setGiven sets *dst to v when the request gave it.
func setGiven[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// setGivenValue sets *dst to what v points to when the request gave it.
func setGivenValue[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
