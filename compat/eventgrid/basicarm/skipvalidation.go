package basicarm

import (
	"context"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

type skipValidationKey struct{}

// provisionContext is the context Provision runs in: the request's, marked
// when the request asked to skip the validation handshake
// (arm.HeaderSkipValidation).
func provisionContext(r *arm.Request) context.Context {
	if arm.SkipValidation(r.Request) {
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
