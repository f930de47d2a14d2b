package eventbridge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventbridge/targets"
	"github.com/gridbridge/gridbridge/emulator/engine/redact"
)

// Connection authorization types and states.
const (
	authBasic  = "BASIC"
	authOAuth  = "OAUTH_CLIENT_CREDENTIALS"
	authAPIKey = "API_KEY"

	connAuthorized    = "AUTHORIZED"
	connAuthorizing   = "AUTHORIZING"
	connDeauthorizing = "DEAUTHORIZING"
	connDeauthorized  = "DEAUTHORIZED"
	connDeleting      = "DELETING"
)

// connection holds how API destination requests authenticate. Secrets are
// kept for invoking and never returned by Describe or List.
type connection struct {
	name, arn, id  string
	description    *string
	authType       string
	auth           *authParams
	kmsKey         *string
	connectivity   json.RawMessage
	state          string
	stateReason    *string
	created        time.Time
	modified       time.Time
	lastAuthorized time.Time

	// OAuth: the current token, when it expires (zero: never), and a
	// sequence that lets a slow authorization see it was superseded.
	token        string
	tokenExpires time.Time
	authSeq      uint64
}

func (c *connection) item() connectionItem {
	return connectionItem{
		Name: c.name, ConnectionArn: c.arn, ConnectionState: c.state, StateReason: c.stateReason,
		AuthorizationType: c.authType, connectionTimes: c.times(),
	}
}

func (c *connection) stateOutput() connectionStateOutput {
	return connectionStateOutput{ConnectionArn: c.arn, ConnectionState: c.state, connectionTimes: c.times()}
}

func (c *connection) times() connectionTimes {
	return connectionTimes{timestamps: timesOf(c.created, c.modified), LastAuthorizedTime: timestamp(c.lastAuthorized)}
}

// publicAuth is the connection's AuthParameters without secrets, as
// DescribeConnection shows them.
func (c *connection) publicAuth() *authParams {
	out := &authParams{InvocationHttpParameters: &connectionHttpParameters{}}
	a := c.auth
	if a == nil {
		return out
	}
	if a.BasicAuthParameters != nil {
		out.BasicAuthParameters = &basicAuth{Username: a.BasicAuthParameters.Username}
	}
	if a.ApiKeyAuthParameters != nil {
		out.ApiKeyAuthParameters = &apiKeyAuth{ApiKeyName: a.ApiKeyAuthParameters.ApiKeyName}
	}
	if o := a.OAuthParameters; o != nil {
		po := &oauthParams{AuthorizationEndpoint: o.AuthorizationEndpoint, HttpMethod: o.HttpMethod,
			OAuthHttpParameters: publicParams(o.OAuthHttpParameters)}
		if o.ClientParameters != nil {
			po.ClientParameters = &oauthClient{ClientID: o.ClientParameters.ClientID}
		}
		out.OAuthParameters = po
	}
	if a.InvocationHttpParameters != nil {
		out.InvocationHttpParameters = publicParams(a.InvocationHttpParameters)
	}
	out.ConnectivityParameters = a.ConnectivityParameters
	return out
}

func publicParams(p *connectionHttpParameters) *connectionHttpParameters {
	if p == nil {
		return nil
	}
	strip := func(in []connectionParameter) []connectionParameter {
		out := make([]connectionParameter, 0, len(in))
		for _, kv := range in {
			if kv.IsValueSecret {
				kv.Value = nil
			}
			out = append(out, kv)
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return &connectionHttpParameters{
		HeaderParameters:      strip(p.HeaderParameters),
		QueryStringParameters: strip(p.QueryStringParameters),
		BodyParameters:        strip(p.BodyParameters),
	}
}

// requestParts are the headers, query and body parameters the connection
// adds to every invocation, with its Basic or API key credentials, and
// which of them are secret: the credentials and parameters marked
// IsValueSecret, which the journal and DLQ messages show redacted.
func (c *connection) requestParts() (http.Header, url.Values, map[string]string, *redact.Secrets) {
	h, q, body, secrets := http.Header{}, url.Values{}, map[string]string{}, &redact.Secrets{}
	a := c.auth
	if a == nil {
		return h, q, body, secrets
	}
	if p := a.InvocationHttpParameters; p != nil {
		for _, kv := range p.HeaderParameters {
			h.Set(deref(kv.Key), deref(kv.Value))
			if kv.IsValueSecret {
				secrets.Header(deref(kv.Key), deref(kv.Value))
			}
		}
		for _, kv := range p.QueryStringParameters {
			q.Add(deref(kv.Key), deref(kv.Value))
			if kv.IsValueSecret {
				secrets.Query(deref(kv.Key), deref(kv.Value))
			}
		}
		for _, kv := range p.BodyParameters {
			body[deref(kv.Key)] = deref(kv.Value)
			if kv.IsValueSecret {
				secrets.Body(deref(kv.Key), deref(kv.Value))
			}
		}
	}
	switch c.authType {
	case authBasic:
		if b := a.BasicAuthParameters; b != nil {
			creds := deref(b.Username) + ":" + deref(b.Password)
			encoded := "Basic " + base64.StdEncoding.EncodeToString([]byte(creds))
			h.Set("Authorization", encoded)
			secrets.Header("Authorization", encoded)
		}
	case authAPIKey:
		if k := a.ApiKeyAuthParameters; k != nil {
			h.Set(deref(k.ApiKeyName), deref(k.ApiKeyValue))
			secrets.Header(deref(k.ApiKeyName), deref(k.ApiKeyValue))
		}
	}
	return h, q, body, secrets
}

// oauthClient returns the client-credentials request of an OAuth connection.
func (c *connection) oauthRequest() targets.OAuthClient {
	o := c.auth.OAuthParameters
	req := targets.OAuthClient{Endpoint: deref(o.AuthorizationEndpoint), Method: deref(o.HttpMethod),
		Header: http.Header{}, Query: url.Values{}, Body: url.Values{}}
	if o.ClientParameters != nil {
		req.ClientID, req.ClientSecret = deref(o.ClientParameters.ClientID), deref(o.ClientParameters.ClientSecret)
	}
	if p := o.OAuthHttpParameters; p != nil {
		for _, kv := range p.HeaderParameters {
			req.Header.Set(deref(kv.Key), deref(kv.Value))
		}
		for _, kv := range p.QueryStringParameters {
			req.Query.Add(deref(kv.Key), deref(kv.Value))
		}
		for _, kv := range p.BodyParameters {
			req.Body.Add(deref(kv.Key), deref(kv.Value))
		}
	}
	return req
}

// authorizeLocked starts an OAuth authorization in the background, on the
// emulator clock's accounting so a virtual clock waits for it. When it
// succeeds the connection becomes AUTHORIZED and its API destinations
// ACTIVE; when it fails, DEAUTHORIZED with the reason.
func (s *Service) authorizeLocked(t *tenant, c *connection) {
	c.authSeq++
	seq, gen, req := c.authSeq, s.generation, c.oauthRequest()
	s.clock.Go(func() {
		token, expiresIn, err := targets.FetchToken(context.Background(), s.http, req)
		s.mu.Lock()
		defer s.mu.Unlock()
		if gen != s.generation || seq != c.authSeq || c.state == connDeleting {
			return
		}
		now := s.clock.Now()
		if err != nil {
			c.state, c.stateReason = connDeauthorized, ptr("Authorization failed: "+err.Error())
			return
		}
		s.tokenObtainedLocked(t, c, token, expiresIn, now)
	})
}

func (s *Service) tokenObtainedLocked(t *tenant, c *connection, token string, expiresIn time.Duration, now time.Time) {
	c.token, c.tokenExpires = token, time.Time{}
	if expiresIn > 0 {
		c.tokenExpires = now.Add(expiresIn)
	}
	c.state, c.stateReason, c.lastAuthorized = connAuthorized, nil, now
	for _, d := range t.apiDestinations {
		if d.connectionArn == c.arn {
			d.state = apiDestActive
		}
	}
}

// tokenSource returns the OAuth token function of a connection for API
// destination invocations: the cached token until it expires on the
// emulator clock, a fresh one when asked to refresh.
func (s *Service) tokenSource(t *tenant, c *connection) func(ctx context.Context, refresh bool) (string, error) {
	return func(ctx context.Context, refresh bool) (string, error) {
		s.mu.Lock()
		now := s.clock.Now()
		if !refresh && c.token != "" && (c.tokenExpires.IsZero() || now.Before(c.tokenExpires)) {
			token := c.token
			s.mu.Unlock()
			return token, nil
		}
		req := c.oauthRequest()
		s.mu.Unlock()
		token, expiresIn, err := targets.FetchToken(ctx, s.http, req)
		if err != nil {
			return "", err
		}
		s.mu.Lock()
		s.tokenObtainedLocked(t, c, token, expiresIn, s.clock.Now())
		s.mu.Unlock()
		return token, nil
	}
}
