package eventbridge_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// endpoint is an HTTP server standing in for a webhook and an OAuth server.
type endpoint struct {
	*httptest.Server
	mu       sync.Mutex
	requests []recorded
	statuses []int // answered in turn; then 200
}

type recorded struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

func newEndpoint(t *testing.T) *endpoint {
	e := &endpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.requests = append(e.requests, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)})
		status := http.StatusOK
		if r.URL.Path != "/token" && len(e.statuses) > 0 {
			status, e.statuses = e.statuses[0], e.statuses[1:]
		}
		e.mu.Unlock()
		if r.URL.Path == "/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"access_token":"tok-1","token_type":"bearer","expires_in":3600}`)
			return
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *endpoint) got(path string) []recorded {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []recorded
	for _, r := range e.requests {
		if r.Path == path || strings.HasPrefix(r.Path, path+"/") {
			out = append(out, r)
		}
	}
	return out
}

func TestConnectionsAPI(t *testing.T) {
	h, c := startTest(t)
	ep := newEndpoint(t)
	apiKey := must[*ebsdk.CreateConnectionOutput](t)(h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{
		Name: aws.String("key"), AuthorizationType: types.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &types.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")},
		},
	}))
	if apiKey.ConnectionState != types.ConnectionStateAuthorized || !strings.HasPrefix(aws.ToString(apiKey.ConnectionArn), "arn:aws:events:us-east-1:123456789012:connection/key/") {
		t.Fatalf("CreateConnection: %+v", apiKey)
	}
	d := must[*ebsdk.DescribeConnectionOutput](t)(h.client.DescribeConnection(c, &ebsdk.DescribeConnectionInput{Name: aws.String("key")}))
	if d.AuthParameters == nil || aws.ToString(d.AuthParameters.ApiKeyAuthParameters.ApiKeyName) != "x-api-key" ||
		d.AuthParameters.InvocationHttpParameters == nil || d.AuthorizationType != types.ConnectionAuthorizationTypeApiKey ||
		!strings.Contains(aws.ToString(d.SecretArn), ":secret:events!connection/key/") {
		t.Fatalf("DescribeConnection: %+v", d)
	}
	if raw := h.raw("DescribeConnection", `{"Name":"key"}`, "Authorization", "AWS4-HMAC-SHA256 Credential=123456789012/20260301/us-east-1/events/aws4_request"); strings.Contains(raw.Text, "s3cret") {
		t.Fatalf("DescribeConnection leaks the secret: %s", raw.Text)
	}

	oauth := must[*ebsdk.CreateConnectionOutput](t)(h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{
		Name: aws.String("oauth"), AuthorizationType: types.ConnectionAuthorizationTypeOauthClientCredentials,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{OAuthParameters: &types.CreateConnectionOAuthRequestParameters{
			AuthorizationEndpoint: aws.String(ep.URL + "/token"), HttpMethod: types.ConnectionOAuthHttpMethodPost,
			ClientParameters: &types.CreateConnectionOAuthClientRequestParameters{ClientID: aws.String("cid"), ClientSecret: aws.String("csecret")},
			OAuthHttpParameters: &types.ConnectionHttpParameters{BodyParameters: []types.ConnectionBodyParameter{
				{Key: aws.String("grant_type"), Value: aws.String("client_credentials")}}},
		}},
	}))
	if oauth.ConnectionState != types.ConnectionStateAuthorizing {
		t.Fatalf("OAuth connection starts %s, want AUTHORIZING", oauth.ConnectionState)
	}
	h.settle()
	d = must[*ebsdk.DescribeConnectionOutput](t)(h.client.DescribeConnection(c, &ebsdk.DescribeConnectionInput{Name: aws.String("oauth")}))
	if d.ConnectionState != types.ConnectionStateAuthorized || aws.ToString(d.AuthParameters.OAuthParameters.ClientParameters.ClientID) != "cid" {
		t.Fatalf("after authorization: %+v", d)
	}
	tok := ep.got("/token")
	if len(tok) != 1 || tok[0].Body != "grant_type=client_credentials" || !strings.HasPrefix(tok[0].Header.Get("Authorization"), "Basic ") {
		t.Fatalf("token request: %+v", tok)
	}

	_, err := h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{Name: aws.String("key"), AuthorizationType: types.ConnectionAuthorizationTypeBasic,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{BasicAuthParameters: &types.CreateConnectionBasicAuthRequestParameters{Username: aws.String("u"), Password: aws.String("p")}}})
	apiError(t, err, "ResourceAlreadyExistsException", "")
	_, err = h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{Name: aws.String("bad name"), AuthorizationType: "INVALID_AUTH_TYPE",
		AuthParameters: &types.CreateConnectionAuthRequestParameters{}})
	apiError(t, err, "ValidationException", `2 validation errors detected: Value 'bad name' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [\.\-_A-Za-z0-9]+; `+
		"Value 'INVALID_AUTH_TYPE' at 'authorizationType' failed to satisfy constraint: Member must satisfy enum value set: [BASIC, OAUTH_CLIENT_CREDENTIALS, API_KEY]")
	_, err = h.client.DescribeConnection(c, &ebsdk.DescribeConnectionInput{Name: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Failed to describe the connection(s). Connection 'nope' does not exist.")

	list := must[*ebsdk.ListConnectionsOutput](t)(h.client.ListConnections(c, &ebsdk.ListConnectionsInput{}))
	if len(list.Connections) != 2 {
		t.Fatalf("ListConnections: %+v", list.Connections)
	}
	upd := must[*ebsdk.UpdateConnectionOutput](t)(h.client.UpdateConnection(c, &ebsdk.UpdateConnectionInput{Name: aws.String("key"), Description: aws.String("new")}))
	if upd.ConnectionState != types.ConnectionStateAuthorized {
		t.Fatalf("UpdateConnection: %+v", upd)
	}
	deauth := must[*ebsdk.DeauthorizeConnectionOutput](t)(h.client.DeauthorizeConnection(c, &ebsdk.DeauthorizeConnectionInput{Name: aws.String("key")}))
	if deauth.ConnectionState != types.ConnectionStateDeauthorizing {
		t.Fatalf("DeauthorizeConnection: %+v", deauth)
	}
	del := must[*ebsdk.DeleteConnectionOutput](t)(h.client.DeleteConnection(c, &ebsdk.DeleteConnectionInput{Name: aws.String("key")}))
	if del.ConnectionState != types.ConnectionStateDeleting {
		t.Fatalf("DeleteConnection: %+v", del)
	}
}

func createAPIKeyConnection(t *testing.T, h *harness) string {
	return aws.ToString(must[*ebsdk.CreateConnectionOutput](t)(h.client.CreateConnection(ctx(t), &ebsdk.CreateConnectionInput{
		Name: aws.String("key"), AuthorizationType: types.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{
			ApiKeyAuthParameters: &types.CreateConnectionApiKeyAuthRequestParameters{ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("s3cret")},
			InvocationHttpParameters: &types.ConnectionHttpParameters{HeaderParameters: []types.ConnectionHeaderParameter{
				{Key: aws.String("x-conn"), Value: aws.String("c1")}}},
		},
	})).ConnectionArn)
}

func TestAPIDestinationsAPI(t *testing.T) {
	h, c := startTest(t)
	conn := createAPIKeyConnection(t, h)
	out := must[*ebsdk.CreateApiDestinationOutput](t)(h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
		Name: aws.String("hook"), ConnectionArn: aws.String(conn), InvocationEndpoint: aws.String("https://example.com/hook/*"),
		HttpMethod: types.ApiDestinationHttpMethodPost,
	}))
	if out.ApiDestinationState != types.ApiDestinationStateActive || !strings.HasPrefix(aws.ToString(out.ApiDestinationArn), "arn:aws:events:us-east-1:123456789012:api-destination/hook/") {
		t.Fatalf("CreateApiDestination: %+v", out)
	}
	d := must[*ebsdk.DescribeApiDestinationOutput](t)(h.client.DescribeApiDestination(c, &ebsdk.DescribeApiDestinationInput{Name: aws.String("hook")}))
	if aws.ToInt32(d.InvocationRateLimitPerSecond) != 300 || d.HttpMethod != types.ApiDestinationHttpMethodPost || aws.ToString(d.ConnectionArn) != conn {
		t.Fatalf("DescribeApiDestination: %+v", d)
	}
	must[*ebsdk.UpdateApiDestinationOutput](t)(h.client.UpdateApiDestination(c, &ebsdk.UpdateApiDestinationInput{Name: aws.String("hook"), HttpMethod: types.ApiDestinationHttpMethodPut}))
	list := must[*ebsdk.ListApiDestinationsOutput](t)(h.client.ListApiDestinations(c, &ebsdk.ListApiDestinationsInput{ConnectionArn: aws.String(conn)}))
	if len(list.ApiDestinations) != 1 || list.ApiDestinations[0].HttpMethod != types.ApiDestinationHttpMethodPut {
		t.Fatalf("ListApiDestinations: %+v", list.ApiDestinations)
	}
	_, err := h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{Name: aws.String("x"), ConnectionArn: aws.String("nope"),
		InvocationEndpoint: aws.String("https://example.com"), HttpMethod: types.ApiDestinationHttpMethodPost})
	apiError(t, err, "ValidationException", "")
	must[*ebsdk.DeleteApiDestinationOutput](t)(h.client.DeleteApiDestination(c, &ebsdk.DeleteApiDestinationInput{Name: aws.String("hook")}))
	_, err = h.client.DescribeApiDestination(c, &ebsdk.DescribeApiDestinationInput{Name: aws.String("hook")})
	apiError(t, err, "ResourceNotFoundException", "Failed to describe the api-destination(s). An api-destination 'hook' does not exist.")
}

func TestAPIDestinationDelivery(t *testing.T) {
	h, c := startTest(t)
	ep := newEndpoint(t)
	ep.statuses = []int{503, 200, 400}
	conn := createAPIKeyConnection(t, h)
	dest := aws.ToString(must[*ebsdk.CreateApiDestinationOutput](t)(h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
		Name: aws.String("hook"), ConnectionArn: aws.String(conn), InvocationEndpoint: aws.String(ep.URL + "/orders/*"),
		HttpMethod: types.ApiDestinationHttpMethodPost,
	})).ApiDestinationArn)
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", types.Target{Id: aws.String("hook"), Arn: aws.String(dest),
		HttpParameters: &types.HttpParameters{
			PathParameterValues:   []string{"eu"},
			HeaderParameters:      map[string]string{"x-user": "$.detail.user", "x-static": "v"},
			QueryStringParameters: map[string]string{"src": "$.source"},
		},
		DeadLetterConfig: &types.DeadLetterConfig{Arn: aws.String(dlqArn)}})

	id := putEvent(t, h, entry(`{"user":"u-7"}`))
	h.settle()
	if got := ep.got("/orders"); len(got) != 1 {
		t.Fatalf("%d requests before the retry", len(got))
	}
	h.Clock.Advance(time.Second)
	got := ep.got("/orders")
	if len(got) != 2 {
		t.Fatalf("the 503 was not retried after 1 s: %d requests", len(got))
	}
	r := got[1]
	var ev map[string]any
	_ = json.Unmarshal([]byte(r.Body), &ev)
	if r.Method != "POST" || r.Path != "/orders/eu" || r.Query != "src=shop.orders" || ev["id"] != id ||
		r.Header.Get("x-api-key") != "s3cret" || r.Header.Get("x-conn") != "c1" || r.Header.Get("x-user") != "u-7" || r.Header.Get("x-static") != "v" ||
		r.Header.Get("User-Agent") != "Amazon/EventBridge/ApiDestinations" || r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("request: %+v", r)
	}
	// A 4xx other than 429 is not retried: straight to the DLQ.
	putEvent(t, h, entry(`{"user":"u-8"}`))
	h.settle()
	if _, got := h.onlyDeadLetter(); got["ERROR_CODE"] != "SDK_CLIENT_ERROR" || got["RETRY_ATTEMPTS"] != "0" {
		t.Fatalf("400 DLQ: %v", got)
	}
}

func TestAPIDestinationWithOAuthAndBasic(t *testing.T) {
	h, c := startTest(t)
	ep := newEndpoint(t)
	oauth := aws.ToString(must[*ebsdk.CreateConnectionOutput](t)(h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{
		Name: aws.String("oauth"), AuthorizationType: types.ConnectionAuthorizationTypeOauthClientCredentials,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{OAuthParameters: &types.CreateConnectionOAuthRequestParameters{
			AuthorizationEndpoint: aws.String(ep.URL + "/token"), HttpMethod: types.ConnectionOAuthHttpMethodPost,
			ClientParameters: &types.CreateConnectionOAuthClientRequestParameters{ClientID: aws.String("cid"), ClientSecret: aws.String("csecret")},
		}},
	})).ConnectionArn)
	basic := aws.ToString(must[*ebsdk.CreateConnectionOutput](t)(h.client.CreateConnection(c, &ebsdk.CreateConnectionInput{
		Name: aws.String("basic"), AuthorizationType: types.ConnectionAuthorizationTypeBasic,
		AuthParameters: &types.CreateConnectionAuthRequestParameters{BasicAuthParameters: &types.CreateConnectionBasicAuthRequestParameters{
			Username: aws.String("user"), Password: aws.String("pass")}},
	})).ConnectionArn)
	h.settle()
	var targets []types.Target
	for _, cfg := range [][2]string{{"o", oauth}, {"b", basic}} {
		arn := aws.ToString(must[*ebsdk.CreateApiDestinationOutput](t)(h.client.CreateApiDestination(c, &ebsdk.CreateApiDestinationInput{
			Name: aws.String(cfg[0]), ConnectionArn: aws.String(cfg[1]), InvocationEndpoint: aws.String(ep.URL + "/" + cfg[0]),
			HttpMethod: types.ApiDestinationHttpMethodPost,
		})).ApiDestinationArn)
		targets = append(targets, types.Target{Id: aws.String(cfg[0]), Arn: aws.String(arn)})
	}
	putRule(t, h, "r", "", orderPattern)
	putTargets(t, h, "r", targets...)
	putEvent(t, h, entry(`{}`))
	// Wait for both attempts in the journal, not for the clock to settle:
	// settling gives up on an endpoint slower than its bound.
	h.WaitCount(t, engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"rule": "r"}}, 2)
	if o := ep.got("/o"); len(o) != 1 || o[0].Header.Get("Authorization") != "Bearer tok-1" {
		t.Fatalf("OAuth request: %+v", o)
	}
	if b := ep.got("/b"); len(b) != 1 || b[0].Header.Get("Authorization") != "Basic dXNlcjpwYXNz" {
		t.Fatalf("Basic request: %+v", b)
	}
}
