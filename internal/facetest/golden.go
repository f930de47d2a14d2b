package facetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Golden returns testdata/name of the calling test's package, without the
// one final newline an editor adds: a file holding `{…}` reads back as
// exactly `{…}`, so a test may compare or splice it byte for byte.
func Golden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("golden file: %v", err)
	}
	return bytes.TrimSuffix(b, []byte("\n"))
}
