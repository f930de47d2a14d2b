// Package auth checks the credentials of namespace data-plane requests.
package auth

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
)

// Error is a refused credential; the caller answers 401 with its message.
type Error struct{ Message string }

func (e *Error) Error() string { return e.Message }

// Check accepts a request that proves one of keys (the namespace's key1 and
// key2, and the topic's keys when the request names a topic) in any form the
// service takes:
//
//   - Authorization: SharedAccessKey <key> — what the Go and JS SDKs send;
//   - aeg-sas-key: <key> header, or ?aeg-sas-key=<key> — what curl users send;
//   - Authorization: Bearer <token> — Entra ID. A token the emulator's own
//     authority issued was already verified (signature, audience, expiry)
//     before the request got here (compat/entra's Guard); any other
//     non-empty token is accepted unless the emulator runs --strict-auth.
//
// SAS tokens (SharedAccessSignature, aeg-sas-token) are refused with a
// message saying so: their expiry format is UNCONFIRMED for namespaces.
func Check(r *http.Request, keys []string) error {
	if key := r.Header.Get("aeg-sas-key"); key != "" {
		return matchKey(key, keys)
	}
	if key := r.URL.Query().Get("aeg-sas-key"); key != "" {
		return matchKey(key, keys)
	}
	authz := strings.TrimSpace(r.Header.Get("Authorization"))
	if authz == "" {
		if r.Header.Get("aeg-sas-token") != "" {
			return sasUnsupported()
		}
		return &Error{Message: "The request is not authorized: send Authorization: SharedAccessKey <key> (a key from listKeys), or Authorization: Bearer <token>."}
	}
	scheme, credential, _ := strings.Cut(authz, " ")
	credential = strings.TrimSpace(credential)
	switch {
	case strings.EqualFold(scheme, "SharedAccessKey"):
		return matchKey(credential, keys)
	case strings.EqualFold(scheme, "Bearer"):
		if credential == "" {
			return &Error{Message: "The bearer token is empty."}
		}
		return nil
	case strings.EqualFold(scheme, "SharedAccessSignature"):
		return sasUnsupported()
	}
	return &Error{Message: "The Authorization scheme is not supported: use SharedAccessKey <key> or Bearer <token>."}
}

func sasUnsupported() error {
	return &Error{Message: "Shared access signature tokens are not supported by GridBridge: send Authorization: SharedAccessKey <key> instead."}
}

func matchKey(got string, keys []string) error {
	ok := 0
	for _, k := range keys {
		if k != "" {
			ok |= subtle.ConstantTimeCompare([]byte(got), []byte(k))
		}
	}
	if ok == 1 {
		return nil
	}
	return &Error{Message: "The request is not authorized: the access key is not valid for this namespace or topic."}
}

// IsAuthError reports whether err came from Check.
func IsAuthError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
