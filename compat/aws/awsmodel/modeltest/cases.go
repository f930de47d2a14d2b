// Package modeltest turns an awsmodel table into requests that each break
// one constraint of the model, for tests that send them to a face and
// check the answer: a missing required member, a value one past each
// length and range bound, a value outside each enum, a value outside each
// pattern, every other member of the request valid.
package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
)

// Case is one request breaking one constraint.
type Case struct {
	Op string
	// Body is the JSON body's members; Labels, Query and Header a
	// restJson1 request's other parts.
	Body   map[string]any
	Labels map[string]string
	Query  map[string]string
	Header map[string]string
	// Want is the violation the answer must name.
	Want awsmodel.Violation
}

// Name names the case in a subtest.
func (c Case) Name() string {
	return fmt.Sprintf("%s/%s/%s", c.Op, c.Want.Path, kindName(c.Want.Kind))
}

// Skipped is a constraint no case was made for, with the reason.
type Skipped struct {
	Op, Path, Kind, Reason string
}

// Cases returns a case per constraint of every operation of svc, and the
// constraints it could not make a request for.
func Cases(svc *awsmodel.Service, w awsmodel.Wording) ([]Case, []Skipped) {
	g := &generator{svc: svc, w: w, patterns: map[int]*regexp.Regexp{}}
	for i, s := range svc.Shapes {
		if s.Pattern != "" {
			if re, err := regexp.Compile(`^(?:` + s.Pattern + `)$`); err == nil {
				g.patterns[i] = re
			}
		}
	}
	for _, op := range svc.Operations {
		if op.Input < 0 {
			continue
		}
		g.op = op.Name
		g.operation(op.Input)
	}
	exemptions := awsmodel.Exemptions(svc.Name)
	kept := g.cases[:0]
	for _, c := range g.cases {
		top, _, _ := strings.Cut(c.Want.Path, ".")
		top, _, _ = strings.Cut(top, "[")
		reason := ""
		for e, why := range exemptions {
			if e.Op == c.Op && e.Kind == c.Want.Kind && strings.EqualFold(e.Member, top) {
				reason = why
			}
		}
		if reason != "" {
			g.skipped = append(g.skipped, Skipped{Op: c.Op, Path: c.Want.Path, Kind: kindName(c.Want.Kind), Reason: reason})
			continue
		}
		kept = append(kept, c)
	}
	return kept, g.skipped
}

type generator struct {
	svc      *awsmodel.Service
	w        awsmodel.Wording
	patterns map[int]*regexp.Regexp
	op       string
	cases    []Case
	skipped  []Skipped
}

// maxSent is the longest value a case sends: a bound beyond it is not
// worth a request of that size (the frame's body limit answers first).
const maxSent = 300_000

func (g *generator) skip(path string, k awsmodel.Kind, reason string) {
	g.skipped = append(g.skipped, Skipped{Op: g.op, Path: path, Kind: kindName(k), Reason: reason})
}

// operation makes the cases of one input structure: its members travel in
// the body, labels, query or headers.
func (g *generator) operation(input int) {
	s := &g.svc.Shapes[input]
	base := func() Case {
		c := Case{Op: g.op, Body: map[string]any{}, Labels: map[string]string{}, Query: map[string]string{}, Header: map[string]string{}}
		for _, m := range s.Members {
			if m.Required || m.In == awsmodel.InLabel {
				g.place(&c, m, g.valid(m.Shape, 0))
			}
		}
		return c
	}
	for _, m := range s.Members {
		path := g.w.Join("", m.Name)
		if m.Required {
			if m.In == awsmodel.InLabel {
				g.skip(path, awsmodel.Required, "a label cannot be left out of its URI")
			} else {
				c := base()
				delete(c.Body, m.Name)
				delete(c.Query, m.Wire)
				delete(c.Header, m.Wire)
				c.Want = awsmodel.Violation{Kind: awsmodel.Required, Path: path, Member: m.Name}
				g.cases = append(g.cases, c)
			}
		}
		for _, bad := range g.invalid(m.Shape, path, m.Name, 0) {
			if m.In != awsmodel.InBody {
				text, ok := bad.value.(string)
				if n, isNum := bad.value.(json.Number); isNum {
					text, ok = n.String(), true
				}
				if !ok {
					g.skip(bad.want.Path, bad.want.Kind, "a list in a query parameter or header")
					continue
				}
				if m.In == awsmodel.InLabel && text == "" {
					g.skip(bad.want.Path, bad.want.Kind, "an empty label makes another URI")
					continue
				}
				bad.value = text
			}
			c := base()
			g.place(&c, m, bad.value)
			c.Want = bad.want
			g.cases = append(g.cases, c)
		}
	}
}

func (g *generator) place(c *Case, m awsmodel.Member, v any) {
	text := func() string {
		switch t := v.(type) {
		case string:
			return t
		case json.Number:
			return t.String()
		case bool:
			return fmt.Sprint(t)
		case []any:
			if len(t) > 0 {
				return fmt.Sprint(t[0])
			}
		}
		return fmt.Sprint(v)
	}
	switch m.In {
	case awsmodel.InBody:
		c.Body[m.Name] = v
	case awsmodel.InLabel:
		c.Labels[m.Wire] = text()
	case awsmodel.InQuery:
		c.Query[m.Wire] = text()
	case awsmodel.InHeader:
		c.Header[m.Wire] = text()
	}
}

type badValue struct {
	value any
	want  awsmodel.Violation
}

// invalid returns values of shape that each break one constraint at path,
// everything else about them valid.
func (g *generator) invalid(shape int, path, member string, depth int) []badValue {
	if depth > 6 {
		return nil
	}
	s := &g.svc.Shapes[shape]
	v := func(k awsmodel.Kind, value any, bound float64) badValue {
		return badValue{value: value, want: awsmodel.Violation{Kind: k, Path: path, Member: member, Bound: bound, Allowed: s.Enum, Pattern: s.Pattern}}
	}
	var out []badValue
	switch s.Type {
	case awsmodel.String:
		if len(s.Enum) > 0 {
			out = append(out, v(awsmodel.Enum, "NOT_A_MODEL_VALUE", 0))
			break
		}
		if s.Length.HasMin && s.Length.Min > 0 {
			out = append(out, v(awsmodel.MinLength, g.stringOf(shape, int(s.Length.Min)-1), s.Length.Min))
		}
		if s.Length.HasMax {
			if s.Length.Max+1 > maxSent {
				g.skip(path, awsmodel.MaxLength, fmt.Sprintf("a value over %g characters is over the request size the API reads", s.Length.Max))
			} else {
				out = append(out, v(awsmodel.MaxLength, g.stringOf(shape, int(s.Length.Max)+1), s.Length.Max))
			}
		}
		if s.Pattern != "" {
			if bad, ok := g.outsidePattern(shape); ok {
				out = append(out, v(awsmodel.Pattern, bad, 0))
			} else if g.patterns[shape] == nil {
				g.skip(path, awsmodel.Pattern, "Go's regexp cannot compile the pattern "+s.Pattern)
			} else {
				g.skip(path, awsmodel.Pattern, "every string of an allowed length matches "+s.Pattern)
			}
		}
	case awsmodel.Integer, awsmodel.Long, awsmodel.Float:
		if s.Range.HasMin {
			out = append(out, v(awsmodel.MinValue, num(s.Range.Min-1), s.Range.Min))
		}
		if s.Range.HasMax {
			out = append(out, v(awsmodel.MaxValue, num(s.Range.Max+1), s.Range.Max))
		}
	case awsmodel.List:
		n := g.listLen(s)
		elems := func(k int) []any {
			l := make([]any, k)
			for i := range l {
				l[i] = g.validNth(s.Elem, depth+1, i)
			}
			return l
		}
		if s.Length.HasMin && s.Length.Min > 0 {
			out = append(out, v(awsmodel.MinLength, elems(int(s.Length.Min)-1), s.Length.Min))
		}
		if s.Length.HasMax {
			if s.Length.Max >= 1000 {
				g.skip(path, awsmodel.MaxLength, fmt.Sprintf("a list of over %g items is over the request size the API reads", s.Length.Max))
			} else {
				out = append(out, v(awsmodel.MaxLength, elems(int(s.Length.Max)+1), s.Length.Max))
			}
		}
		for _, b := range g.invalid(s.Elem, g.w.Elem(path, 0), member, depth+1) {
			l := elems(max(n, 1))
			l[0] = b.value
			out = append(out, badValue{value: l, want: b.want})
		}
	case awsmodel.Map:
		entries := func(k int) map[string]any {
			m := map[string]any{}
			for i := range k {
				m[g.keyNth(s.Key, i)] = g.valid(s.Elem, depth+1)
			}
			return m
		}
		if s.Length.HasMin && s.Length.Min > 0 {
			out = append(out, v(awsmodel.MinLength, entries(int(s.Length.Min)-1), s.Length.Min))
		}
		if s.Length.HasMax && s.Length.Max < 1000 {
			out = append(out, v(awsmodel.MaxLength, entries(int(s.Length.Max)+1), s.Length.Max))
		}
		keyPath, valuePath := g.w.Entry(path, g.keyNth(s.Key, 0))
		for _, b := range g.invalid(s.Key, keyPath, member, depth+1) {
			k, ok := b.value.(string)
			if !ok {
				continue
			}
			out = append(out, badValue{value: map[string]any{k: g.valid(s.Elem, depth+1)}, want: b.want})
		}
		key := g.keyNth(s.Key, 0)
		for _, b := range g.invalid(s.Elem, valuePath, member, depth+1) {
			out = append(out, badValue{value: map[string]any{key: b.value}, want: b.want})
		}
	case awsmodel.Structure, awsmodel.Union:
		if s.Discriminator != "" {
			return g.invalidVariants(s, path, depth)
		}
		base := func() map[string]any {
			m := map[string]any{}
			if s.Type == awsmodel.Structure {
				for _, mm := range s.Members {
					if mm.Required {
						m[mm.Name] = g.valid(mm.Shape, depth+1)
					}
				}
			}
			return m
		}
		for _, mm := range s.Members {
			sub := g.w.Join(path, mm.Name)
			if mm.Required && s.Type == awsmodel.Structure {
				m := base()
				delete(m, mm.Name)
				out = append(out, badValue{value: m, want: awsmodel.Violation{Kind: awsmodel.Required, Path: sub, Member: mm.Name}})
			}
			for _, b := range g.invalid(mm.Shape, sub, mm.Name, depth+1) {
				m := base()
				if s.Type == awsmodel.Union {
					m = map[string]any{}
				}
				m[mm.Name] = b.value
				out = append(out, badValue{value: m, want: b.want})
			}
		}
	}
	return out
}

func (g *generator) listLen(s *awsmodel.Shape) int {
	n := 1
	if s.Length.HasMin {
		n = max(n, int(s.Length.Min))
	}
	if s.Length.HasMax {
		n = min(n, int(s.Length.Max))
	}
	return n
}

// valid returns a value of shape that meets every constraint: a structure
// with its required members only.
func (g *generator) valid(shape, depth int) any { return g.validNth(shape, depth, 0) }

// validNth is the nth of distinct valid values (list elements and map keys
// that must differ).
func (g *generator) validNth(shape, depth, nth int) any {
	s := &g.svc.Shapes[shape]
	switch s.Type {
	case awsmodel.String:
		if len(s.Enum) > 0 {
			return s.Enum[0]
		}
		n := 8
		if s.Length.HasMin {
			n = max(n, int(s.Length.Min))
		}
		if s.Length.HasMax {
			n = min(n, int(s.Length.Max))
		}
		if nth > 0 {
			if alt := g.stringOf(shape, n+nth); g.fits(shape, alt) {
				return alt
			}
		}
		if str := g.stringOf(shape, n); g.fits(shape, str) {
			return str
		}
		// The pattern needs some other length: the shortest it builds that
		// fits.
		if tree, err := syntax.Parse(s.Pattern, syntax.Perl); err == nil {
			tree = tree.Simplify()
			for r := range 64 {
				if str := build(tree, r); g.fits(shape, str) {
					return str
				}
			}
		}
		return g.stringOf(shape, n)
	case awsmodel.Integer, awsmodel.Long, awsmodel.Float:
		switch {
		case s.Range.HasMin && s.Range.Min > 1:
			return num(s.Range.Min)
		case s.Range.HasMax && s.Range.Max < 1:
			return num(s.Range.Max)
		}
		return num(1)
	case awsmodel.Boolean:
		return true
	case awsmodel.Timestamp:
		return json.Number("1772366400")
	case awsmodel.Blob:
		return "AAAA"
	case awsmodel.List:
		if depth > 6 {
			return []any{}
		}
		l := make([]any, g.listLen(s))
		for i := range l {
			l[i] = g.validNth(s.Elem, depth+1, i)
		}
		return l
	case awsmodel.Map:
		return map[string]any{g.keyNth(s.Key, nth): g.valid(s.Elem, depth+1)}
	case awsmodel.Structure:
		if s.Discriminator != "" && len(s.Variants) > 0 && depth <= 6 {
			return g.valid(s.Variants[0].Shape, depth)
		}
		m := map[string]any{}
		for _, mm := range s.Members {
			if mm.Required && depth <= 6 {
				m[mm.Name] = g.valid(mm.Shape, depth+1)
			}
		}
		return m
	case awsmodel.Union:
		if len(s.Members) > 0 && depth <= 6 {
			return map[string]any{s.Members[0].Name: g.valid(s.Members[0].Shape, depth+1)}
		}
		return map[string]any{}
	}
	return map[string]any{}
}

func (g *generator) keyNth(shape, nth int) string {
	if k, ok := g.validNth(shape, 0, nth).(string); ok {
		return k
	}
	return fmt.Sprintf("key%d", nth)
}

// fits reports whether str meets shape's length and pattern.
func (g *generator) fits(shape int, str string) bool {
	s := &g.svc.Shapes[shape]
	n := float64(utf8.RuneCountInString(str))
	if (s.Length.HasMin && n < s.Length.Min) || (s.Length.HasMax && n > s.Length.Max) {
		return false
	}
	re := g.patterns[shape]
	return re == nil || re.MatchString(str)
}

// stringOf returns a string of n characters that matches shape's pattern
// where one can be found, else one of n characters.
func (g *generator) stringOf(shape, n int) string {
	s := &g.svc.Shapes[shape]
	if re := g.patterns[shape]; re != nil && n > 0 {
		if str, ok := fromPattern(s.Pattern, re, n); ok && utf8.RuneCountInString(str) == n {
			return str
		}
	}
	return strings.Repeat("a", n)
}

// outsidePattern returns a string of an allowed length that shape's
// pattern refuses.
func (g *generator) outsidePattern(shape int) (string, bool) {
	re := g.patterns[shape]
	if re == nil {
		return "", false
	}
	s := &g.svc.Shapes[shape]
	n := 1
	if s.Length.HasMin {
		n = max(n, int(s.Length.Min))
	}
	if s.Length.HasMax {
		n = min(n, int(s.Length.Max))
	}
	valid := g.stringOf(shape, max(n-1, 1))
	for _, c := range []string{"!", " ", "~", "\t", "é", "#", "%", "*", "/", "a", "0", "\u0001"} {
		for _, cand := range []string{strings.Repeat(c, n), c + valid, valid + c, c + valid[min(1, len(valid)):]} {
			if g.lengthOK(s, cand) && !re.MatchString(cand) {
				return cand, true
			}
		}
	}
	return "", false
}

func (g *generator) lengthOK(s *awsmodel.Shape, str string) bool {
	n := float64(utf8.RuneCountInString(str))
	return !(s.Length.HasMin && n < s.Length.Min) && !(s.Length.HasMax && n > s.Length.Max)
}

// fromPattern builds a string matching re of about n characters: each
// unbounded repetition repeats r times, r the smallest that reaches n.
func fromPattern(pattern string, re *regexp.Regexp, n int) (string, bool) {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	tree = tree.Simplify()
	var best string
	for r := 0; r <= 2*n+2; r = next(r) {
		str := build(tree, r)
		l := utf8.RuneCountInString(str)
		if l >= n {
			best = str
			if l > n {
				// Trim the surplus where the pattern still matches.
				rs := []rune(str)
				if cut := string(rs[:n]); re.MatchString(cut) {
					best = cut
				}
			}
			break
		}
		best = str
	}
	return best, re.MatchString(best) && best != ""
}

func next(r int) int {
	if r < 8 {
		return r + 1
	}
	return r * 2
}

func build(re *syntax.Regexp, r int) string {
	var b strings.Builder
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
		case syntax.OpCharClass:
			b.WriteRune(pick(re.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteRune('a')
		case syntax.OpCapture:
			walk(re.Sub[0])
		case syntax.OpConcat:
			for _, s := range re.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(re.Sub[0])
		case syntax.OpStar:
			for range r {
				walk(re.Sub[0])
			}
		case syntax.OpPlus:
			for range max(r, 1) {
				walk(re.Sub[0])
			}
		case syntax.OpQuest:
		case syntax.OpRepeat:
			k := max(re.Min, min(r, re.Max))
			if re.Max < 0 {
				k = max(re.Min, r)
			}
			for range k {
				walk(re.Sub[0])
			}
		}
	}
	walk(re)
	return b.String()
}

// pick chooses a plain character from a class's ranges: a letter or digit
// where the class has one.
func pick(ranges []rune) rune {
	for _, want := range []rune{'a', 'A', '0', '_', '-'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				return want
			}
		}
	}
	if len(ranges) == 0 {
		return 'a'
	}
	first := ranges[0]
	if first < 0x21 && ranges[1] >= 0x21 {
		return 0x21
	}
	return first
}

func num(f float64) json.Number {
	return json.Number(strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%f", f), "0"), "."))
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func kindName(k awsmodel.Kind) string {
	return map[awsmodel.Kind]string{
		awsmodel.Required: "required", awsmodel.MinLength: "min-length", awsmodel.MaxLength: "max-length",
		awsmodel.MinValue: "min-value", awsmodel.MaxValue: "max-value", awsmodel.Enum: "enum", awsmodel.Pattern: "pattern",
	}[k]
}

// Count is the number of constraints of one kind.
type Count map[string]int

// Counts tallies cases and skipped constraints by kind.
func Counts(cases []Case, skipped []Skipped) (made, left Count) {
	made, left = Count{}, Count{}
	for _, c := range cases {
		made[kindName(c.Want.Kind)]++
	}
	for _, s := range skipped {
		left[s.Kind]++
	}
	return made, left
}

// String lists a count's kinds in order.
func (c Count) String() string {
	keys := make([]string, 0, len(c))
	total := 0
	for k, n := range c {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, c[k])
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

// Input is the case as the checker takes a request.
func Input(c Case) awsmodel.Input {
	body, _ := json.Marshal(c.Body)
	in := awsmodel.Input{Body: body, Labels: c.Labels, Query: url.Values{}, Header: http.Header{}}
	for k, v := range c.Query {
		in.Query.Set(k, v)
	}
	for k, v := range c.Header {
		in.Header.Set(k, v)
	}
	return in
}

// Names reports whether vs holds want: the same kind at the same path.
func Names(vs []awsmodel.Violation, want awsmodel.Violation) bool {
	for _, v := range vs {
		if v.Kind == want.Kind && v.Path == want.Path {
			return true
		}
	}
	return false
}

// invalidVariants breaks a polymorphic object: its discriminator missing,
// outside its values, and each variant's own constraints.
func (g *generator) invalidVariants(s *awsmodel.Shape, path string, depth int) []badValue {
	sub := g.w.Join(path, s.Discriminator)
	values := make([]string, len(s.Variants))
	for i, v := range s.Variants {
		values[i] = v.Value
	}
	out := []badValue{
		{value: map[string]any{}, want: awsmodel.Violation{Kind: awsmodel.Required, Path: sub, Member: s.Discriminator}},
		{value: map[string]any{s.Discriminator: "NOT_A_MODEL_VALUE"}, want: awsmodel.Violation{Kind: awsmodel.Enum, Path: sub, Member: s.Discriminator, Allowed: values}},
	}
	for _, v := range s.Variants {
		for _, b := range g.invalid(v.Shape, path, s.Discriminator, depth+1) {
			if b.want.Path == sub {
				continue // the variant's own one-value enum of its discriminator
			}
			out = append(out, b)
		}
	}
	return out
}
