package arm

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
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

// fixedKeys sets the topic keys that the request's key headers name.
func fixedKeys(r *http.Request, t *resource.Topic) *resource.Error {
	for _, k := range []struct {
		header string
		key    *string
	}{{HeaderKey1, &t.Key1}, {HeaderKey2, &t.Key2}} {
		v := r.Header.Get(k.header)
		if v == "" {
			continue
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return resource.Invalid("The %s header must be a base64 key.", k.header)
		}
		*k.key = v
	}
	return nil
}

type skipValidationKey struct{}

// provisionContext is the context Provision runs in: the request's, marked
// when the request asked to skip the validation handshake.
func provisionContext(r *http.Request) context.Context {
	if r.Header.Get(HeaderSkipValidation) == "true" {
		return context.WithValue(r.Context(), skipValidationKey{}, true)
	}
	return r.Context()
}

// SkipValidation reports whether the event-subscription request that ctx
// belongs to asked to skip the validation handshake.
func SkipValidation(ctx context.Context) bool {
	v, _ := ctx.Value(skipValidationKey{}).(bool)
	return v
}
