package awsmodel

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the constraint a Violation broke.
type Kind uint8

// The constraints of the models.
const (
	Required Kind = iota + 1
	MinLength
	MaxLength
	MinValue
	MaxValue
	Enum
	Pattern
)

// Violation is one input value that breaks its model's constraint.
type Violation struct {
	Kind Kind
	// Path is the member as AWS's request validation names it:
	// lower-camel members, list elements as "targets.1.member".
	Path string
	// Member is the member's name in the model ("EventBusName"); for a
	// list element or map entry, the list's or map's.
	Member string
	// Value is the value as written in the message; nil: null.
	Value *string
	// Bound is the length or value bound broken; Allowed the enum's
	// values or the pattern.
	Bound   float64
	Allowed []string
	Pattern string
}

// Constraint is the sentence AWS's request validation writes for v
// ("Member must have length less than or equal to 64").
func (v Violation) Constraint() string {
	switch v.Kind {
	case Required:
		return "Member must not be null"
	case MinLength:
		return "Member must have length greater than or equal to " + number(v.Bound)
	case MaxLength:
		return "Member must have length less than or equal to " + number(v.Bound)
	case MinValue:
		return "Member must have value greater than or equal to " + number(v.Bound)
	case MaxValue:
		return "Member must have value less than or equal to " + number(v.Bound)
	case Enum:
		return "Member must satisfy enum value set: [" + strings.Join(v.Allowed, ", ") + "]"
	case Pattern:
		return "Member must satisfy regular expression pattern: " + v.Pattern
	}
	return "Member is not valid"
}

// String is the violation as one item of AWS's ValidationException message.
func (v Violation) String() string {
	shown := "null"
	if v.Value != nil {
		shown = "'" + *v.Value + "'"
	}
	return fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: %s", shown, v.Path, v.Constraint())
}

// Message is AWS's ValidationException message for vs ("1 validation
// error detected: ...; ..."); "" for none.
func Message(vs []Violation) string {
	if len(vs) == 0 {
		return ""
	}
	items := make([]string, len(vs))
	for i, v := range vs {
		items[i] = v.String()
	}
	noun := "errors"
	if len(vs) == 1 {
		noun = "error"
	}
	return fmt.Sprintf("%d validation %s detected: %s", len(vs), noun, strings.Join(items, "; "))
}

// Checker checks requests against one service's table. It is safe for
// concurrent use.
type Checker struct {
	svc *Service
	ops map[string]*Operation
	// patterns are the shapes' compiled patterns, matched against the
	// whole value as AWS's validation does; nil where a shape has none or
	// Go's regexp cannot compile the model's (Unenforced lists those).
	patterns []*regexp.Regexp
	// Unenforced are the patterns left unchecked, with the reason.
	Unenforced []string
}

// NewChecker compiles svc's patterns.
func NewChecker(svc *Service) *Checker {
	c := &Checker{svc: svc, ops: map[string]*Operation{}, patterns: make([]*regexp.Regexp, len(svc.Shapes))}
	for i := range svc.Operations {
		c.ops[svc.Operations[i].Name] = &svc.Operations[i]
	}
	for i, s := range svc.Shapes {
		if s.Pattern == "" {
			continue
		}
		re, err := regexp.Compile(`^(?:` + s.Pattern + `)$`)
		if err != nil {
			c.Unenforced = append(c.Unenforced, fmt.Sprintf("pattern %s: %v", s.Pattern, err))
			continue
		}
		c.patterns[i] = re
	}
	return c
}

// Service is the checker's table.
func (c *Checker) Service() *Service { return c.svc }

// Input is one request's input as it arrived: the JSON body and, for a
// restJson1 API, the path labels, query and headers.
type Input struct {
	Body   []byte
	Labels map[string]string
	Query  url.Values
	Header http.Header
}

// Check returns the violations of op's constraints in in, in the order
// of the model's members. An operation the table does not have, or a body
// that is not JSON, is checked no further: answering those is the
// protocol's job.
func (c *Checker) Check(op string, in Input) []Violation {
	o, ok := c.ops[op]
	if !ok || o.Input < 0 {
		return nil
	}
	var body any
	if b := bytes.TrimSpace(in.Body); len(b) > 0 {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if d.Decode(&body) != nil {
			return nil
		}
	}
	fields, _ := body.(map[string]any)
	var vs []Violation
	s := &c.svc.Shapes[o.Input]
	for _, m := range s.Members {
		path := lowerFirst(m.Name)
		var value any
		present := false
		switch m.In {
		case InBody:
			value, present = fields[m.Name]
			present = present && value != nil
		case InLabel:
			var v string
			v, present = in.Labels[m.Wire]
			value = v
		case InQuery:
			if vals, ok := in.Query[m.Wire]; ok {
				value, present = c.fromText(m.Shape, vals), true
			}
		case InHeader:
			if v := in.Header.Values(m.Wire); len(v) > 0 {
				value, present = c.fromText(m.Shape, v), true
			}
		}
		if !present {
			if m.Required {
				vs = append(vs, Violation{Kind: Required, Path: path, Member: m.Name})
			}
			continue
		}
		vs = c.value(vs, m.Shape, path, m.Name, value)
	}
	return vs
}

// fromText reads a query parameter's or header's text as its shape's
// JSON value would be.
func (c *Checker) fromText(shape int, vals []string) any {
	s := &c.svc.Shapes[shape]
	switch s.Type {
	case List:
		out := make([]any, len(vals))
		for i, v := range vals {
			out[i] = c.fromText(s.Elem, []string{v})
		}
		return out
	case Integer, Long, Float:
		if _, err := strconv.ParseFloat(vals[0], 64); err == nil {
			return json.Number(vals[0])
		}
	}
	return vals[0]
}

func (c *Checker) value(vs []Violation, shape int, path, member string, value any) []Violation {
	s := &c.svc.Shapes[shape]
	switch s.Type {
	case String:
		str, ok := value.(string)
		if !ok {
			return vs
		}
		vs = length(vs, s.Length, path, member, &str, utf8.RuneCountInString(str))
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			vs = append(vs, Violation{Kind: Enum, Path: path, Member: member, Value: &str, Allowed: s.Enum})
		}
		if re := c.patterns[shape]; re != nil && !re.MatchString(str) {
			vs = append(vs, Violation{Kind: Pattern, Path: path, Member: member, Value: &str, Pattern: s.Pattern})
		}
	case Blob:
		str, ok := value.(string)
		if !ok {
			return vs
		}
		raw, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return vs
		}
		vs = length(vs, s.Length, path, member, &str, len(raw))
	case Integer, Long, Float:
		n, ok := value.(json.Number)
		if !ok {
			return vs
		}
		f, err := n.Float64()
		if err != nil {
			return vs
		}
		shown := n.String()
		if s.Range.HasMin && f < s.Range.Min {
			vs = append(vs, Violation{Kind: MinValue, Path: path, Member: member, Value: &shown, Bound: s.Range.Min})
		}
		if s.Range.HasMax && f > s.Range.Max {
			vs = append(vs, Violation{Kind: MaxValue, Path: path, Member: member, Value: &shown, Bound: s.Range.Max})
		}
	case List:
		items, ok := value.([]any)
		if !ok {
			return vs
		}
		shown := fmt.Sprintf("[%d items]", len(items))
		if len(items) == 0 {
			shown = "[]"
		}
		vs = length(vs, s.Length, path, member, &shown, len(items))
		for i, item := range items {
			if item != nil {
				vs = c.value(vs, s.Elem, fmt.Sprintf("%s.%d.member", path, i+1), member, item)
			}
		}
	case Map:
		entries, ok := value.(map[string]any)
		if !ok {
			return vs
		}
		shown := fmt.Sprintf("{%d entries}", len(entries))
		vs = length(vs, s.Length, path, member, &shown, len(entries))
		keys := make([]string, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			vs = c.value(vs, s.Key, path+".key", member, k)
			if entries[k] != nil {
				vs = c.value(vs, s.Elem, path+"."+k, member, entries[k])
			}
		}
	case Structure, Union:
		fields, ok := value.(map[string]any)
		if !ok {
			return vs
		}
		for _, m := range s.Members {
			v, present := fields[m.Name]
			sub := path + "." + lowerFirst(m.Name)
			if !present || v == nil {
				if m.Required && s.Type == Structure {
					vs = append(vs, Violation{Kind: Required, Path: sub, Member: m.Name})
				}
				continue
			}
			vs = c.value(vs, m.Shape, sub, m.Name, v)
		}
	}
	return vs
}

func length(vs []Violation, b Bound, path, member string, shown *string, n int) []Violation {
	if b.HasMin && float64(n) < b.Min {
		vs = append(vs, Violation{Kind: MinLength, Path: path, Member: member, Value: shown, Bound: b.Min})
	}
	if b.HasMax && float64(n) > b.Max {
		vs = append(vs, Violation{Kind: MaxLength, Path: path, Member: member, Value: shown, Bound: b.Max})
	}
	return vs
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
