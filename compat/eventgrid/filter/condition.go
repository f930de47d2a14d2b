package filter

import (
	"encoding/json"
	"strconv"
	"strings"
)

// condition is one compiled advanced filter.
type condition struct {
	op       Operator
	key      string
	negated  bool
	envelope bool // key outside data; see stringValue
	number   float64
	boolean  bool
	numbers  []float64
	ranges   [][2]float64
	strs     []string
}

// match evaluates the condition against the value at its key.
//
// Rules, from the [filtering doc] unless marked:
//   - A missing key, or a JSON null (unconfirmed: null is treated as
//     undefined, as IsNullOrUndefined does), matches only NumberNotIn,
//     StringNotIn and NumberNotInRange; see Operator.matchesMissingKey.
//   - IsNullOrUndefined and IsNotNull look only at presence, never at type.
//   - An array value never matches unless enableAdvancedFilteringOnArrays
//     ([edge doc]: "the matching operation fails"). With it, a positive
//     operator holds if any element hits, a NOT operator fails if any element
//     hits (FOR_EACH … MATCH / FAIL_MATCH), so an empty array satisfies every
//     NOT operator and no positive one.
//   - Arrays of objects, nested arrays and objects are not supported and never
//     match ("Event Grid doesn't support filtering on an array of objects").
//   - A value whose type differs from the filter's is ignored: a positive
//     operator does not hold, a NOT operator is not failed by it.
func (c *condition) match(e Event, arrays bool) bool {
	v, ok := e.Lookup(c.key)
	if !ok || v == nil {
		return c.op.matchesMissingKey()
	}
	switch c.op {
	case IsNullOrUndefined:
		return false
	case IsNotNull:
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		return false
	case []any:
		if !arrays {
			return false
		}
		return c.matchElements(x)
	default:
		return c.hits(x) != c.negated
	}
}

// matchElements applies the array rule to the elements of an array value.
func (c *condition) matchElements(elems []any) bool {
	hit := false
	for _, el := range elems {
		switch el.(type) {
		case map[string]any, []any:
			return false
		}
		if !hit && c.hits(el) {
			hit = true
		}
	}
	return hit != c.negated
}

// hits reports whether the scalar v satisfies the positive form of the
// operator (for StringNotContains: contains one of the values). A value of
// another type never hits.
func (c *condition) hits(v any) bool {
	switch c.op.operand() {
	case operandNumber, operandNumbers, operandRanges:
		n, ok := numberValue(v)
		return ok && c.hitsNumber(n)
	case operandBool:
		b, ok := v.(bool)
		return ok && b == c.boolean
	case operandStrings:
		s, ok := c.stringValue(v)
		return ok && c.hitsString(s)
	}
	return false
}

func (c *condition) hitsNumber(n float64) bool {
	switch c.op {
	case NumberLessThan:
		return n < c.number
	case NumberGreaterThan:
		return n > c.number
	case NumberLessThanOrEquals:
		return n <= c.number
	case NumberGreaterThanOrEquals:
		return n >= c.number
	case NumberIn, NumberNotIn:
		for _, want := range c.numbers {
			if n == want {
				return true
			}
		}
	case NumberInRange, NumberNotInRange:
		for _, r := range c.ranges {
			if r[0] <= n && n <= r[1] {
				return true
			}
		}
	}
	return false
}

func (c *condition) hitsString(s string) bool {
	for _, want := range c.strs {
		var hit bool
		switch c.op {
		case StringIn, StringNotIn:
			hit = strings.EqualFold(s, want)
		case StringBeginsWith, StringNotBeginsWith:
			hit = hasPrefixFold(s, want)
		case StringEndsWith, StringNotEndsWith:
			hit = hasSuffixFold(s, want)
		case StringContains, StringNotContains:
			hit = containsFold(s, want)
		}
		if hit {
			return true
		}
	}
	return false
}

// stringValue returns the text a string operator compares. Data values must
// be strings (other types are ignored). Envelope attributes outside data are
// compared by their text even when numeric or boolean: CloudEvents attributes
// are defined by their string form, and the [filtering doc] applies
// StringBeginsWith ["5","1"] to the numeric extension attribute
// comexampleothervalue: 5 (unconfirmed beyond that example). Formatting
// allocates, but only on this rare path.
func (c *condition) stringValue(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		if c.envelope {
			return strconv.FormatFloat(x, 'f', -1, 64), true
		}
	case bool:
		if c.envelope {
			return strconv.FormatBool(x), true
		}
	}
	return "", false
}

// numberValue accepts float64, which encoding/json produces, and the numeric
// types other Event implementations might hand over.
func numberValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}
