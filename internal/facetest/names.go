package facetest

import (
	"crypto/rand"
	"encoding/hex"
	"testing"
)

// UniqueName is prefix and twelve random hex digits: a resource name no
// parallel test also uses.
func UniqueName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Must unwraps a (value, error) result, failing the test on the error:
//
//	out := facetest.Must[*eventbridge.PutRuleOutput](t)(client.PutRule(ctx, in))
func Must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
