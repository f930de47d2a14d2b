package behaviourdoc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the Where lines of docs/behaviour.md")

const root = "../.."

var catalogue = filepath.Join(root, "docs", "behaviour.md")

func scan(t *testing.T) (Citations, []byte) {
	t.Helper()
	cites, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(catalogue)
	if err != nil {
		t.Fatal(err)
	}
	return cites, doc
}

// Every id cited in code or tests has an entry, so a reader can follow it
// without any outside document.
func TestEveryCitedIDHasAnEntry(t *testing.T) {
	cites, doc := scan(t)
	entries := Entries(doc)
	var missing []string
	for id := range cites {
		if !entries[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("ids cited in the code but missing from docs/behaviour.md: %s", strings.Join(missing, ", "))
	}
}

func TestWhereLinesAreCurrent(t *testing.T) {
	cites, doc := scan(t)
	want := Render(doc, cites)
	if *update {
		if err := os.WriteFile(catalogue, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(doc, want) {
		t.Error("docs/behaviour.md's Where lines are stale: run go test ./internal/behaviourdoc -update")
	}
}

// outsidePointers are ways a comment or document could point a reader
// outside the repository: a section of a reference the repo does not have,
// its source-quality markers, the steering documents' paths, or a work
// item's number. What the code follows must be readable from the repo
// itself: cite an id of docs/behaviour.md, or a public source by its URL.
var outsidePointers = []struct {
	pattern *regexp.Regexp
	instead string
}{
	{regexp.MustCompile(`reference §`), "cite a W- id from docs/behaviour.md"},
	{regexp.MustCompile(`\[(?:reference|DOC|SDK|SRC)\]`), "cite a W- id from docs/behaviour.md, or the public source by its URL"},
	{regexp.MustCompile(`shared/(?:spec|reference|seeds)|BEHAVIOUR\.md|\.\./shared/`), "cite the id from docs/behaviour.md"},
	{regexp.MustCompile(`(?i)(?:^|[^/\w])issues? #?[0-9]+\b`), "say what the code does or the target it meets, not which work item asked for it"},
}

// pointerFile reports the files whose text the pointer check reads: the
// project's code, scripts and documents.
func pointerFile(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".md", ".js", ".mjs", ".sh", ".py", ".yaml", ".yml", ".css", ".html":
		return true
	}
	return filepath.Base(path) == "Dockerfile"
}

// Comments and documents point nowhere outside the repository.
func TestNoPointerOutsideTheRepository(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() || !pointerFile(path) || strings.Contains(path, "behaviourdoc") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, p := range outsidePointers {
				if m := p.pattern.FindString(line); m != "" {
					t.Errorf("%s:%d points outside the repository (%q): %s", path, i+1, strings.TrimSpace(m), p.instead)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOutsidePointersAreRecognised(t *testing.T) {
	for line, want := range map[string]bool{
		"// see reference §8, trap 1":                 true,
		"// the body shape [SDK]":                     true,
		"// as shared/spec/BEHAVIOUR.md says":         true,
		"// (issue 10 item 4)":                        true,
		"// Issue #12: retry":                         true,
		"// golang/go#51484: the fuzzing coordinator": false,
		"// docs/behaviour.md's EG-7":                 false,
		"// an issue with the SDK's paging":           false,
		"// LocalStack #7920 asks for pipes":          false,
	} {
		got := false
		for _, p := range outsidePointers {
			got = got || p.pattern.MatchString(line)
		}
		if got != want {
			t.Errorf("%q: recognised %v, want %v", line, got, want)
		}
	}
}

func TestRenderReplacesOnlyWhereLines(t *testing.T) {
	doc := []byte("# T\n\n### EG-1\nRule one.\nWhere: old.\n\n### EG-2\nRule two.\n")
	cites := Citations{"EG-1": {Implemented: map[string]bool{"a": true}, Tested: map[string]bool{"b": true, "a": true}}}
	got := string(Render(doc, cites))
	want := "# T\n\n### EG-1\nRule one.\nWhere: implemented in `a`; tested in `a`, `b`.\n\n### EG-2\nRule two.\nWhere: not cited in the code yet.\n"
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}
