package eventbridge

import (
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// checkConnection checks the connection operations' input; creating, the
// authorization is required.
func checkConnection(creating bool) func(*connectionInput, *awsjson.Violations) {
	return func(in *connectionInput, v *awsjson.Violations) {
		checkName(v, in.Name, "name", 64, true)
		checkLength(v, in.Description, "description", 0, 512)
		if creating && in.AuthorizationType == nil {
			v.Required("authorizationType")
		}
		if in.AuthorizationType != nil && *in.AuthorizationType != authBasic && *in.AuthorizationType != authOAuth && *in.AuthorizationType != authAPIKey {
			v.Add(in.AuthorizationType, "authorizationType", awsjson.Enum(authBasic, authOAuth, authAPIKey))
		}
		if creating && in.AuthParameters == nil {
			v.Required("authParameters")
		}
	}
}

// checkAuthParameters insists that the parameters of the connection's
// authorization type are all there.
func checkAuthParameters(authType string, a *authParams) error {
	missing := func(what string) error {
		return awsjson.Validation("Parameter AuthParameters is not valid. Reason: %s must be specified for authorization type %s.", what, authType)
	}
	switch authType {
	case authBasic:
		if a.BasicAuthParameters == nil || a.BasicAuthParameters.Username == nil || a.BasicAuthParameters.Password == nil {
			return missing("BasicAuthParameters with Username and Password")
		}
	case authAPIKey:
		if a.ApiKeyAuthParameters == nil || a.ApiKeyAuthParameters.ApiKeyName == nil || a.ApiKeyAuthParameters.ApiKeyValue == nil {
			return missing("ApiKeyAuthParameters with ApiKeyName and ApiKeyValue")
		}
	case authOAuth:
		o := a.OAuthParameters
		if o == nil || o.AuthorizationEndpoint == nil || o.HttpMethod == nil || o.ClientParameters == nil ||
			o.ClientParameters.ClientID == nil || o.ClientParameters.ClientSecret == nil {
			return missing("OAuthParameters with ClientParameters, AuthorizationEndpoint and HttpMethod")
		}
		switch *o.HttpMethod {
		case "GET", "POST", "PUT":
		default:
			return awsjson.Validation("1 validation error detected: Value '%s' at 'authParameters.oAuthParameters.httpMethod' failed to satisfy constraint: %s",
				*o.HttpMethod, awsjson.Enum("GET", "POST", "PUT"))
		}
	}
	return nil
}

func (s *Service) createConnection(_ *call, in *connectionInput, t *tenant) (any, error) {
	if err := checkAuthParameters(*in.AuthorizationType, in.AuthParameters); err != nil {
		return nil, err
	}
	if _, exists := t.connections[*in.Name]; exists {
		return nil, awsjson.AlreadyExists("Connection %s already exists.", *in.Name)
	}
	now := s.clock.Now()
	id := uuid.NewString()
	conn := &connection{
		name: *in.Name, id: id, arn: connectionArn(t.key, *in.Name, id), description: in.Description,
		authType: *in.AuthorizationType, auth: in.AuthParameters, kmsKey: in.KmsKeyIdentifier,
		connectivity: in.InvocationConnectivityParameters, created: now, modified: now,
	}
	s.startAuthorizationLocked(t, conn, now)
	t.connections[conn.name] = conn
	out := conn.stateOutput()
	out.LastAuthorizedTime = nil
	return out, nil
}

// startAuthorizationLocked puts a new or changed connection in its first
// state: Basic and API key connections are authorized at once, OAuth ones
// while their token is fetched.
func (s *Service) startAuthorizationLocked(t *tenant, conn *connection, now time.Time) {
	conn.token, conn.stateReason = "", nil
	if conn.authType == authOAuth {
		conn.state = connAuthorizing
		s.authorizeLocked(t, conn)
		return
	}
	conn.authSeq++
	conn.state, conn.lastAuthorized = connAuthorized, now
}

// findConnection finds the caller's connection the input names.
func findConnection(s *Service, c *call, in *connectionInput) (*connection, error) {
	return findNamed(s.callerTenantLocked(c).connections, *in.Name, "Failed to describe the connection(s). Connection '%s' does not exist.")
}

func (s *Service) describeConnection(c *call, _ *connectionInput, conn *connection) (any, error) {
	return describeConnectionOutput{
		connectionItem: conn.item(), Description: conn.description, AuthParameters: conn.publicAuth(),
		SecretArn: connectionSecretArn(s.callerTenantLocked(c).key, conn.name, conn.id), KmsKeyIdentifier: conn.kmsKey,
		InvocationConnectivityParameters: conn.connectivity,
	}, nil
}

func (s *Service) listConnections(_ *call, in *listConnectionsInput, t *tenant) (any, error) {
	items, next, err := listPage(t.connections,
		func(conn *connection) bool { return in.ConnectionState == nil || conn.state == *in.ConnectionState },
		in.NamePrefix, in.pageInput, (*connection).item)
	if err != nil {
		return nil, err
	}
	return listConnectionsOutput{Connections: items, NextToken: next}, nil
}

func (s *Service) updateConnection(c *call, in *connectionInput, conn *connection) (any, error) {
	authType, auth := conn.authType, conn.auth
	if in.AuthorizationType != nil {
		authType = *in.AuthorizationType
	}
	if in.AuthParameters != nil {
		auth = mergeAuth(auth, in.AuthParameters)
	}
	if err := checkAuthParameters(authType, auth); err != nil {
		return nil, err
	}
	setGiven(&conn.description, in.Description)
	setGiven(&conn.kmsKey, in.KmsKeyIdentifier)
	if in.InvocationConnectivityParameters != nil {
		conn.connectivity = in.InvocationConnectivityParameters
	}
	now := s.clock.Now()
	conn.authType, conn.auth, conn.modified = authType, auth, now
	s.startAuthorizationLocked(s.callerTenantLocked(c), conn, now)
	return conn.stateOutput(), nil
}

// mergeAuth applies UpdateConnection's AuthParameters: each block given
// replaces the stored one, members left out of it keep their value.
func mergeAuth(old, upd *authParams) *authParams {
	merged := valueOf(old)
	if b := upd.BasicAuthParameters; b != nil {
		nb := valueOf(merged.BasicAuthParameters)
		given(&nb.Username, b.Username)
		given(&nb.Password, b.Password)
		merged.BasicAuthParameters = &nb
	}
	if k := upd.ApiKeyAuthParameters; k != nil {
		nk := valueOf(merged.ApiKeyAuthParameters)
		given(&nk.ApiKeyName, k.ApiKeyName)
		given(&nk.ApiKeyValue, k.ApiKeyValue)
		merged.ApiKeyAuthParameters = &nk
	}
	if o := upd.OAuthParameters; o != nil {
		no := valueOf(merged.OAuthParameters)
		given(&no.AuthorizationEndpoint, o.AuthorizationEndpoint)
		given(&no.HttpMethod, o.HttpMethod)
		given(&no.OAuthHttpParameters, o.OAuthHttpParameters)
		if cp := o.ClientParameters; cp != nil {
			nc := valueOf(no.ClientParameters)
			given(&nc.ClientID, cp.ClientID)
			given(&nc.ClientSecret, cp.ClientSecret)
			no.ClientParameters = &nc
		}
		merged.OAuthParameters = &no
	}
	given(&merged.InvocationHttpParameters, upd.InvocationHttpParameters)
	if upd.ConnectivityParameters != nil {
		merged.ConnectivityParameters = upd.ConnectivityParameters
	}
	return &merged
}

// valueOf is a copy of *p, or T's zero value when p is nil.
func valueOf[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// given sets *dst to v when v was given (is not nil).
func given[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

func (s *Service) deauthorizeConnection(_ *call, _ *connectionInput, conn *connection) (any, error) {
	conn.authSeq++
	conn.token = ""
	conn.modified = s.clock.Now()
	conn.state = connDeauthorizing
	out := conn.stateOutput()
	// Deauthorizing takes AWS a moment; GridBridge has nothing to wait for.
	conn.state = connDeauthorized
	return out, nil
}

func (s *Service) deleteConnection(c *call, _ *connectionInput, conn *connection) (any, error) {
	conn.authSeq++
	conn.state = connDeleting
	delete(s.callerTenantLocked(c).connections, conn.name)
	return conn.stateOutput(), nil
}
