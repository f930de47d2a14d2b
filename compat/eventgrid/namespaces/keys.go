package namespaces

import (
	"crypto/rand"
	"encoding/base64"
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
