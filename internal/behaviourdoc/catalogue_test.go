package behaviourdoc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
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

// Citations name an id, not a section of a document outside the repository.
func TestNoCitationOfOutsideDocuments(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.Contains(path, "behaviourdoc") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("reference §")) {
			t.Errorf("%s cites a section of an outside reference; cite a W- id from docs/behaviour.md instead", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
