package filter

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Compile validates f against Azure's limits and prepares it for Match. The
// error, when not nil, is a *ValidationError for the ARM face to answer as 400.
func Compile(f FilterJSON) (*Filter, error) {
	if n := len(f.AdvancedFilters); n > MaxAdvancedFilters {
		return nil, invalid(fmt.Sprintf(
			"The maximum number of advanced filters allowed on an event subscription is %d; the request has %d.",
			MaxAdvancedFilters, n))
	}
	out := &Filter{
		eventTypes:    compileEventTypes(f.IncludedEventTypes),
		subjectPrefix: f.SubjectBeginsWith,
		subjectSuffix: f.SubjectEndsWith,
		caseSensitive: f.IsSubjectCaseSensitive,
		arrays:        f.EnableAdvancedFilteringOnArrays,
		conditions:    make([]condition, 0, len(f.AdvancedFilters)),
	}
	values := 0
	for i, a := range f.AdvancedFilters {
		c, n, err := compileCondition(i+1, a)
		if err != nil {
			return nil, err
		}
		values += n
		out.conditions = append(out.conditions, c)
	}
	if values > MaxAdvancedFilterValues {
		return nil, invalid(fmt.Sprintf(
			"The maximum number of values allowed across all advanced filters of an event subscription is %d; the request has %d.",
			MaxAdvancedFilterValues, values))
	}
	return out, nil
}

// compileEventTypes returns nil for "all event types": a missing list, or one
// that names All [filtering doc: "Provide an array with the event types, or
// specify All to get all event types"].
func compileEventTypes(types []string) []string {
	for _, t := range types {
		if strings.EqualFold(t, "All") {
			return nil
		}
	}
	if len(types) == 0 {
		return nil
	}
	return append([]string(nil), types...)
}

// compileCondition checks one advanced filter (number is its 1-based position,
// for messages) and returns it with the count of values it spends from
// MaxAdvancedFilterValues.
func compileCondition(number int, a AdvancedFilterJSON) (condition, int, error) {
	op, ok := parseOperator(string(a.OperatorType))
	if !ok {
		return condition{}, 0, unsupportedOperator(string(a.OperatorType))
	}
	if strings.TrimSpace(a.Key) == "" {
		return condition{}, 0, invalid(fmt.Sprintf(
			"The key of advanced filter number %d (%s) must be specified.", number, op))
	}
	c := condition{
		op:       op,
		key:      a.Key,
		negated:  op.negated(),
		envelope: isEnvelopeKey(a.Key),
	}
	missing := func(field string) (condition, int, error) {
		return condition{}, 0, invalid(fmt.Sprintf(
			"The advanced filter %s on key '%s' must specify %s.", op, a.Key, field))
	}
	switch op.operand() {
	case operandNone:
		return c, 0, nil
	case operandNumber:
		if a.Number == nil {
			return missing("a numeric value")
		}
		c.number = *a.Number
		return c, 1, nil
	case operandBool:
		if a.Bool == nil {
			return missing("a boolean value")
		}
		c.boolean = *a.Bool
		return c, 1, nil
	case operandNumbers:
		if len(a.Numbers) == 0 {
			return missing("at least one number in values")
		}
		c.numbers = append([]float64(nil), a.Numbers...)
		return c, len(c.numbers), nil
	case operandRanges:
		if len(a.Ranges) == 0 {
			return missing("at least one [low, high] range in values")
		}
		c.ranges = append([][2]float64(nil), a.Ranges...)
		return c, len(c.ranges), nil
	default: // operandStrings
		if len(a.Strings) == 0 {
			return missing("at least one string in values")
		}
		for _, s := range a.Strings {
			if n := utf16Len(s); n > MaxStringValueLength {
				return condition{}, 0, invalid(fmt.Sprintf(
					"The advanced filter %s on key '%s' has a value of %d characters; the maximum is %d characters per string value.",
					op, a.Key, n, MaxStringValueLength))
			}
		}
		c.strs = append([]string(nil), a.Strings...)
		return c, len(c.strs), nil
	}
}

// isEnvelopeKey reports keys outside data: id, topic, subject, type, source,
// CloudEvents extension attributes and the like.
func isEnvelopeKey(key string) bool {
	first, _, _ := strings.Cut(key, ".")
	return !strings.EqualFold(first, "data")
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
