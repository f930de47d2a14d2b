package filter

import (
	"encoding/json"
	"fmt"
	"strings"
)

// AdvancedFilterJSON is one element of properties.filter.advancedFilters. Which
// operand field is meaningful depends on OperatorType:
//
//	NumberLessThan, NumberGreaterThan, *OrEquals  Number  ("value": number)
//	BoolEquals                                     Bool    ("value": boolean)
//	NumberIn, NumberNotIn                          Numbers ("values": number[])
//	NumberInRange, NumberNotInRange                Ranges  ("values": [low, high][])
//	String*                                        Strings ("values": string[])
//	IsNullOrUndefined, IsNotNull                   none
type AdvancedFilterJSON struct {
	OperatorType Operator
	Key          string
	Number       *float64
	Bool         *bool
	Numbers      []float64
	Ranges       [][2]float64
	Strings      []string
}

// UnmarshalJSON reads one advanced filter. The operator may come in any
// casing and is stored canonically. An unknown operator, or an operand of the
// wrong JSON type, is a *ValidationError so the ARM face can answer 400.
// Property names match case-insensitively (encoding/json's rule), which also
// tolerates hand-written templates.
func (a *AdvancedFilterJSON) UnmarshalJSON(data []byte) error {
	var raw struct {
		OperatorType *string         `json:"operatorType"`
		Key          *string         `json:"key"`
		Value        json.RawMessage `json:"value"`
		Values       json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return invalid("An advanced filter must be an object with operatorType, key and value or values.")
	}
	if raw.OperatorType == nil {
		return invalid("The operatorType of an advanced filter must be specified.")
	}
	op, ok := parseOperator(*raw.OperatorType)
	if !ok {
		return unsupportedOperator(*raw.OperatorType)
	}
	*a = AdvancedFilterJSON{OperatorType: op}
	if raw.Key != nil {
		a.Key = *raw.Key
	}
	return a.decodeOperand(raw.Value, raw.Values)
}

func unsupportedOperator(name string) *ValidationError {
	names := make([]string, 0, len(operators()))
	for _, op := range operators() {
		names = append(names, string(op))
	}
	return invalid(fmt.Sprintf("The advanced filter operatorType '%s' is not supported. Supported values are: %s.",
		name, strings.Join(names, ", ")))
}

// decodeOperand fills the operand field of a.OperatorType from "value" or
// "values"; an absent or null operand stays unset and Compile reports it.
func (a *AdvancedFilterJSON) decodeOperand(value, values json.RawMessage) error {
	var (
		field string
		dst   any
		want  string
	)
	switch a.OperatorType.operand() {
	case operandNone:
		return nil
	case operandNumber:
		field, dst, want = "value", &a.Number, "a number"
	case operandBool:
		field, dst, want = "value", &a.Bool, "a boolean"
	case operandNumbers:
		field, dst, want = "values", &a.Numbers, "an array of numbers"
	case operandStrings:
		field, dst, want = "values", &a.Strings, "an array of strings"
	case operandRanges:
		return a.decodeRanges(values)
	}
	src := value
	if field == "values" {
		src = values
	}
	if isAbsent(src) {
		return nil
	}
	if err := json.Unmarshal(src, dst); err != nil {
		return invalid(fmt.Sprintf("The %s of the advanced filter %s on key '%s' must be %s.",
			field, a.OperatorType, a.Key, want))
	}
	return nil
}

func (a *AdvancedFilterJSON) decodeRanges(values json.RawMessage) error {
	if isAbsent(values) {
		return nil
	}
	var pairs [][]float64
	ok := json.Unmarshal(values, &pairs) == nil
	for _, p := range pairs {
		ok = ok && len(p) == 2
	}
	if !ok {
		return invalid(fmt.Sprintf("The values of the advanced filter %s on key '%s' must be an array of [low, high] number pairs.",
			a.OperatorType, a.Key))
	}
	a.Ranges = make([][2]float64, len(pairs))
	for i, p := range pairs {
		a.Ranges[i] = [2]float64{p[0], p[1]}
	}
	return nil
}

func isAbsent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// MarshalJSON writes the filter the way the service echoes it: operand first,
// then operatorType and key, the operand omitted when unset. Doubles keep a
// decimal point ("values":[2.0,3.0]), as in the service's responses.
func (a AdvancedFilterJSON) MarshalJSON() ([]byte, error) {
	return a.appendJSON(make([]byte, 0, 96)), nil
}

func (a AdvancedFilterJSON) appendJSON(b []byte) []byte {
	if op, ok := parseOperator(string(a.OperatorType)); ok {
		a.OperatorType = op // the Go SDK needs the canonical spelling
	}
	b = append(b, '{')
	switch a.OperatorType.operand() {
	case operandNumber:
		if a.Number != nil {
			b = append(b, `"value":`...)
			b = appendDouble(b, *a.Number)
			b = append(b, ',')
		}
	case operandBool:
		if a.Bool != nil {
			b = append(b, `"value":`...)
			b = strconvBool(b, *a.Bool)
			b = append(b, ',')
		}
	case operandNumbers:
		if a.Numbers != nil {
			b = append(b, `"values":`...)
			b = appendDoubles(b, a.Numbers)
			b = append(b, ',')
		}
	case operandStrings:
		if a.Strings != nil {
			b = append(b, `"values":`...)
			b = appendStrings(b, a.Strings)
			b = append(b, ',')
		}
	case operandRanges:
		if a.Ranges != nil {
			b = append(b, `"values":[`...)
			for i, r := range a.Ranges {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendDoubles(b, r[:])
			}
			b = append(b, ']', ',')
		}
	}
	b = append(b, `"operatorType":`...)
	b = appendString(b, string(a.OperatorType))
	b = append(b, `,"key":`...)
	b = appendString(b, a.Key)
	return append(b, '}')
}

func strconvBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}
