package pattern

import (
	"errors"
	"strings"
	"testing"
)

func TestInvalidPatternStructure(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"not an object", `["not", "a", "dict", "but valid json"]`, "Filter is not an object"},
		{"empty text", ``, "Filter is not an object"},
		{"number", `42`, "Filter is not an object"},
		{"value not a list", `{"int": 42}`, `"int" must be an object or an array`},
		{"string not a list", `{"a":{"string": "x"}}`, `"string" must be an object or an array`},
		{"empty list", `{"resources": []}`, "Empty arrays are not allowed"},
		{"empty object", `{}`, "Empty objects are not allowed"},
		{"empty nested object", `{"a":{}}`, "Empty objects are not allowed"},
		{"list in a list", `{"a":[[1]]}`, "Match value must be String, number, true, false, or null"},
		{"empty operator", `{"a":[{}]}`, "Match expression name not found"},
		{"unknown operator", `{"a":[{"NUMERIC":["=",5]}]}`, "Unrecognized match type NUMERIC"},
		{"operator case", `{"a":[{"EXISTS":true}]}`, "Unrecognized match type EXISTS"},
		{"two operators", `{"a":[{"prefix":"x","suffix":"y"}]}`, "Only one key allowed in match expression"},
		{"first error wins", `{"a":42, "b":[]}`, `"a" must be an object or an array`},
		{"duplicate key still checked", `{"a":[1],"a":{}}`, "Empty objects are not allowed"},
	})
}

func TestInvalidOperators(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"prefix number", `{"t":[{"prefix":123}]}`, "prefix match pattern must be a string"},
		{"prefix list", `{"t":[{"prefix":["x"]}]}`, "prefix match pattern must be a string"},
		{"prefix object", `{"t":[{"prefix":{"x":"y"}}]}`, "Unsupported prefix pattern: x"},
		{"prefix ignore case number", `{"t":[{"prefix":{"equals-ignore-case":1}}]}`, "equals-ignore-case match pattern must be a string"},
		{"suffix number", `{"t":[{"suffix":123}]}`, "suffix match pattern must be a string"},
		{"suffix object", `{"t":[{"suffix":{"prefix":"y"}}]}`, "Unsupported suffix pattern: prefix"},
		{"ignore case list", `{"t":[{"equals-ignore-case":["x"]}]}`, "equals-ignore-case match pattern must be a string"},
		{"ignore case object", `{"t":[{"equals-ignore-case":{"prefix":"ec2"}}]}`, "equals-ignore-case match pattern must be a string"},
		{"exactly number", `{"t":[{"exactly":1}]}`, "exact match pattern must be a string"},
		{"wildcard number", `{"t":[{"wildcard":123}]}`, "wildcard match pattern must be a string"},
		{"wildcard consecutive stars", `{"t":[{"wildcard":"arn:aws:events:us-east-1:**:event-bus/*"}]}`, "Consecutive wildcard characters at pos 26"},
		{"wildcard bad escape", `{"t":[{"wildcard":"a\\b"}]}`, "Invalid escape character at pos 2"},
		{"wildcard trailing backslash", `{"t":[{"wildcard":"ab\\"}]}`, "Invalid escape character at pos 3"},
		{"wildcard too complex", `{"t":[{"wildcard":"*:*:*:*:*:event-bus/*"}]}`, tooComplexReason},
		{"exists string", `{"t":[{"exists":"yes"}]}`, "exists match pattern must be either true or false."},
		{"exists extra key", `{"t":[{"exists":true,"prefix":"x"}]}`, "Only one key allowed in match expression"},
		{"cidr not a string", `{"ip":[{"cidr":["bad-type"]}]}`, "prefix match pattern must be a string"},
		{"cidr no slash", `{"ip":[{"cidr":"bad-filter"}]}`, "Malformed CIDR, one '/' required"},
		{"cidr trailing slash", `{"ip":[{"cidr":"10.0.0.0/"}]}`, "Malformed CIDR, one '/' required"},
		{"cidr bad mask", `{"ip":[{"cidr":"bad-/64filter"}]}`, "Malformed CIDR, mask bits must be an integer"},
		{"cidr negative mask", `{"ip":[{"cidr":"10.0.0.0/-1"}]}`, "Malformed CIDR, mask bits must not be negative"},
		{"cidr bad address", `{"ip":[{"cidr":"xx.11.xx/8"}]}`, "Nonstandard IP address: xx.11.xx"},
		{"cidr invalid v4", `{"ip":[{"cidr":"10.0.0.256/8"}]}`, "Invalid IP address: 10.0.0.256"},
		{"cidr bad v6", `{"ip":[{"cidr":"xxxx:db8:1234:1a00::/64"}]}`, "Nonstandard IP address: xxxx:db8:1234:1a00::"},
		{"cidr v4 host mask", `{"ip":[{"cidr":"10.0.0.1/32"}]}`, "IPv4 mask bits must be < 32"},
		{"cidr v6 host mask", `{"ip":[{"cidr":"::1/128"}]}`, "IPv6 mask bits must be < 128"},
	})
}

func TestInvalidNumeric(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"not an array", `{"c":[{"numeric":10}]}`, "Value of numeric must be an array."},
		{"two lower bounds", `{"c":[{"numeric":[">",0,">",0]}]}`, "Bad numeric range operator: >"},
		{"missing value", `{"c":[{"numeric":[">",0,"<"]}]}`, "Value of < must be numeric"},
		{"upper bound first", `{"c":[{"numeric":["<",10,">",0]}]}`, "Too many elements in numeric expression"},
		{"equals extra", `{"c":[{"numeric":["=",1,2]}]}`, "Too many elements in numeric expression"},
		{"equals string", `{"c":[{"numeric":["=","1"]}]}`, "Value of equals must be numeric"},
		{"unknown operator", `{"c":[{"numeric":["!=",1]}]}`, "Unrecognized numeric range operator: !="},
		{"empty", `{"c":[{"numeric":[]}]}`, "Invalid member in numeric match: ]"},
		{"number first", `{"c":[{"numeric":[5]}]}`, "Invalid member in numeric match: 5"},
		{"bad range value", `{"c":[{"numeric":[">",0,5]}]}`, "Bad value in numeric range: 5"},
		{"too many terms", `{"c":[{"numeric":[">",0,"<",5,6]}]}`, "Too many terms in numeric range expression"},
		{"empty range", `{"c":[{"numeric":[">=",5,"<=",5]}]}`, "Bottom must be less than top"},
		{"inverted range", `{"c":[{"numeric":[">",6,"<",5]}]}`, "Bottom must be less than top"},
		{"not comparable", `{"c":[{"numeric":[">",0.10000000000000001]}]}`, "Cannot compare number : 0.10000000000000001"},
		{"infinite", `{"c":[{"numeric":["<",1e400]}]}`, "Cannot compare number : 1e400"},
		{"extra member", `{"c":[{"numeric":[">",0],"x":1}]}`, "Too many elements in numeric expression"},
	})
}

func TestInvalidAnythingBut(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"null", `{"s":[{"anything-but":null}]}`, "Value of anything-but must be an array or single string/number value."},
		{"boolean", `{"s":[{"anything-but":true}]}`, "Value of anything-but must be an array or single string/number value."},
		{"null in list", `{"s":[{"anything-but":["stopped",null]}]}`, "Inside anything but list, start|null|boolean is not supported."},
		{"mixed list", `{"s":[{"anything-but":["a",1]}]}`, "Inside anything but list, either all values are number or string, mixed type is not supported"},
		{"empty list", `{"s":[{"anything-but":[]}]}`, "Inside anything but list, either all values are number or string, mixed type is not supported"},
		{"not comparable", `{"s":[{"anything-but":[1e400]}]}`, "Cannot compare number : 1e400"},
		{"nested too deep", `{"s":[{"anything-but":{"prefix":{"equals-ignore-case":"file"}}}]}`, "Value of anything-but must be an array or single string/number value."},
		{"unknown nested", `{"s":[{"anything-but":{"numeric":[">",1]}}]}`, "Unsupported anything-but pattern: numeric"},
		{"empty nested", `{"s":[{"anything-but":{}}]}`, "Anything-But expression name not found"},
		{"prefix number", `{"s":[{"anything-but":{"prefix":123}}]}`, "prefix/suffix match pattern must be a string"},
		{"prefix list number", `{"s":[{"anything-but":{"prefix":[123,"test"]}}]}`, "prefix/suffix match pattern must be a string"},
		{"suffix null", `{"s":[{"anything-but":{"suffix":[null,".txt"]}}]}`, "prefix/suffix match pattern must be a string"},
		{"prefix empty", `{"s":[{"anything-but":{"prefix":""}}]}`, "Null prefix/suffix not allowed"},
		{"suffix empty", `{"s":[{"anything-but":{"suffix":""}}]}`, "Null prefix/suffix not allowed"},
		{"ignore case number", `{"s":[{"anything-but":{"equals-ignore-case":123}}]}`, "Inside anything-but/equals-ignore-case list, number|start|null|boolean is not supported."},
		{"ignore case list number", `{"s":[{"anything-but":{"equals-ignore-case":[123,456]}}]}`, "Inside anything-but/equals-ignore-case list, number|start|null|boolean is not supported."},
		{"wildcard number", `{"s":[{"anything-but":{"wildcard":123}}]}`, "wildcard match pattern must be a string"},
		{"wildcard list number", `{"s":[{"anything-but":{"wildcard":[123,"*/dir/*"]}}]}`, "wildcard match pattern must be a string"},
		{"wildcard bad", `{"s":[{"anything-but":{"wildcard":"a**"}}]}`, "Consecutive wildcard characters at pos 2"},
		{"extra member", `{"s":[{"anything-but":"x","y":1}]}`, "Too many elements in numeric expression"},
	})
}

func TestInvalidOr(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"not an array", `{"$or":{"a":[1]}}`, "It must be an Array followed with $or."},
		{"one branch", `{"$or":[{"a":[1]}]}`, "There must have at least 2 Objects in $or relationship."},
		{"not objects", `{"$or":[{"a":[1]},["b"]]}`, "Only JSON object is allowed in array of $or relationship."},
		{"reserved name", `{"$or":[{"a":[1]},{"prefix":["x"]}]}`, "prefix is Ruler reserved fieldName which cannot be used inside $or."},
		{"reserved name nested", `{"$or":[{"a":[1]},{"b":{"numeric":["x"]}}]}`, "numeric is Ruler reserved fieldName which cannot be used inside $or."},
		{"empty branch", `{"$or":[{"a":[1]},{}]}`, "Empty objects are not allowed"},
		{"too many combinations", `{"$or":[{"a":[1]},{"a":[2]},{"a":[3]},{"a":[4]},{"a":[5]},{"a":[6]},{"a":[7]},{"a":[8]},{"a":[9]},{"a":[10]}],` +
			`"b":{"$or":[{"a":[1]},{"a":[2]},{"a":[3]},{"a":[4]},{"a":[5]},{"a":[6]},{"a":[7]},{"a":[8]},{"a":[9]},{"a":[10]}]},` +
			`"c":{"$or":[{"a":[1]},{"a":[2]},{"a":[3]},{"a":[4]},{"a":[5]},{"a":[6]},{"a":[7]},{"a":[8]},{"a":[9]},{"a":[10]},{"a":[11]}]}}`, tooManyBranchesReason},
	})
}

// The JSON parser's own messages, as AWS returns them.
func TestInvalidJSON(t *testing.T) {
	t.Parallel()
	runInvalidCases(t, []invalidCase{
		{"bare words", `this is valid json but not a dict`, "Unrecognized token 'this': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"},
		{"single quotes", `{'bad': 'quotation'}`, "Unexpected character (''' (code 39)): was expecting double-quote to start field name"},
		{"unquoted value", `{"not": closed mark"`, "Unrecognized token 'closed': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"},
		{"truncated literal", `{"a":[tru]}`, "Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"},
		{"unclosed object", `{"a":[1]`, `Unexpected end-of-input: expected close marker for Object (start marker at [Source: (String)"{"a":[1]"; line: 1, column: 1])`},
		{"unclosed array", `{"a":[1`, `Unexpected end-of-input: expected close marker for Array (start marker at [Source: (String)"{"a":[1"; line: 1, column: 6])`},
		{"wrong closer", `{"a":[1}`, `Unexpected close marker '}': expected ']' (for Array starting at [Source: (String)"{"a":[1}"; line: 1, column: 6])`},
		{"missing comma", `{"a":[1 2]}`, "Unexpected character ('2' (code 50)): was expecting comma to separate Array entries"},
		{"missing colon", `{"a"[1]}`, "Unexpected character ('[' (code 91)): was expecting a colon to separate field name and value"},
		{"trailing comma in object", `{"a":[1],}`, "Unexpected character ('}' (code 125)): was expecting double-quote to start field name"},
		{"trailing comma in array", `{"a":[1,]}`, "Unexpected character (']' (code 93)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"},
		{"end inside entries", `{"a":[1,`, "Unexpected end-of-input within/between Array entries"},
		{"end in string", `{"a":["x`, "Unexpected end-of-input: was expecting closing quote for a string value"},
		{"end in name", `{"a`, "Unexpected end-of-input in field name"},
		{"leading zero", `{"a":[01]}`, "Invalid numeric value: Leading zeroes not allowed"},
		{"NaN", `{"a":[NaN]}`, "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"},
		{"bad escape", `{"a":["\x"]}`, "Unrecognized character escape 'x' (code 120)"},
		{"control character", "{\"a\":[\"\t\"]}", "Illegal unquoted character ((CTRL-CHAR, code 9)): has to be escaped using backslash to be included in string value"},
		{"comment", `{"a":[/* x */1]}`, "Unexpected character ('/' (code 47)): maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)"},
		{"first line only", "{\"a\":[1,\n2}", "Unexpected close marker '}': expected ']' (for Array starting at [Source: (String)\"{\"a\":[1,"},
		{"long pattern", `{"a":[` + strings.Repeat("1,", 300) + `1`, `Unexpected end-of-input: expected close marker for Array (start marker at [Source: (String)"{"a":[` + strings.Repeat("1,", 247) + `"[truncated 107 chars]; line: 1, column: 6])`},
	})
}

// Text after the pattern's closing brace is never read, as on AWS.
func TestTrailingTextIgnored(t *testing.T) {
	t.Parallel()
	for _, text := range []string{`{"a":[1]} xyz`, `{"a":[1]}}`, "{\"a\":[1]}\x00"} {
		if _, err := Parse(text); err != nil {
			t.Errorf("Parse(%q): %v", text, err)
		}
	}
}

func TestInvalidPatternErrorType(t *testing.T) {
	t.Parallel()
	_, err := Parse(`{"a":[]}`)
	var invalid *InvalidPatternError
	if !errors.As(err, &invalid) {
		t.Fatalf("error %T is not *InvalidPatternError", err)
	}
	if invalid.Error() != "Event pattern is not valid. Reason: Empty arrays are not allowed" {
		t.Errorf("Error() = %q", invalid.Error())
	}
	if invalid.Reason() != "Empty arrays are not allowed" {
		t.Errorf("Reason() = %q", invalid.Reason())
	}
}
