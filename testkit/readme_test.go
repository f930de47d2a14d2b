package testkit_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/internal/testbinary"
)

// TestReadmeGoFilesCompileAndPassAsPasted copies every Go file of the
// README (each ```go block that starts with its package clause) into a
// module of its own, outside the repository, that requires GridBridge
// through a replace — what the README tells a user to do — and runs go vet
// and go test there. The file that attaches to a running emulator gets the
// binary, started with the flags the README names.
func TestReadmeGoFilesCompileAndPassAsPasted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own with every README Go file (-short)")
	}
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1) {
		if body := string(m[1]); strings.HasPrefix(body, "package ") {
			files = append(files, body)
		}
	}
	if len(files) < 3 {
		t.Fatalf("the README has %d complete Go files, want the Event Grid, EventBridge and TestMain ones", len(files))
	}

	mod := t.TempDir()
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mustRead(t, filepath.Join(root, "go.mod")))
	if goVersion == nil {
		t.Fatal("go.mod names no go version")
	}
	write(t, filepath.Join(mod, "go.mod"), "module example.com/readme\n\ngo "+string(goVersion[1])+"\n\n"+
		"require github.com/gridbridge/gridbridge v0.0.0\n\nreplace github.com/gridbridge/gridbridge => "+root+"\n")
	// The repository's sums cover every module the files can reach, so no
	// lookup leaves the module cache.
	write(t, filepath.Join(mod, "go.sum"), string(mustRead(t, filepath.Join(root, "go.sum"))))
	for i, f := range files {
		write(t, filepath.Join(mod, "readme"+string(rune('a'+i)), "readme_test.go"), f)
	}

	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GRIDBRIDGE_URL="+proc.Endpoints["http"])
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = mod, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %s in a module of the README's files: %v\n%s", strings.Join(args, " "), err, out.String())
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
