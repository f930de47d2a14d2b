package pattern

import (
	"sort"
	"strings"
)

// maxBranches bounds how many branches the "$or" blocks of one pattern may multiply out to.
// AWS documents a limit of 1000 combinations; the wording of its error is not recorded, so
// the reason given here is GridBridge's own.
const maxBranches = 1000

const tooManyBranchesReason = "Rule is too complex - $or expressions create more than 1000 combinations"

// draft is one branch while the pattern is being read: field path -> value list. A field seen
// again replaces the earlier one, which is how AWS resolves duplicate keys (last one wins).
type draft map[string]fieldValues

type fieldValues struct {
	matchers []valueMatcher
	absent   bool
}

// compiler reads a pattern token by token and builds its branches, checking each rule as it
// goes, in the same order as AWS, so that a pattern with several faults reports the same one.
type compiler struct {
	lx *lexer
}

// compilePattern validates pattern text and returns its branches, each with fields sorted by path.
func compilePattern(src string) ([]draft, error) {
	c := &compiler{lx: newLexer(src)}
	tok, err := c.lx.next()
	if err != nil {
		return nil, err
	}
	if tok != tokStartObject {
		return nil, invalidPattern("Filter is not an object")
	}
	var branches []draft
	if err := c.object(&branches, nil, false); err != nil {
		return nil, err
	}
	if err := checkWildcardComplexity(branches); err != nil {
		return nil, err
	}
	return branches, nil
}

// object reads the members of an object after its "{". path holds the keys leading to it.
// Fields are added to every branch in *branches; "$or" replaces the branches by their products.
func (c *compiler) object(branches *[]draft, path []string, inOr bool) error {
	empty := true
	for {
		tok, err := c.lx.next()
		if err != nil {
			return err
		}
		if tok == tokEndObject {
			break
		}
		empty = false
		name := c.lx.text
		if name == "$or" {
			if err := c.or(branches, path); err != nil {
				return err
			}
			continue
		}
		if inOr && reservedInOr(name) {
			return invalidPattern(name + " is Ruler reserved fieldName which cannot be used inside $or.")
		}
		if tok, err = c.lx.next(); err != nil {
			return err
		}
		switch tok {
		case tokStartObject:
			if err := c.object(branches, append(path[:len(path):len(path)], name), inOr); err != nil {
				return err
			}
		case tokStartArray:
			if err := c.valueList(branches, fieldPath(path, name)); err != nil {
				return err
			}
		default:
			return invalidPattern(`"` + name + `" must be an object or an array`)
		}
	}
	if empty {
		return invalidPattern("Empty objects are not allowed")
	}
	return nil
}

// fieldPath names the field name inside the object at path. The keys are joined with ".",
// except that a field of an object whose joined path is "" takes just its own name; AWS names
// fields this way, so {"": {"x": [1]}} is the field "x".
func fieldPath(path []string, name string) string {
	base := strings.Join(path, ".")
	if base == "" {
		return name
	}
	return base + "." + name
}

// or reads the array after "$or": each object in it is a sub-pattern at the current path, and
// the branches become every existing branch combined with every sub-pattern.
func (c *compiler) or(branches *[]draft, path []string) error {
	before := copyBranches(*branches)
	*branches = nil
	tok, err := c.lx.next()
	if err != nil {
		return err
	}
	if tok != tokStartArray {
		return invalidPattern("It must be an Array followed with $or.")
	}
	count := 0
	for {
		if tok, err = c.lx.next(); err != nil {
			return err
		}
		if tok == tokEndArray {
			break
		}
		count++
		if tok != tokStartObject {
			return invalidPattern("Only JSON object is allowed in array of $or relationship.")
		}
		alternative := copyBranches(before)
		if len(alternative) == 0 {
			alternative = append(alternative, draft{})
		}
		if err := c.object(&alternative, path, true); err != nil {
			return err
		}
		*branches = append(*branches, alternative...)
		if len(*branches) > maxBranches {
			return invalidPattern(tooManyBranchesReason)
		}
	}
	if count < 2 {
		return invalidPattern("There must have at least 2 Objects in $or relationship.")
	}
	return nil
}

func copyBranches(branches []draft) []draft {
	out := make([]draft, len(branches))
	for i, b := range branches {
		out[i] = make(draft, len(b))
		for k, v := range b {
			out[i][k] = v
		}
	}
	return out
}

// reservedInOr lists the names that may not be field names inside "$or": the operators, and
// names AWS keeps for future operators.
func reservedInOr(name string) bool {
	switch name {
	case "exactly", "equals-ignore-case", "prefix", "suffix", "anything-but", "exists", "wildcard",
		"numeric", "cidr", "=", "<", "<=", ">", ">=", "regex", "not-wildcard", "not-equals-ignore-case",
		"date-after", "date-on-or-after", "date-before", "date-on-or-before", "in-date-range",
		"ip-address-in-range", "ip-address-not-in-range":
		return true
	}
	return false
}

// valueList reads a field's array of values (after "[") and sets the field on every branch.
func (c *compiler) valueList(branches *[]draft, path string) error {
	var values fieldValues
	n := 0
	for {
		tok, err := c.lx.next()
		if err != nil {
			return err
		}
		if tok == tokEndArray {
			break
		}
		n++
		switch tok {
		case tokStartObject:
			m, absent, err := c.matchExpression()
			if err != nil {
				return err
			}
			if absent {
				values.absent = true
			} else {
				values.matchers = append(values.matchers, m)
			}
		case tokString:
			s, err := c.lx.stringText()
			if err != nil {
				return err
			}
			values.matchers = append(values.matchers, exactStringOrIP(s))
		case tokInt, tokFloat:
			values.matchers = append(values.matchers, newExactNumber(c.lx.text))
		case tokTrue:
			values.matchers = append(values.matchers, exactLiteral{leafTrue})
		case tokFalse:
			values.matchers = append(values.matchers, exactLiteral{leafFalse})
		case tokNull:
			values.matchers = append(values.matchers, exactLiteral{leafNull})
		default:
			return invalidPattern("Match value must be String, number, true, false, or null")
		}
	}
	if n == 0 {
		return invalidPattern("Empty arrays are not allowed")
	}
	if len(*branches) == 0 {
		*branches = append(*branches, draft{})
	}
	for _, b := range *branches {
		b[path] = values
	}
	return nil
}

// exactStringOrIP compiles a plain string value; an IP address matches by address.
func exactStringOrIP(s string) valueMatcher {
	if addr, outcome := parseIP(s); outcome == validIP {
		return exactIP{addr: addr}
	}
	return exactString{s: s}
}

// toSubRules turns finished drafts into branches with fields sorted by path, numbering paths
// in table.
func toSubRules(drafts []draft, table *pathTable) []*subRule {
	rules := make([]*subRule, 0, len(drafts))
	for _, d := range drafts {
		r := &subRule{fields: make([]fieldCond, 0, len(d))}
		for path, v := range d {
			r.fields = append(r.fields, fieldCond{
				path:     path,
				pathID:   table.add(path),
				matchers: v.matchers,
				absent:   v.absent,
			})
		}
		sort.Slice(r.fields, func(i, j int) bool { return r.fields[i].path < r.fields[j].path })
		rules = append(rules, r)
	}
	return rules
}

// checkWildcardComplexity applies AWS's complexity limit to the wildcard values of each field.
func checkWildcardComplexity(drafts []draft) error {
	type key struct {
		anythingBut bool
		text        string
	}
	perPath := map[string][]wildcardPattern{}
	seen := map[string]map[key]bool{}
	add := func(path string, anythingBut bool, w wildcardPattern) {
		k := key{anythingBut, w.text}
		if seen[path] == nil {
			seen[path] = map[key]bool{}
		}
		if !seen[path][k] {
			seen[path][k] = true
			perPath[path] = append(perPath[path], w)
		}
	}
	for _, d := range drafts {
		for path, v := range d {
			for _, m := range v.matchers {
				switch m := m.(type) {
				case *wildcardMatcher:
					add(path, false, m.w)
				case *anythingButWildcard:
					for _, w := range m.values {
						add(path, true, w)
					}
				}
			}
		}
	}
	for _, values := range perPath {
		if wildcardComplexityExceeds(values, maxWildcardComplexity) {
			return invalidPattern(tooComplexReason)
		}
	}
	return nil
}
