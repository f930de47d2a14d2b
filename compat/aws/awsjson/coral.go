package awsjson

import (
	"fmt"
	"strings"
)

// Violations collects constraint failures in the format AWS's request
// validation uses, so that one request reports them all at once:
// "2 validation errors detected: Value 'x' at 'name' failed to satisfy
// constraint: ...; Value null at 'rule' failed to satisfy constraint: ...".
type Violations struct {
	items []string
}

// Add records that value at path failed constraint. A nil value is written
// as null, anything else quoted.
func (v *Violations) Add(value *string, path, constraint string) {
	shown := "null"
	if value != nil {
		shown = "'" + *value + "'"
	}
	v.items = append(v.items, fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: %s", shown, path, constraint))
}

// Required records a missing required member.
func (v *Violations) Required(path string) {
	v.Add(nil, path, "Member must not be null")
}

// Require records the member at path as missing when value is nil.
func Require[T any](v *Violations, value *T, path string) {
	if value == nil {
		v.Required(path)
	}
}

// Err returns the ValidationException for what was collected, or nil.
func (v *Violations) Err() error {
	switch n := len(v.items); n {
	case 0:
		return nil
	case 1:
		return Validation("1 validation error detected: %s", v.items[0])
	default:
		return Validation("%d validation errors detected: %s", n, strings.Join(v.items, "; "))
	}
}

// Constraint texts as AWS words them.
const (
	NamePattern = `[\.\-_A-Za-z0-9]+`
)

// MaxLength is the constraint text for a too-long value.
func MaxLength(n int) string {
	return fmt.Sprintf("Member must have length less than or equal to %d", n)
}

// MinLength is the constraint text for a too-short value.
func MinLength(n int) string {
	return fmt.Sprintf("Member must have length greater than or equal to %d", n)
}

// MaxValue is the constraint text for a too-large number.
func MaxValue(n int) string {
	return fmt.Sprintf("Member must have value less than or equal to %d", n)
}

// MinValue is the constraint text for a too-small number.
func MinValue(n int) string {
	return fmt.Sprintf("Member must have value greater than or equal to %d", n)
}

// Pattern is the constraint text for a value outside a regular expression.
func Pattern(re string) string {
	return "Member must satisfy regular expression pattern: " + re
}

// Enum is the constraint text for a value outside an enumeration.
func Enum(values ...string) string {
	return "Member must satisfy enum value set: [" + strings.Join(values, ", ") + "]"
}
