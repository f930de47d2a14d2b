package eventbridge

import (
	"fmt"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
)

// API destination states.
const (
	apiDestActive   = "ACTIVE"
	apiDestInactive = "INACTIVE"
)

// defaultInvocationRate is InvocationRateLimitPerSecond when none is given.
const defaultInvocationRate = 300

// apiDestination is an HTTP endpoint rules can target, reached through a
// connection.
type apiDestination struct {
	name, arn, id string
	description   *string
	connectionArn string
	endpoint      string
	method        string
	rateLimit     int32
	state         string
	created       time.Time
	modified      time.Time
}

func (d *apiDestination) item() apiDestinationItem {
	return apiDestinationItem{
		Name: d.name, ApiDestinationArn: d.arn, ApiDestinationState: d.state, ConnectionArn: d.connectionArn,
		InvocationEndpoint: d.endpoint, HttpMethod: d.method, InvocationRateLimitPerSecond: d.rateLimit,
		timestamps: timesOf(d.created, d.modified),
	}
}

func (d *apiDestination) stateOutput() apiDestinationStateOutput {
	return apiDestinationStateOutput{ApiDestinationArn: d.arn, ApiDestinationState: d.state, timestamps: timesOf(d.created, d.modified)}
}

// connectionByArnLocked finds a connection of t by ARN.
func connectionByArnLocked(t *tenant, arn string) (*connection, bool) {
	_, name, ok := parseNamedArn(arn, "connection")
	if !ok {
		return nil, false
	}
	c, ok := t.connections[name]
	if !ok || c.arn != arn {
		return nil, false
	}
	return c, true
}

// ResolveAPIDestination is how another face calls an API destination of
// these buses (an EventBridge pipe's enrichment or target): the endpoint
// and its connection's auth, read afresh for every call, failing with
// targets.ErrAPIDestinationNotFound when either is gone or deauthorized.
func (s *Service) ResolveAPIDestination(arn string) (targets.Endpoint, error) {
	return s.resolveAPIDestination(arn)
}

// resolveAPIDestination reads an API destination and its connection at the
// time of an invocation, so updates apply to events already queued.
func (s *Service) resolveAPIDestination(arn string) (targets.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, name, ok := parseNamedArn(arn, "api-destination")
	if !ok {
		return targets.Endpoint{}, fmt.Errorf("%s is not an API destination ARN: %w", arn, targets.ErrAPIDestinationNotFound)
	}
	t := s.tenantLocked(key)
	d, ok := t.apiDestinations[name]
	if !ok || d.arn != arn {
		return targets.Endpoint{}, fmt.Errorf("API destination %s does not exist: %w", arn, targets.ErrAPIDestinationNotFound)
	}
	conn, ok := connectionByArnLocked(t, d.connectionArn)
	if !ok {
		return targets.Endpoint{}, fmt.Errorf("connection %s of API destination %s does not exist: %w", d.connectionArn, name, targets.ErrAPIDestinationNotFound)
	}
	if conn.state == connDeauthorized || conn.state == connDeauthorizing {
		return targets.Endpoint{}, fmt.Errorf("connection %s is deauthorized: %w", conn.name, targets.ErrAPIDestinationNotFound)
	}
	header, query, body, secrets := conn.requestParts()
	ep := targets.Endpoint{Method: d.method, URL: d.endpoint, Header: header, Query: query, Body: body, Secrets: secrets}
	if conn.authType == authOAuth {
		ep.Token = s.tokenSource(t, conn)
	}
	return ep, nil
}
