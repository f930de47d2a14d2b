package pattern

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// knownDivergences lists conformance cases GridBridge does not pass, with the reason; they are
// skipped, not failed.
var knownDivergences = map[string]string{}

// conformanceDir finds the recorded EventBridge pattern cases: $GRIDBRIDGE_CONFORMANCE_DIR, or
// shared/conformance/eventbridge-patterns beside the repository.
func conformanceDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("GRIDBRIDGE_CONFORMANCE_DIR"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "conformance", "eventbridge-patterns")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root (go.mod) not found")
		}
		dir = parent
	}
}

// recordedErrors maps a case name to the first line of the message AWS gave for it.
func recordedErrors(t *testing.T, dir string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "aws-recorded-errors.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var snapshot map[string]struct {
		RecordedContent map[string]json.RawMessage `json:"recorded-content"`
	}
	if err := json.Unmarshal(raw, &snapshot); err != nil {
		t.Fatal(err)
	}
	type recording struct {
		ExceptionMessage struct {
			Error struct{ Code, Message string }
		} `json:"exception_message"`
	}
	out := map[string]string{}
	for key, entry := range snapshot {
		open := strings.LastIndex(key, "test_event_pattern[")
		if open < 0 || !strings.HasSuffix(key, "]") {
			continue
		}
		name := key[open+len("test_event_pattern[") : len(key)-1]
		var rec recording
		if body, ok := entry.RecordedContent[name]; !ok || json.Unmarshal(body, &rec) != nil {
			continue
		}
		if rec.ExceptionMessage.Error.Message != "" {
			if rec.ExceptionMessage.Error.Code != "InvalidEventPatternException" {
				t.Fatalf("%s: unexpected error code %q", name, rec.ExceptionMessage.Error.Code)
			}
			out[name], _, _ = strings.Cut(rec.ExceptionMessage.Error.Message, "\n")
		}
	}
	return out
}

func TestConformance(t *testing.T) {
	t.Parallel()
	dir := conformanceDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("conformance cases not present at %s", dir)
	}
	messages := recordedErrors(t, dir)
	files, err := filepath.Glob(filepath.Join(dir, "*.json5"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no cases in %s", dir)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json5")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if reason, ok := knownDivergences[name]; ok {
				t.Skip(reason)
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c struct{ Event, EventPattern json.RawMessage }
			if err := json.Unmarshal(stripJSON5(raw), &c); err != nil {
				t.Fatalf("reading case: %v", err)
			}
			switch {
			case strings.HasSuffix(name, "_EXC"):
				want, ok := messages[name]
				if !ok {
					t.Fatalf("no recorded message for %s", name)
				}
				expectInvalid(t, string(c.EventPattern), want)
			case strings.HasSuffix(name, "_NEG"):
				expectMatch(t, string(c.EventPattern), c.Event, false)
			default:
				expectMatch(t, string(c.EventPattern), c.Event, true)
			}
		})
	}
}

// TestConformanceMultiKey is the recorded case of a pattern repeating a key: the last wins.
func TestConformanceMultiKey(t *testing.T) {
	t.Parallel()
	dir := conformanceDir(t)
	event, err := os.ReadFile(filepath.Join(dir, "complex_multi_key_event.json"))
	if err != nil {
		t.Skipf("conformance cases not present: %v", err)
	}
	pattern, err := os.ReadFile(filepath.Join(dir, "complex_multi_key_event_pattern.json"))
	if err != nil {
		t.Fatal(err)
	}
	expectMatch(t, string(pattern), event, true)
}

func expectInvalid(t *testing.T, pattern, want string) {
	t.Helper()
	_, err := Parse(pattern)
	var invalid *InvalidPatternError
	if !errors.As(err, &invalid) {
		t.Fatalf("Parse(%s) = %v, want InvalidPatternError %q", pattern, err, want)
	}
	if invalid.Message != want {
		t.Fatalf("Parse(%s) message\n got: %q\nwant: %q", pattern, invalid.Message, want)
	}
}

// expectMatch checks the pattern against the event both alone and inside a Matcher.
func expectMatch(t *testing.T, pattern string, event []byte, want bool) {
	t.Helper()
	p, err := Parse(pattern)
	if err != nil {
		t.Fatalf("Parse(%s): %v", pattern, err)
	}
	got, err := p.Match(event)
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	if got != want {
		t.Fatalf("Pattern.Match = %v, want %v\npattern: %s\nevent: %s", got, want, pattern, event)
	}
	m := NewMatcher()
	m.Add("rule", p)
	ids, err := m.Match(event)
	if err != nil {
		t.Fatalf("Matcher.Match: %v", err)
	}
	if matched := len(ids) == 1 && ids[0] == "rule"; matched != want || len(ids) > 1 {
		t.Fatalf("Matcher.Match = %v, want match %v\npattern: %s\nevent: %s", ids, want, pattern, event)
	}
}
