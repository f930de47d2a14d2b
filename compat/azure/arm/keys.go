package arm

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
)

// GridBridge-only request headers, sent by the topology file
// (emulator/topology) when it creates resources at start: ARM itself can
// neither choose a key's value nor skip a webhook's validation handshake.
// Azure ignores unknown headers, so no real client depends on them.
const (
	HeaderKey1           = "X-GridBridge-Key1"
	HeaderKey2           = "X-GridBridge-Key2"
	HeaderSkipValidation = "X-GridBridge-Skip-Validation"
)

// NewKey makes an access key as Azure's look: 32 random bytes in base64
// (44 characters), so SAS tooling that decodes keys works on them.
func NewKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base64.StdEncoding.EncodeToString(b[:])
}

// FixedKeys returns keys with those the request's key headers fix
// replacing the given ones.
func FixedKeys(r *http.Request, keys [2]string) ([2]string, *Error) {
	for i, header := range []string{HeaderKey1, HeaderKey2} {
		v := r.Header.Get(header)
		if v == "" {
			continue
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return keys, BadRequest("The %s header must be a base64 key.", header)
		}
		keys[i] = v
	}
	return keys, nil
}

// SkipValidation reports whether r asked to skip the webhook validation
// handshake.
func SkipValidation(r *http.Request) bool { return r.Header.Get(HeaderSkipValidation) == "true" }
