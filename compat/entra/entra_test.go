package entra

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newTestAuthority() (*Authority, *clock, *httptest.Server) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := New(Config{Now: c.Now, Lifetime: time.Hour})
	r := mux.NewRouter()
	a.Register(r)
	return a, c, httptest.NewServer(r)
}

func postToken(t *testing.T, srv *httptest.Server, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(srv.URL+path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

func TestTokenEndpointIssuesVerifiableTokens(t *testing.T) {
	t.Parallel()
	a, c, srv := newTestAuthority()
	defer srv.Close()
	status, body := postToken(t, srv, "/tenant-1/oauth2/v2.0/token", url.Values{
		"grant_type": {"client_credentials"}, "client_id": {"app"}, "client_secret": {"s"},
		"scope": {"https://eventgrid.azure.net/.default openid"},
	})
	if status != http.StatusOK || body["token_type"] != "Bearer" || body["expires_in"] != float64(3600) {
		t.Fatalf("HTTP %d %v", status, body)
	}
	tok, _ := body["access_token"].(string)
	claims, err := a.Verify(tok, AudienceEventGrid+"/")
	if err != nil {
		t.Fatal(err)
	}
	if claims.Issuer != srv.URL+"/tenant-1/v2.0" || claims.AppID != "app" || claims.TenantID != "tenant-1" {
		t.Errorf("claims %+v", claims)
	}
	if _, err := a.Verify(tok, AudienceARM); !errors.Is(err, ErrAudience) {
		t.Errorf("ARM audience: %v, want ErrAudience", err)
	}
	if _, err := New(Config{Now: c.Now}).Verify(tok, AudienceEventGrid); !errors.Is(err, ErrNotIssued) {
		t.Errorf("another authority: %v, want ErrNotIssued", err)
	}
	c.now = c.now.Add(time.Hour)
	if _, err := a.Verify(tok, AudienceEventGrid); !errors.Is(err, ErrExpired) {
		t.Errorf("after an hour: %v, want ErrExpired", err)
	}
	// v1 and AD FS take the resource parameter; AD FS tokens carry its issuer.
	status, body = postToken(t, srv, "/adfs/oauth2/token", url.Values{
		"grant_type": {"client_credentials"}, "client_id": {"app"}, "client_secret": {"s"}, "resource": {AudienceARM},
	})
	if status != http.StatusOK {
		t.Fatalf("AD FS: HTTP %d %v", status, body)
	}
	if claims, err := a.Verify(body["access_token"].(string), AudienceARM); err != nil || claims.Issuer != srv.URL+"/adfs" {
		t.Errorf("AD FS token: %+v, %v", claims, err)
	}
}

func TestTokenEndpointRefusesBadRequests(t *testing.T) {
	t.Parallel()
	_, _, srv := newTestAuthority()
	defer srv.Close()
	ok := url.Values{"grant_type": {"client_credentials"}, "client_id": {"app"}, "client_secret": {"s"}, "scope": {AudienceARM + "/.default"}}
	without := func(k string) url.Values {
		v := url.Values{}
		for kk, vv := range ok {
			if kk != k {
				v[kk] = vv
			}
		}
		return v
	}
	password := without("grant_type")
	password.Set("grant_type", "password")
	cases := []struct {
		name   string
		form   url.Values
		status int
		code   string
	}{
		{"no client id", without("client_id"), 400, "invalid_request"},
		{"no secret", without("client_secret"), 401, "invalid_client"},
		{"no scope", without("scope"), 400, "invalid_scope"},
		{"password grant", password, 400, "unsupported_grant_type"},
	}
	for _, tc := range cases {
		status, body := postToken(t, srv, "/t/oauth2/v2.0/token", tc.form)
		if status != tc.status || body["error"] != tc.code || !strings.HasPrefix(body["error_description"].(string), "AADSTS") {
			t.Errorf("%s: HTTP %d %v, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
	}
}

func TestMetadataNamesTheHostItWasReachedOn(t *testing.T) {
	t.Parallel()
	_, _, srv := newTestAuthority()
	defer srv.Close()
	for path, want := range map[string]string{
		"/t1/v2.0/.well-known/openid-configuration": srv.URL + "/t1/oauth2/v2.0/token",
		"/adfs/.well-known/openid-configuration":    srv.URL + "/adfs/oauth2/token",
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if m["token_endpoint"] != want || m["issuer"] == "" || m["authorization_endpoint"] == "" {
			t.Errorf("%s: %v", path, m)
		}
	}
}
