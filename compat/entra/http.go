package entra

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// Register mounts the authority's endpoints on r. Register it before routes
// with broad matchers: its paths start with a tenant segment.
func (a *Authority) Register(r *mux.Router) {
	r.Path("/{tenant}/v2.0/.well-known/openid-configuration").Methods(http.MethodGet).HandlerFunc(a.serveMetadata)
	r.Path("/{tenant}/.well-known/openid-configuration").Methods(http.MethodGet).HandlerFunc(a.serveMetadata)
	r.Path("/{tenant}/oauth2/v2.0/token").HandlerFunc(a.serveToken)
	r.Path("/{tenant}/oauth2/token").HandlerFunc(a.serveToken)
	r.Path("/{tenant}/discovery/v2.0/keys").Methods(http.MethodGet).HandlerFunc(a.serveKeys)
	r.Path("/{tenant}/discovery/keys").Methods(http.MethodGet).HandlerFunc(a.serveKeys)
}

// adfs is the tenant segment of an AD FS authority (Azure Stack Hub).
const adfs = "adfs"

// base is the authority host as this request reached it: MSAL checks that
// the metadata's issuer has the host it was configured with.
func base(r *http.Request) string {
	scheme := "https"
	if r.TLS == nil {
		scheme = "http"
	}
	return scheme + "://" + r.Host
}

// issuer is what tokens for tenant carry in iss: Entra's v2 form, or the
// AD FS authority itself.
func issuer(r *http.Request, tenant string) string {
	if strings.EqualFold(tenant, adfs) {
		return base(r) + "/adfs"
	}
	return base(r) + "/" + tenant + "/v2.0"
}

func (a *Authority) serveMetadata(w http.ResponseWriter, r *http.Request) {
	tenant := mux.Vars(r)["tenant"]
	b := base(r) + "/" + tenant
	token, authorize, keys := b+"/oauth2/v2.0/token", b+"/oauth2/v2.0/authorize", b+"/discovery/v2.0/keys"
	if strings.EqualFold(tenant, adfs) {
		token, authorize, keys = b+"/oauth2/token", b+"/oauth2/authorize", b+"/discovery/keys"
	}
	httpjson.Write(w, http.StatusOK, map[string]any{
		"issuer":                                issuer(r, tenant),
		"token_endpoint":                        token,
		"authorization_endpoint":                authorize,
		"jwks_uri":                              keys,
		"token_endpoint_auth_methods_supported": []string{"client_secret_post", "client_secret_basic"},
		"grant_types_supported":                 []string{"client_credentials"},
		"response_types_supported":              []string{"token"},
		"subject_types_supported":               []string{"pairwise"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"scopes_supported":                      []string{"openid"},
		"tenant_region_scope":                   nil,
		"cloud_instance_name":                   "gridbridge.local",
	}, httpjson.EscapeHTML())
}

func (a *Authority) serveKeys(w http.ResponseWriter, _ *http.Request) {
	set, err := a.jwks()
	if err != nil {
		httpjson.Write(w, http.StatusInternalServerError, map[string]string{"error": "server_error", "error_description": err.Error()}, httpjson.EscapeHTML())
		return
	}
	httpjson.Write(w, http.StatusOK, set, httpjson.EscapeHTML())
}

// serveToken answers the client-credentials grant with a client secret (or
// a client assertion, whose signature is not checked: there is no directory
// of certificates). The audience is the resource of the one
// "<resource>/.default" scope (v2) or the resource parameter (v1, AD FS).
func (a *Authority) serveToken(w http.ResponseWriter, r *http.Request) {
	tenant := mux.Vars(r)["tenant"]
	if r.Method != http.MethodPost {
		tokenError(w, http.StatusMethodNotAllowed, "invalid_request", 900561, "The endpoint only accepts POST requests.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", 900144, "The request body must be application/x-www-form-urlencoded: "+err.Error())
		return
	}
	clientID, secret, basic := r.BasicAuth()
	if !basic {
		clientID, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if grant := r.PostForm.Get("grant_type"); grant != "client_credentials" {
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", 70003,
			fmt.Sprintf("The app requested an unsupported grant type %q: the emulator's authority serves client_credentials only.", grant))
		return
	}
	if clientID == "" {
		tokenError(w, http.StatusBadRequest, "invalid_request", 900144, "The request body must contain the following parameter: 'client_id'.")
		return
	}
	if secret == "" && r.PostForm.Get("client_assertion") == "" {
		tokenError(w, http.StatusUnauthorized, "invalid_client", 7000218,
			"The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
		return
	}
	audience, ok := audienceOf(r.PostForm.Get("scope"), r.PostForm.Get("resource"))
	if !ok {
		tokenError(w, http.StatusBadRequest, "invalid_scope", 1002012,
			"The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).")
		return
	}
	token, expires, err := a.Issue(issuer(r, tenant), tenant, clientID, audience)
	if err != nil {
		tokenError(w, http.StatusInternalServerError, "server_error", 0, err.Error())
		return
	}
	lifetime := int64(expires.Sub(a.cfg.Now()).Round(time.Second) / time.Second)
	w.Header().Set("Cache-Control", "no-store")
	httpjson.Write(w, http.StatusOK, map[string]any{
		"token_type":     "Bearer",
		"expires_in":     lifetime,
		"ext_expires_in": lifetime,
		"access_token":   token,
		"resource":       audience,
	}, httpjson.EscapeHTML())
}

// audienceOf reads the resource from a v2 scope list ("<resource>/.default",
// other scopes such as openid ignored) or a v1 resource parameter.
func audienceOf(scope, resource string) (string, bool) {
	for _, s := range strings.Fields(scope) {
		if res, ok := strings.CutSuffix(s, "/.default"); ok && res != "" {
			return res, true
		}
	}
	if resource != "" {
		return resource, true
	}
	return "", false
}

// tokenError answers in the OAuth 2.0 error shape Entra uses.
func tokenError(w http.ResponseWriter, status int, code string, aadsts int, message string) {
	desc := message
	if aadsts != 0 {
		desc = fmt.Sprintf("AADSTS%d: %s", aadsts, message)
	}
	body := map[string]any{"error": code, "error_description": desc}
	if aadsts != 0 {
		body["error_codes"] = []int{aadsts}
	}
	httpjson.Write(w, status, body, httpjson.EscapeHTML())
}

// Plane is what a request is for: Audiences lists the token audiences it
// takes.
type Plane struct {
	// Name is used in messages: "Azure Resource Manager", "Event Grid".
	Name      string
	Audiences []string
	// RequireToken: in strict mode, a request without a bearer token is
	// refused too (ARM has no other credential).
	RequireToken bool
}

// ARMPlane is Azure Resource Manager's: it takes ARM tokens only (an Event
// Grid token is refused, as Azure refuses it), and under --strict-auth it
// takes no request without one.
func ARMPlane() *Plane {
	return &Plane{Name: "Azure Resource Manager", RequireToken: true,
		Audiences: []string{AudienceARM, "https://management.core.windows.net"}}
}

// EventGridPlane is an Event Grid data plane's (basic topics, domains,
// namespaces): Event Grid tokens only; a key or SAS serves instead of one.
func EventGridPlane() *Plane {
	return &Plane{Name: "Event Grid", Audiences: []string{AudienceEventGrid}}
}

// OnPlane marks h as serving plane p. A plane belongs to the handler the
// router chose, not to the path as the client spelt it: any spelling of a
// path that reaches an ARM handler ("//subscriptions/…", "/./", "%2F",
// another letter case) is checked as ARM, because the check runs after the
// route is found, on the route's own handler (Middleware).
//
// The marked handler serves nothing by itself: reached without
// Middleware, which unwraps it, it answers 500, so a router wired without
// the check fails closed rather than serving unchecked.
func OnPlane(p *Plane, h http.Handler) http.Handler { return &planeHandler{plane: p, next: h} }

type planeHandler struct {
	plane *Plane
	next  http.Handler
}

func (h *planeHandler) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusInternalServerError, map[string]any{"error": map[string]string{
		"code": "InternalServerError", "message": "GridBridge routed this request to a handler of the " + h.plane.Name +
			" plane without its token check; nothing was done."}}, httpjson.EscapeHTML())
}

// PlaneOf is the plane h was marked with by OnPlane, or nil.
func PlaneOf(h http.Handler) *Plane {
	if p, ok := h.(*planeHandler); ok {
		return p.plane
	}
	return nil
}

// Middleware is the router middleware that checks bearer tokens on every
// route marked with OnPlane: a token this authority issued must be valid
// for the route's plane, or the request gets 401 as Azure answers it.
// Tokens it did not issue pass unless strict. Routes with no plane
// (EventBridge, SQS, the inspection API, the authority itself) pass as
// they are, at no cost.
//
// Use it as the root router's only middleware: mux hands a router's
// middleware the matched route's handler, which is how the plane is found.
func (a *Authority) Middleware(strict bool) mux.MiddlewareFunc {
	return func(next http.Handler) http.Handler {
		h, ok := next.(*planeHandler)
		if !ok {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a.admit(w, r, h.plane, strict) {
				h.next.ServeHTTP(w, r)
			}
		})
	}
}

// admit checks r's bearer token for plane and answers the refusal itself
// when it fails.
func (a *Authority) admit(w http.ResponseWriter, r *http.Request, plane *Plane, strict bool) bool {
	scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		if strict && plane.RequireToken {
			refuse(w, r, "AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing.")
			return false
		}
		return true
	}
	_, err := a.Verify(token, plane.Audiences...)
	switch {
	case err == nil:
	case errors.Is(err, ErrNotIssued) && !strict:
	case errors.Is(err, ErrNotIssued):
		refuse(w, r, "InvalidAuthenticationToken", "The access token is invalid: the emulator runs with --strict-auth and did not issue it.")
		return false
	case errors.Is(err, ErrExpired):
		refuse(w, r, "ExpiredAuthenticationToken", "The access token expiry UTC time is earlier than current UTC time (on the emulator clock).")
		return false
	case errors.Is(err, ErrAudience):
		refuse(w, r, "InvalidAuthenticationTokenAudience",
			fmt.Sprintf("The access token has been obtained for wrong audience or resource. It should exactly match one of the allowed audiences of %s: %s.",
				plane.Name, strings.Join(plane.Audiences, ", ")))
		return false
	default:
		refuse(w, r, "InvalidAuthenticationToken", "The access token is invalid: "+err.Error()+".")
		return false
	}
	return true
}

// refuse answers 401 with the ARM error shape (Event Grid's data plane
// uses the same {"error":{"code","message"}} body) and a bearer challenge.
func refuse(w http.ResponseWriter, r *http.Request, code, message string) {
	w.Header().Set("WWW-Authenticate", `Bearer authorization_uri="`+base(r)+`/common", error="invalid_token", error_description="`+code+`"`)
	httpjson.Write(w, http.StatusUnauthorized, map[string]any{"error": map[string]string{"code": code, "message": message}}, httpjson.EscapeHTML())
}
