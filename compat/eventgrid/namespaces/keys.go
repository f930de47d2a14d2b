package namespaces

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// newKey makes an access key the way Azure does: 32 random bytes in base64
// (44 characters), so SAS tooling that decodes keys works on them.
func newKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.StdEncoding.EncodeToString(b[:])
}

func newKeyPair() [2]string { return [2]string{newKey(), newKey()} }

// keyIndex maps a validated keyName to its slot.
func keyIndex(name string) int {
	if name == "key2" {
		return 1
	}
	return 0
}

// GridBridge-only request headers through which the topology file
// (emulator/topology) fixes keys at start; ARM can only generate them.
const (
	headerKey1 = "X-GridBridge-Key1"
	headerKey2 = "X-GridBridge-Key2"
)

// keysFor returns keys with those the request's key headers fix replacing
// the given ones.
func keysFor(r *http.Request, keys [2]string) ([2]string, *armmodel.Error) {
	for i, header := range []string{headerKey1, headerKey2} {
		v := r.Header.Get(header)
		if v == "" {
			continue
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return keys, armmodel.BadRequest("The %s header must be a base64 key.", header)
		}
		keys[i] = v
	}
	return keys, nil
}
