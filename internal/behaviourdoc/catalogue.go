package behaviourdoc

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// idPattern matches a rule id as code and tests cite it.
var idPattern = regexp.MustCompile(`\b(?:(?:EG|NS|EB)-D?[0-9]+|D-(?:CLOCK|DROP|SINKS)|W-(?:EG|NS|EB)-[0-9]+(?:\.[0-9]+)?)\b`)

// Citations maps each cited id to the packages (directories relative to
// root) whose production code cites it and those whose tests do.
type Citations map[string]*Places

// Places are the package directories citing one id.
type Places struct {
	Implemented map[string]bool
	Tested      map[string]bool
}

// skipDir reports directories that hold no project Go code.
func skipDir(name string) bool {
	switch name {
	case ".git", ".tools", ".logs", "node_modules", "testdata", "vendor":
		return true
	}
	return false
}

// Scan reads every Go file below root and records the ids it cites.
func Scan(root string) (Citations, error) {
	out := Citations{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		test := strings.HasSuffix(path, "_test.go")
		for _, id := range idPattern.FindAllString(string(src), -1) {
			p := out[id]
			if p == nil {
				p = &Places{Implemented: map[string]bool{}, Tested: map[string]bool{}}
				out[id] = p
			}
			if test {
				p.Tested[rel] = true
			} else {
				p.Implemented[rel] = true
			}
		}
		return nil
	})
	return out, err
}

// Entries returns the ids that have a "### ID" heading in the catalogue.
func Entries(doc []byte) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "### "); ok {
			out[strings.TrimSpace(id)] = true
		}
	}
	return out
}

// whereLine is the generated line under an entry.
func whereLine(p *Places) string {
	if p == nil {
		return "Where: not cited in the code yet."
	}
	list := func(m map[string]bool) string {
		if len(m) == 0 {
			return "nowhere yet"
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, "`"+k+"`")
		}
		sort.Strings(keys)
		return strings.Join(keys, ", ")
	}
	return fmt.Sprintf("Where: implemented in %s; tested in %s.", list(p.Implemented), list(p.Tested))
}

// Render returns the catalogue with every entry's Where line regenerated:
// the line after an entry's prose paragraph, replaced if present.
func Render(doc []byte, cites Citations) []byte {
	lines := strings.Split(string(doc), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		id, ok := strings.CutPrefix(line, "### ")
		if !ok {
			continue
		}
		// Copy the prose up to the blank line (or next heading), drop an
		// old Where line, and write the new one.
		j := i + 1
		for ; j < len(lines) && lines[j] != "" && !strings.HasPrefix(lines[j], "#"); j++ {
			if !strings.HasPrefix(lines[j], "Where: ") {
				out = append(out, lines[j])
			}
		}
		out = append(out, whereLine(cites[strings.TrimSpace(id)]))
		i = j - 1
	}
	return []byte(strings.Join(out, "\n"))
}
