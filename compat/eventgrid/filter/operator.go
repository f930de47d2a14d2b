package filter

import "strings"

// Operator is an advanced filter's operatorType, spelled as ARM spells it.
type Operator string

// The advanced filter operators of the 2025-02-15 ARM API.
const (
	NumberIn                  Operator = "NumberIn"
	NumberNotIn               Operator = "NumberNotIn"
	NumberLessThan            Operator = "NumberLessThan"
	NumberGreaterThan         Operator = "NumberGreaterThan"
	NumberLessThanOrEquals    Operator = "NumberLessThanOrEquals"
	NumberGreaterThanOrEquals Operator = "NumberGreaterThanOrEquals"
	NumberInRange             Operator = "NumberInRange"
	NumberNotInRange          Operator = "NumberNotInRange"
	BoolEquals                Operator = "BoolEquals"
	StringIn                  Operator = "StringIn"
	StringNotIn               Operator = "StringNotIn"
	StringBeginsWith          Operator = "StringBeginsWith"
	StringNotBeginsWith       Operator = "StringNotBeginsWith"
	StringEndsWith            Operator = "StringEndsWith"
	StringNotEndsWith         Operator = "StringNotEndsWith"
	StringContains            Operator = "StringContains"
	StringNotContains         Operator = "StringNotContains"
	IsNullOrUndefined         Operator = "IsNullOrUndefined"
	IsNotNull                 Operator = "IsNotNull"
)

// operators lists every operator; a function rather than a variable so the
// package holds no mutable state.
func operators() [19]Operator {
	return [...]Operator{
		NumberIn, NumberNotIn, NumberLessThan, NumberGreaterThan,
		NumberLessThanOrEquals, NumberGreaterThanOrEquals, NumberInRange,
		NumberNotInRange, BoolEquals, StringIn, StringNotIn, StringBeginsWith,
		StringNotBeginsWith, StringEndsWith, StringNotEndsWith, StringContains,
		StringNotContains, IsNullOrUndefined, IsNotNull,
	}
}

// parseOperator accepts any casing, because the CLI and hand-written templates
// send lower-case enums, and returns the canonical spelling, because the Go SDK
// matches the discriminator case-sensitively on the way back [reference 4.4].
func parseOperator(s string) (Operator, bool) {
	for _, op := range operators() {
		if strings.EqualFold(s, string(op)) {
			return op, true
		}
	}
	return "", false
}

// operand is the JSON shape of an operator's value(s).
type operand int

const (
	operandNone    operand = iota // IsNullOrUndefined, IsNotNull
	operandNumber                 // "value": number
	operandBool                   // "value": boolean
	operandNumbers                // "values": number[]
	operandRanges                 // "values": [low, high][]
	operandStrings                // "values": string[]
)

func (op Operator) operand() operand {
	switch op {
	case NumberLessThan, NumberGreaterThan, NumberLessThanOrEquals, NumberGreaterThanOrEquals:
		return operandNumber
	case BoolEquals:
		return operandBool
	case NumberIn, NumberNotIn:
		return operandNumbers
	case NumberInRange, NumberNotInRange:
		return operandRanges
	case StringIn, StringNotIn, StringBeginsWith, StringNotBeginsWith,
		StringEndsWith, StringNotEndsWith, StringContains, StringNotContains:
		return operandStrings
	default:
		return operandNone
	}
}

// negated reports the NOT operators: they hold when no value of the key hits
// any filter value ([filtering doc]: FAIL_MATCH on the first hit).
func (op Operator) negated() bool {
	switch op {
	case NumberNotIn, NumberNotInRange, StringNotIn, StringNotBeginsWith,
		StringNotEndsWith, StringNotContains:
		return true
	}
	return false
}

// matchesMissingKey is the result of a value operator when the key is absent.
// The [filtering doc] note is asymmetric: only NumberNotIn and StringNotIn
// match a missing key, while StringNotContains, StringNotBeginsWith and
// StringNotEndsWith do not. NumberNotInRange is not listed; GridBridge treats
// it like NumberNotIn (UNCONFIRMED).
func (op Operator) matchesMissingKey() bool {
	switch op {
	case NumberNotIn, StringNotIn, NumberNotInRange, IsNullOrUndefined:
		return true
	}
	return false
}
