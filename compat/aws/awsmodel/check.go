package awsmodel

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
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
	// Secret marks a value of a sensitive member, left out of the
	// message as AWS leaves it out.
	Secret bool
	// Between words a bound broken as the whole range ("between 1 and
	// 64"), as the restJson1 APIs do, where the trait has both ends.
	Between bool
	// Bound is the length or value bound broken, Bounds the whole trait;
	// Allowed the enum's values or the pattern.
	Bound   float64
	Bounds  Bound
	Allowed []string
	Pattern string
}

// Constraint is the sentence AWS's request validation writes for v
// ("Member must have length less than or equal to 64").
func (v Violation) Constraint() string {
	switch v.Kind {
	case Required:
		return "Member must not be null"
	case MinLength, MaxLength, MinValue, MaxValue:
		if v.Between && v.Bounds.HasMin && v.Bounds.HasMax {
			what := "length"
			if v.Kind == MinValue || v.Kind == MaxValue {
				what = "value"
			}
			return "Member must have " + what + " between " + number(v.Bounds.Min) + " and " + number(v.Bounds.Max)
		}
	}
	switch v.Kind {
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
		// AWS's messages quote a pattern without the anchors the
		// published models add to it.
		p := v.Pattern
		if strings.HasPrefix(p, "^") && strings.HasSuffix(p, "$") && !strings.HasSuffix(p, `\$`) {
			p = p[1 : len(p)-1]
		}
		return "Member must satisfy regular expression pattern: " + p
	}
	return "Member is not valid"
}

// String is the violation as one item of AWS's ValidationException message.
func (v Violation) String() string {
	shown := "null "
	switch {
	case v.Secret:
		shown = ""
	case v.Value != nil:
		shown = "'" + *v.Value + "' "
	}
	return fmt.Sprintf("Value %sat '%s' failed to satisfy constraint: %s", shown, v.Path, v.Constraint())
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
	// Wording is how the service words what its violations show.
	Wording Wording
	// exemptions are the service's Exemptions.
	exemptions map[Exemption]string
	// bodyOnly marks the input shapes whose members all travel in the
	// body, which quick can clear without decoding.
	bodyOnly map[int]bool
}

// Wording is how a service's messages word bounds and values, which AWS's
// services do differently.
type Wording struct {
	// LengthBetween and ValueBetween write a bound broken as the whole
	// range ("Member must have length between 1 and 64") where the trait
	// has both ends, rather than the end broken.
	LengthBetween, ValueBetween bool
	// CollectionsAsNull shows a list or map as null rather than its
	// items.
	CollectionsAsNull bool
	// JSONPaths names members as JSON paths do ("filter.values[0]",
	// "tags.key") rather than as AWS's validation does
	// ("targets.1.member", "tags.member.key"), with members as the model
	// spells them.
	JSONPaths bool
	// EnumsIgnoreCase takes an enum's values in any letter case, as
	// Azure Resource Manager does.
	EnumsIgnoreCase bool
}

func (c *Checker) join(path, name string) string { return c.Wording.Join(path, name) }

func (c *Checker) elem(path string, i int) string { return c.Wording.Elem(path, i) }

func (c *Checker) entry(path, key string) (string, string) { return c.Wording.Entry(path, key) }

// Join is the path of member name below path ("" for the input's own).
func (w Wording) Join(path, name string) string {
	if !w.JSONPaths {
		name = lowerFirst(name)
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// Elem is the path of a list's element i (from 0).
func (w Wording) Elem(path string, i int) string {
	if w.JSONPaths {
		return fmt.Sprintf("%s[%d]", path, i)
	}
	return fmt.Sprintf("%s.%d.member", path, i+1)
}

// Entry is the paths of a map entry's key and value.
func (w Wording) Entry(path, key string) (string, string) {
	if w.JSONPaths {
		return path, path + "." + key
	}
	return path + ".member.key", path + ".member.value"
}

// NewChecker compiles svc's patterns; its messages are worded as the
// service words them.
func NewChecker(svc *Service, wording Wording) *Checker {
	c := &Checker{svc: svc, ops: map[string]*Operation{}, patterns: make([]*regexp.Regexp, len(svc.Shapes)), Wording: wording}
	c.exemptions = Exemptions(svc.Name)
	c.bodyOnly = map[int]bool{}
	for i := range svc.Operations {
		op := &svc.Operations[i]
		c.ops[op.Name] = op
		if op.Input < 0 {
			continue
		}
		c.bodyOnly[op.Input] = !slices.ContainsFunc(svc.Shapes[op.Input].Members, func(m Member) bool { return m.In != InBody })
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
	if len(in.Labels) == 0 && len(in.Query) == 0 && len(in.Header) == 0 && c.bodyOnly[o.Input] {
		b := bytes.TrimSpace(in.Body)
		if len(b) == 0 {
			b = []byte("{}")
		}
		if c.quick(b, o.Input) {
			return nil
		}
	}
	var body any
	if b := bytes.TrimSpace(in.Body); len(b) > 0 {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if d.Decode(&body) != nil {
			return nil
		}
	}
	fields, isObject := body.(map[string]any)
	if body != nil && !isObject {
		return nil
	}
	w := &walk{c: c}
	s := &c.svc.Shapes[o.Input]
	for _, m := range s.Members {
		path := c.join("", m.Name)
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
				w.vs = append(w.vs, Violation{Kind: Required, Path: path, Member: m.Name})
			}
			continue
		}
		w.value(m.Shape, path, m.Name, value)
	}
	if w.mistyped {
		// A member of the wrong JSON type is the protocol's
		// SerializationException, answered before any constraint.
		return nil
	}
	vs := w.vs[:0]
	for _, v := range w.vs {
		if !c.exempt(op, v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return vs
}

// secret hides the values of violations from index from on, for a
// sensitive shape.
func secret(vs []Violation, from int, s *Shape) []Violation {
	if s.Sensitive {
		for i := from; i < len(vs); i++ {
			vs[i].Value, vs[i].Secret = nil, true
		}
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

// walk is one check's progress through a request's values.
type walk struct {
	c  *Checker
	vs []Violation
	// mistyped is set by a value of another JSON type than its shape's.
	mistyped bool
}

func (w *walk) value(shape int, path, member string, value any) {
	from := len(w.vs)
	w.vs = w.valueOf(w.vs, shape, path, member, value)
	w.vs = secret(w.vs, from, &w.c.svc.Shapes[shape])
}

func (w *walk) valueOf(vs []Violation, shape int, path, member string, value any) []Violation {
	c := w.c
	s := &c.svc.Shapes[shape]
	mistyped := func() []Violation { w.mistyped = true; return vs }
	switch s.Type {
	case String:
		str, ok := value.(string)
		if !ok {
			return mistyped()
		}
		vs = c.length(vs, s.Length, path, member, &str, utf8.RuneCountInString(str))
		if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e string) bool { return e == str || c.Wording.EnumsIgnoreCase && strings.EqualFold(e, str) }) {
			vs = append(vs, Violation{Kind: Enum, Path: path, Member: member, Value: &str, Allowed: s.Enum})
		}
		if re := c.patterns[shape]; re != nil && !re.MatchString(str) {
			vs = append(vs, Violation{Kind: Pattern, Path: path, Member: member, Value: &str, Pattern: s.Pattern})
		}
	case Blob:
		str, ok := value.(string)
		if !ok {
			return mistyped()
		}
		raw, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return vs
		}
		vs = c.length(vs, s.Length, path, member, &str, len(raw))
	case Integer, Long, Float:
		n, ok := value.(json.Number)
		if !ok {
			return mistyped()
		}
		f, err := n.Float64()
		if err != nil || !fits(s.Type, f) {
			return mistyped()
		}
		shown := n.String()
		if s.Range.HasMin && f < s.Range.Min {
			vs = append(vs, Violation{Kind: MinValue, Path: path, Member: member, Value: &shown, Bound: s.Range.Min, Bounds: s.Range, Between: c.Wording.ValueBetween})
		}
		if s.Range.HasMax && f > s.Range.Max {
			vs = append(vs, Violation{Kind: MaxValue, Path: path, Member: member, Value: &shown, Bound: s.Range.Max, Bounds: s.Range, Between: c.Wording.ValueBetween})
		}
	case List:
		items, ok := value.([]any)
		if !ok {
			return mistyped()
		}
		if l := s.Length; (l.HasMin && float64(len(items)) < l.Min) || (l.HasMax && float64(len(items)) > l.Max) {
			vs = c.length(vs, s.Length, path, member, c.shownCollection(shape, items), len(items))
		}
		for i, item := range items {
			if item != nil {
				w.vs = vs
				w.value(s.Elem, c.elem(path, i), member, item)
				vs = w.vs
			}
		}
	case Map:
		entries, ok := value.(map[string]any)
		if !ok {
			return mistyped()
		}
		if l := s.Length; (l.HasMin && float64(len(entries)) < l.Min) || (l.HasMax && float64(len(entries)) > l.Max) {
			vs = c.length(vs, s.Length, path, member, c.shownCollection(shape, entries), len(entries))
		}
		keys := make([]string, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w.vs = vs
			keyPath, valuePath := c.entry(path, k)
			w.value(s.Key, keyPath, member, k)
			if entries[k] != nil {
				w.value(s.Elem, valuePath, member, entries[k])
			}
			vs = w.vs
		}
	case Boolean:
		if _, ok := value.(bool); !ok {
			return mistyped()
		}
	case Timestamp:
		// Both JSON protocols send a timestamp as epoch seconds; past
		// ±1e13 (the year 300,000) no time type holds it.
		n, ok := value.(json.Number)
		if !ok {
			return mistyped()
		}
		if f, err := n.Float64(); err != nil || math.Abs(f) > 1e13 {
			return mistyped()
		}
	case Structure, Union:
		fields, ok := value.(map[string]any)
		if !ok {
			return mistyped()
		}
		if s.Discriminator != "" {
			return w.variant(vs, s, path, fields)
		}
		for _, m := range s.Members {
			v, present := fields[m.Name]
			sub := c.join(path, m.Name)
			if !present || v == nil {
				if m.Required && s.Type == Structure {
					vs = append(vs, Violation{Kind: Required, Path: sub, Member: m.Name})
				}
				continue
			}
			w.vs = vs
			w.value(m.Shape, sub, m.Name, v)
			vs = w.vs
		}
	}
	return vs
}

// variant checks a polymorphic object as the variant its discriminator
// names.
func (w *walk) variant(vs []Violation, s *Shape, path string, fields map[string]any) []Violation {
	sub := w.c.join(path, s.Discriminator)
	values := make([]string, len(s.Variants))
	for i, v := range s.Variants {
		values[i] = v.Value
	}
	raw, present := fields[s.Discriminator]
	if !present || raw == nil {
		return append(vs, Violation{Kind: Required, Path: sub, Member: s.Discriminator})
	}
	kind, ok := raw.(string)
	if !ok {
		w.mistyped = true
		return vs
	}
	for _, v := range s.Variants {
		if v.Value == kind {
			w.vs = vs
			w.value(v.Shape, path, s.Discriminator, fields)
			return w.vs
		}
	}
	return append(vs, Violation{Kind: Enum, Path: sub, Member: s.Discriminator, Value: &kind, Allowed: values})
}

func (c *Checker) length(vs []Violation, b Bound, path, member string, shown *string, n int) []Violation {
	if b.HasMin && float64(n) < b.Min {
		vs = append(vs, Violation{Kind: MinLength, Path: path, Member: member, Value: shown, Bound: b.Min, Bounds: b, Between: c.Wording.LengthBetween})
	}
	if b.HasMax && float64(n) > b.Max {
		vs = append(vs, Violation{Kind: MaxLength, Path: path, Member: member, Value: shown, Bound: b.Max, Bounds: b, Between: c.Wording.LengthBetween})
	}
	return vs
}

// fits reports whether f is a value of type t: integers whole and within
// their width.
func fits(t Type, f float64) bool {
	switch t {
	case Integer:
		return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
	case Long:
		return f == math.Trunc(f) && f >= math.MinInt64 && f <= math.MaxInt64
	}
	return !math.IsInf(f, 0)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// shownCollection is a list's or map's value in a violation: nil (null)
// where the service shows no collections.
func (c *Checker) shownCollection(shape int, value any) *string {
	if c.Wording.CollectionsAsNull {
		return nil
	}
	shown := c.show(shape, value)
	return &shown
}

// show writes a value as AWS's messages do, in the Java notation of the
// service's own objects: a structure as Name(member=value, ...) in the
// model's order, a list as [a, b], a map as {k=v}; a sensitive value as
// AWS redacts it.
func (c *Checker) show(shape int, value any) string {
	s := &c.svc.Shapes[shape]
	if c.Wording.CollectionsAsNull && (s.Type == List || s.Type == Map) {
		return "null"
	}
	if s.Sensitive {
		return "*** Sensitive Data Redacted ***"
	}
	switch v := value.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = c.show(s.Elem, item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if s.Type == Map {
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = k + "=" + c.show(s.Elem, v[k])
			}
			return "{" + strings.Join(parts, ", ") + "}"
		}
		parts := make([]string, len(s.Members))
		for i, m := range s.Members {
			parts[i] = lowerFirst(m.Name) + "=" + c.show(m.Shape, v[m.Name])
		}
		return s.Name + "(" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprint(value)
}
