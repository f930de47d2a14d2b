package pattern

import "testing"

// Fields of one pattern must take their values from the same element of any array of objects
// they share: two conditions never match across two different elements.
func TestArrayConsistency(t *testing.T) {
	t.Parallel()
	const both = `{"d":{"a":[1],"b":[2]}}`
	runMatchCases(t, []matchCase{
		{"same element", both, `{"d":[{"a":1,"b":2}]}`, true},
		{"different elements", both, `{"d":[{"a":1},{"b":2}]}`, false},
		{"different elements, other order", both, `{"d":[{"b":2},{"a":1}]}`, false},
		{"one good element among others", both, `{"d":[{"a":1},{"b":2},{"a":1,"b":2}]}`, true},
		{"values from a plain object and an array element", `{"x":[1],"d":{"b":[2]}}`, `{"x":1,"d":[{"b":3},{"b":2}]}`, true},
		{"nested arrays, same outer element", `{"o":{"i":{"a":[1],"b":[2]}}}`, `{"o":[{"i":[{"a":1,"b":2}]}]}`, true},
		{"nested arrays, different inner elements", `{"o":{"i":{"a":[1],"b":[2]}}}`, `{"o":[{"i":[{"a":1},{"b":2}]}]}`, false},
		{"nested arrays, different outer elements", `{"o":{"a":[1],"i":{"b":[2]}}}`, `{"o":[{"a":1},{"i":[{"b":2}]}]}`, false},
		{"nested arrays, same outer element, inner array", `{"o":{"a":[1],"i":{"b":[2]}}}`, `{"o":[{"a":1,"i":[{"b":3},{"b":2}]}]}`, true},
		{"sibling arrays are independent", `{"p":{"a":[1]},"q":{"b":[2]}}`, `{"p":[{"a":0},{"a":1}],"q":[{"b":2}]}`, true},
		{"array of arrays of objects", `{"m":{"a":[1],"b":[2]}}`, `{"m":[[{"a":1}],[{"b":2}]]}`, false},
		{"array of arrays, same element", `{"m":{"a":[1],"b":[2]}}`, `{"m":[[{"a":1,"b":2}]]}`, true},
		{"anything-but in the same element", `{"d":{"a":[1],"b":[{"anything-but":2}]}}`, `{"d":[{"a":1,"b":2},{"b":3}]}`, false},
		{"numeric in the same element", `{"d":{"n":["x"],"v":[{"numeric":[">",5]}]}}`, `{"d":[{"n":"x","v":1},{"n":"y","v":9}]}`, false},
		// A field that must be missing is missing from the element the other fields use.
		{"absent in the matching element", `{"d":{"a":[1],"b":[{"exists":false}]}}`, `{"d":[{"a":1},{"b":2}]}`, true},
		{"absent everywhere needed for the element", `{"d":{"a":[1],"b":[{"exists":false}]}}`, `{"d":[{"a":1,"b":2}]}`, false},
		{"or branches each consistent", `{"d":{"$or":[{"a":[1],"b":[2]},{"c":[3]}]}}`, `{"d":[{"a":1},{"b":2}]}`, false},
		{"or second branch", `{"d":{"$or":[{"a":[1],"b":[2]},{"c":[3]}]}}`, `{"d":[{"a":1},{"c":3}]}`, true},
	})
}
