package publish

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/sas"
)

// authorize checks the request's credentials against the topic and returns
// why it is refused, or "" when it may publish. It accepts (W-EG-2.2):
// aeg-sas-key as a header or query parameter, aeg-sas-token or
// "Authorization: SharedAccessSignature …", and any bearer token: one the
// emulator's Entra ID authority issued was already verified in front of this
// handler (compat/entra's Guard), and others pass unless --strict-auth.
func authorize(r *http.Request, t *resource.Topic, endpoint string, now time.Time) string {
	key := r.Header.Get("aeg-sas-key")
	if key == "" {
		key = r.URL.Query().Get("aeg-sas-key")
	}
	token := r.Header.Get("aeg-sas-token")
	scheme, credential, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if token == "" && strings.EqualFold(scheme, "SharedAccessSignature") {
		token = strings.TrimSpace(credential)
	}
	switch {
	case key != "" || token != "":
		if t.DisableLocalAuth {
			return "Local authentication (access keys and SAS tokens) is disabled for topic " + t.Name + "; publish with a Microsoft Entra ID bearer token."
		}
		if key != "" {
			return checkKey(key, t, r)
		}
		return checkToken(token, t, endpoint, now, r)
	case strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(credential) != "":
		return ""
	}
	return "Request must contain one of the following authorization signature: aeg-sas-token, aeg-sas-key."
}

func checkKey(key string, t *resource.Topic, r *http.Request) string {
	for _, k := range t.AccessKeys() {
		if k != "" && subtle.ConstantTimeCompare([]byte(key), []byte(k)) == 1 {
			return ""
		}
	}
	return notAuthorized(r, "The access key does not match either key of the topic.")
}

func checkToken(token string, t *resource.Topic, endpoint string, now time.Time, r *http.Request) string {
	err := sas.Verify(token, t.AccessKeys(), endpoint, now)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, sas.ErrExpired):
		return notAuthorized(r, "The SAS token has expired.")
	case errors.Is(err, sas.ErrResource):
		return notAuthorized(r, "The SAS token was issued for another resource.")
	case errors.Is(err, sas.ErrMalformed):
		return notAuthorized(r, "The SAS token is malformed; expected r=<resource>&e=<expiry>&s=<signature>.")
	}
	return notAuthorized(r, "The SAS token signature does not match either key of the topic.")
}

// notAuthorized words a refused credential as the service does, naming the
// host and path the request was sent to.
func notAuthorized(r *http.Request, reason string) string {
	return "The request authorization key is not authorized for " + strings.ToUpper(r.Host+r.URL.Path) +
		". This is due to the reason: " + reason
}
