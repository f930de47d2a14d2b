package targets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine/redact"
)

// OAuthClient is an OAUTH_CLIENT_CREDENTIALS connection's authorization
// request.
type OAuthClient struct {
	Endpoint     string
	Method       string
	ClientID     string
	ClientSecret string
	// Header, Query and Body are the connection's OAuthHttpParameters.
	Header http.Header
	Query  url.Values
	Body   url.Values
}

// FetchToken asks the authorization endpoint for an access token with the
// client-credentials grant: the client id and secret as a Basic
// Authorization header, the connection's OAuth parameters (which carry
// grant_type and scope) as query, headers and a form body.
func FetchToken(ctx context.Context, client *http.Client, c OAuthClient) (token string, expiresIn time.Duration, err error) {
	u, err := url.Parse(c.Endpoint)
	if err != nil {
		return "", 0, fmt.Errorf("authorization endpoint %q is not a URL: %v", c.Endpoint, err)
	}
	q := u.Query()
	for k, vs := range c.Query {
		for _, v := range vs {
			q.Add(k, v)
		}
	}
	u.RawQuery = q.Encode()
	var body io.Reader
	if len(c.Body) > 0 {
		body = strings.NewReader(c.Body.Encode())
	}
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return "", 0, err
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(c.ClientID, c.ClientSecret)
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// net/http quotes the whole URL, and the query carries the
		// connection's OAuth parameters, which may be secret: the error
		// (shown as a connection's StateReason and in DLQ messages) names
		// the URL with its query values redacted.
		secrets := &redact.Secrets{}
		secrets.AllQuery(u.String())
		secrets.Body("client_secret", c.ClientSecret)
		return "", 0, errors.New(secrets.Text(err.Error(), u.String()))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, responseLimit))
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return "", 0, fmt.Errorf("the authorization endpoint answered HTTP %d", resp.StatusCode)
	}
	var answer struct {
		AccessToken string      `json:"access_token"`
		ExpiresIn   json.Number `json:"expires_in"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.AccessToken == "" {
		return "", 0, fmt.Errorf("the authorization endpoint's answer has no access_token")
	}
	if secs, err := answer.ExpiresIn.Float64(); err == nil && secs > 0 {
		expiresIn = time.Duration(secs * float64(time.Second))
	}
	return answer.AccessToken, expiresIn, nil
}
