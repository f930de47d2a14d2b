package eventbridge

import (
	"regexp"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

var (
	connectionArnPattern = regexp.MustCompile(`^arn:aws([a-z]|\-)*:events:([a-z]|\d|\-)*:([0-9]{12})?:connection/[\.\-_A-Za-z0-9]+/[\-A-Za-z0-9]+$`)
	endpointPattern      = regexp.MustCompile(`^((%[0-9A-Fa-f]{2}|[-()_.!~*';/?:@&=+$,A-Za-z0-9])+)([).!';/?:,])?$`)
)

var apiDestinationMethods = []string{"POST", "GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"}

// checkAPIDestination checks the API destination operations' input;
// creating, the connection, endpoint and method are required.
func checkAPIDestination(creating bool) func(*apiDestinationInput, *awsjson.Violations) {
	return func(in *apiDestinationInput, v *awsjson.Violations) {
		checkName(v, in.Name, "name", 64, true)
		checkLength(v, in.Description, "description", 0, 512)
		if creating {
			awsjson.Require(v, in.ConnectionArn, "connectionArn")
			awsjson.Require(v, in.InvocationEndpoint, "invocationEndpoint")
			awsjson.Require(v, in.HttpMethod, "httpMethod")
		}
		if in.ConnectionArn != nil && !connectionArnPattern.MatchString(*in.ConnectionArn) {
			v.Add(in.ConnectionArn, "connectionArn", awsjson.Pattern(`^arn:aws([a-z]|\-)*:events:([a-z]|\d|\-)*:([0-9]{12})?:connection\/[\.\-_A-Za-z0-9]+\/[\-A-Za-z0-9]+$`))
		}
		checkLength(v, in.InvocationEndpoint, "invocationEndpoint", 1, 2048)
		if in.InvocationEndpoint != nil && *in.InvocationEndpoint != "" && !endpointPattern.MatchString(*in.InvocationEndpoint) {
			v.Add(in.InvocationEndpoint, "invocationEndpoint", awsjson.Pattern(`^((%[0-9A-Fa-f]{2}|[-()_.!~*';/?:@\x26=+$,A-Za-z0-9])+)([).!';/?:,])?$`))
		}
		if in.HttpMethod != nil && !contains(apiDestinationMethods, *in.HttpMethod) {
			v.Add(in.HttpMethod, "httpMethod", awsjson.Enum(apiDestinationMethods...))
		}
		checkRange(v, in.InvocationRateLimitPerSecond, "invocationRateLimitPerSecond", 1, 1<<31-1)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Service) createApiDestination(_ *call, in *apiDestinationInput, t *tenant) (any, error) {
	conn, ok := connectionByArnLocked(t, *in.ConnectionArn)
	if !ok {
		return nil, awsjson.NotFound("Connection '%s' does not exist.", *in.ConnectionArn)
	}
	if _, exists := t.apiDestinations[*in.Name]; exists {
		return nil, awsjson.AlreadyExists("An api-destination '%s' already exists.", *in.Name)
	}
	now := s.clock.Now()
	id := uuid.NewString()
	d := &apiDestination{
		name: *in.Name, id: id, arn: apiDestinationArn(t.key, *in.Name, id), description: in.Description,
		connectionArn: conn.arn, endpoint: *in.InvocationEndpoint, method: *in.HttpMethod,
		rateLimit: defaultInvocationRate, state: apiDestInactive, created: now, modified: now,
	}
	setGivenValue(&d.rateLimit, in.InvocationRateLimitPerSecond)
	if conn.state == connAuthorized {
		d.state = apiDestActive
	}
	t.apiDestinations[d.name] = d
	s.pacers.set(d.arn, d.rateLimit)
	return d.stateOutput(), nil
}

// findAPIDestination finds the caller's API destination the input names.
func findAPIDestination(s *Service, c *call, in *apiDestinationInput) (*apiDestination, error) {
	return findNamed(s.callerTenantLocked(c).apiDestinations, *in.Name, "Failed to describe the api-destination(s). An api-destination '%s' does not exist.")
}

func (s *Service) describeApiDestination(_ *call, _ *apiDestinationInput, d *apiDestination) (any, error) {
	return describeApiDestinationOutput{apiDestinationItem: d.item(), Description: d.description}, nil
}

func (s *Service) listApiDestinations(_ *call, in *listApiDestinationsInput, t *tenant) (any, error) {
	items, next, err := listPage(t.apiDestinations,
		func(d *apiDestination) bool { return in.ConnectionArn == nil || d.connectionArn == *in.ConnectionArn },
		in.NamePrefix, in.pageInput, (*apiDestination).item)
	if err != nil {
		return nil, err
	}
	return listApiDestinationsOutput{ApiDestinations: items, NextToken: next}, nil
}

func (s *Service) updateApiDestination(c *call, in *apiDestinationInput, d *apiDestination) (any, error) {
	if in.ConnectionArn != nil {
		conn, ok := connectionByArnLocked(s.callerTenantLocked(c), *in.ConnectionArn)
		if !ok {
			return nil, awsjson.NotFound("Connection '%s' does not exist.", *in.ConnectionArn)
		}
		d.connectionArn = conn.arn
		d.state = apiDestInactive
		if conn.state == connAuthorized {
			d.state = apiDestActive
		}
	}
	setGivenValue(&d.endpoint, in.InvocationEndpoint)
	setGivenValue(&d.method, in.HttpMethod)
	if in.InvocationRateLimitPerSecond != nil {
		d.rateLimit = *in.InvocationRateLimitPerSecond
		s.pacers.set(d.arn, d.rateLimit)
	}
	setGiven(&d.description, in.Description)
	d.modified = s.clock.Now()
	return d.stateOutput(), nil
}

func (s *Service) deleteApiDestination(c *call, _ *apiDestinationInput, d *apiDestination) (any, error) {
	delete(s.callerTenantLocked(c).apiDestinations, d.name)
	s.pacers.remove(d.arn)
	return nil, nil
}
