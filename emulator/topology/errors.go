package topology

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a topology file, located by line and by
// the path of the field in the file's structure.
type Problem struct {
	File    string
	Line    int    // 0 when the problem concerns the whole file
	Field   string // e.g. "eventgrid.topics[0].subscriptions[1].webhook"; "" for the file
	Message string
}

// String is the problem as "file:line: field: message", the form editors and
// terminals turn into a link.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// InvalidFileError is what Load and Parse return for a file that cannot be
// applied: every problem found, in file order, so one run shows them all.
type InvalidFileError struct {
	Problems []Problem
}

func (e *InvalidFileError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// problems collects what decoding finds, in file order.
type problems struct {
	file string
	list []Problem
}

func (ps *problems) add(line int, field, format string, args ...any) {
	ps.list = append(ps.list, Problem{File: ps.file, Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
}

// err returns the problems as an *InvalidFileError, or nil when there are none.
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	sort.SliceStable(ps.list, func(i, j int) bool { return ps.list[i].Line < ps.list[j].Line })
	return &InvalidFileError{Problems: ps.list}
}

// APIError is an emulator request of Apply that failed: the resource it was
// for, where the file declares it, and what the emulator answered.
type APIError struct {
	File      string
	Line      int
	Field     string // the resource's path in the file, e.g. "eventbridge.buses[0].rules[1]"
	Resource  string // e.g. `rule "big-orders" on bus "orders"`
	Operation string // e.g. "PutRule" or "PUT topic"
	Status    int
	Code      string // the emulator's error code, when it gave one
	Message   string // the emulator's error message, verbatim
	// Hint says what to do when the failure has a known cause in GridBridge
	// itself (an API or hook this emulator does not have yet).
	Hint string
}

func (e *APIError) Error() string {
	p := Problem{File: e.File, Line: e.Line, Field: e.Field}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the emulator refused %s (HTTP %d", e.Resource, e.Operation, e.Status)
	if e.Code != "" {
		b.WriteString(" ")
		b.WriteString(e.Code)
	}
	fmt.Fprintf(&b, "): %q", e.Message)
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	p.Message = b.String()
	return p.String()
}

// HookMissingError reports that the emulator ignored a GridBridge-only
// request header the topology relies on (fixed keys, skipped validation):
// the file asks for something this build of the emulator cannot do yet.
type HookMissingError struct {
	File     string
	Line     int
	Field    string
	Resource string
	Hook     string // the header the emulator should honour
	Detail   string
}

func (e *HookMissingError) Error() string {
	return Problem{File: e.File, Line: e.Line, Field: e.Field,
		Message: fmt.Sprintf("%s: %s (this emulator does not honour the %s request header)", e.Resource, e.Detail, e.Hook)}.String()
}
