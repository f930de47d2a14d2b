package eventbridge

import (
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

var (
	namePattern    = regexp.MustCompile(`^[\.\-_A-Za-z0-9]+$`)
	busNamePattern = regexp.MustCompile(`^[/\.\-_A-Za-z0-9]+$`)
	// busRefPattern is what EventBusName members accept: a name or a bus ARN.
	// inputPathKeyPattern is what InputPathsMap keys may be.
	inputPathKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_\-]+$`)
	busRefPattern       = regexp.MustCompile(`^(arn:aws[\w-]*:events:[a-z]+-[a-z]+-[\w-]+:[0-9]{12}:event-bus/)?[/\.\-_A-Za-z0-9]+$`)
)

const (
	busRefConstraint  = `(arn:aws[\w-]*:events:[a-z]+-[a-z]+-[\w-]+:[0-9]{12}:event-bus\/)?[/\.\-_A-Za-z0-9]+`
	busNameConstraint = `[/\.\-_A-Za-z0-9]+`
)

// checkName validates a resource name member against AWS's length and
// pattern constraints.
func checkName(v *awsjson.Violations, value *string, path string, maxLen int, required bool) {
	if value == nil {
		if required {
			v.Required(path)
		}
		return
	}
	checkLength(v, value, path, 1, maxLen)
	if *value != "" && !namePattern.MatchString(*value) {
		v.Add(value, path, awsjson.Pattern(awsjson.NamePattern))
	}
}

// checkLength validates a string member's length in characters.
func checkLength(v *awsjson.Violations, value *string, path string, minLen, maxLen int) {
	if value == nil {
		return
	}
	n := utf8.RuneCountInString(*value)
	if n < minLen {
		v.Add(value, path, awsjson.MinLength(minLen))
	}
	if maxLen > 0 && n > maxLen {
		v.Add(value, path, awsjson.MaxLength(maxLen))
	}
}

// checkBusRef validates an EventBusName member (a name or ARN).
func checkBusRef(v *awsjson.Violations, value *string, path string) {
	if value == nil {
		return
	}
	checkLength(v, value, path, 1, 1600)
	if *value != "" && !busRefPattern.MatchString(*value) {
		v.Add(value, path, awsjson.Pattern(busRefConstraint))
	}
}

// checkRange validates an integer member.
func checkRange(v *awsjson.Violations, value *int32, path string, lo, hi int) {
	if value == nil {
		return
	}
	if int(*value) < lo {
		v.Add(ptr(itoa(int(*value))), path, awsjson.MinValue(lo))
	}
	if int(*value) > hi {
		v.Add(ptr(itoa(int(*value))), path, awsjson.MaxValue(hi))
	}
}

// checkState validates a State member against its enum.
func checkState(v *awsjson.Violations, value *string, states []string) {
	if value != nil && !slices.Contains(states, *value) {
		v.Add(value, "state", awsjson.Enum(states...))
	}
}

func ptr[T any](v T) *T { return &v }

func itoa(n int) string { return strconv.Itoa(n) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
