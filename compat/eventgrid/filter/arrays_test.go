package filter

import "testing"

// Without enableAdvancedFilteringOnArrays an array value fails every value
// operator, NOT operators included.
func TestArraysDisabled(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"NumberIn", `{"operatorType":"NumberIn","key":"data.nums","values":[5]}`, false},
		{"NumberNotIn", `{"operatorType":"NumberNotIn","key":"data.nums","values":[100]}`, false},
		{"StringNotContains", `{"operatorType":"StringNotContains","key":"data.strs","values":["zzz"]}`, false},
		{"empty array NOT", `{"operatorType":"StringNotIn","key":"data.empty","values":["a"]}`, false},
		{"IsNullOrUndefined", `{"operatorType":"IsNullOrUndefined","key":"data.nums"}`, false},
	})
}

func TestArraysEnabled(t *testing.T) {
	t.Parallel()
	runAdvanced(t, true, []matchCase{
		{"NumberIn any element", `{"operatorType":"NumberIn","key":"data.nums","values":[5]}`, true},
		{"NumberIn no element", `{"operatorType":"NumberIn","key":"data.nums","values":[2]}`, false},
		{"NumberNotIn no element hits", `{"operatorType":"NumberNotIn","key":"data.nums","values":[2,3]}`, true},
		{"NumberNotIn one element hits", `{"operatorType":"NumberNotIn","key":"data.nums","values":[2,9]}`, false},
		{"NumberGreaterThan any element", `{"operatorType":"NumberGreaterThan","key":"data.nums","value":8}`, true},
		{"NumberLessThan no element", `{"operatorType":"NumberLessThan","key":"data.nums","value":1}`, false},
		{"NumberInRange any element", `{"operatorType":"NumberInRange","key":"data.nums","values":[[6,9]]}`, true},
		{"NumberNotInRange one element inside", `{"operatorType":"NumberNotInRange","key":"data.nums","values":[[6,9]]}`, false},
		{"NumberNotInRange all outside", `{"operatorType":"NumberNotInRange","key":"data.nums","values":[[10,20]]}`, true},
		{"StringIn ignores case", `{"operatorType":"StringIn","key":"data.strs","values":["green"]}`, true},
		{"StringNotContains one element hits", `{"operatorType":"StringNotContains","key":"data.strs","values":["EE"]}`, false},
		{"StringNotBeginsWith none hit", `{"operatorType":"StringNotBeginsWith","key":"data.strs","values":["b"]}`, true},
		{"scalar still works", `{"operatorType":"NumberIn","key":"data.n","values":[5]}`, true},

		{"mixed: strings only see strings", `{"operatorType":"StringIn","key":"data.mixed","values":["FIVE"]}`, true},
		{"mixed: numbers only see numbers", `{"operatorType":"NumberIn","key":"data.mixed","values":[5]}`, true},
		{"mixed: booleans only see booleans", `{"operatorType":"BoolEquals","key":"data.mixed","value":true}`, true},
		{"mixed: other types do not fail NOT", `{"operatorType":"StringNotIn","key":"data.mixed","values":["six"]}`, true},
		{"mixed: a string hit fails NOT", `{"operatorType":"StringNotIn","key":"data.mixed","values":["five"]}`, false},

		{"array of objects positive", `{"operatorType":"NumberIn","key":"data.objs","values":[1]}`, false},
		{"array of objects negative", `{"operatorType":"StringNotIn","key":"data.objs","values":["x"]}`, false},
		{"array with an object", `{"operatorType":"StringIn","key":"data.mixedObjs","values":["red"]}`, false},
		{"nested array", `{"operatorType":"NumberIn","key":"data.nested","values":[1]}`, false},
		{"IsNotNull on array of objects", `{"operatorType":"IsNotNull","key":"data.objs"}`, true},

		{"empty array positive", `{"operatorType":"NumberIn","key":"data.empty","values":[1]}`, false},
		{"empty array NumberNotIn", `{"operatorType":"NumberNotIn","key":"data.empty","values":[1]}`, true},
		{"empty array StringNotBeginsWith", `{"operatorType":"StringNotBeginsWith","key":"data.empty","values":["a"]}`, true},
		{"empty array IsNotNull", `{"operatorType":"IsNotNull","key":"data.empty"}`, true},
	})
}
