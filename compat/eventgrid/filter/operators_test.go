package filter

import "testing"

func TestNumberOperators(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"NumberIn hit", `{"operatorType":"NumberIn","key":"data.n","values":[4,5]}`, true},
		{"NumberIn miss", `{"operatorType":"NumberIn","key":"data.n","values":[1]}`, false},
		{"NumberIn missing key", `{"operatorType":"NumberIn","key":"data.nope","values":[5]}`, false},
		{"NumberIn null", `{"operatorType":"NumberIn","key":"data.z","values":[0]}`, false},
		{"NumberIn string value", `{"operatorType":"NumberIn","key":"data.s","values":[5]}`, false},
		{"NumberIn bool value", `{"operatorType":"NumberIn","key":"data.b","values":[1]}`, false},

		{"NumberNotIn hit", `{"operatorType":"NumberNotIn","key":"data.n","values":[1,2]}`, true},
		{"NumberNotIn miss", `{"operatorType":"NumberNotIn","key":"data.n","values":[1,5]}`, false},
		{"NumberNotIn missing key matches", `{"operatorType":"NumberNotIn","key":"data.nope","values":[5]}`, true},
		{"NumberNotIn null matches", `{"operatorType":"NumberNotIn","key":"data.z","values":[5]}`, true},
		{"NumberNotIn string value ignored", `{"operatorType":"NumberNotIn","key":"data.s","values":[5]}`, true},

		{"NumberLessThan hit", `{"operatorType":"NumberLessThan","key":"data.n","value":6}`, true},
		{"NumberLessThan equal", `{"operatorType":"NumberLessThan","key":"data.n","value":5}`, false},
		{"NumberLessThan missing key", `{"operatorType":"NumberLessThan","key":"data.nope","value":6}`, false},
		{"NumberLessThan string value", `{"operatorType":"NumberLessThan","key":"data.s","value":6}`, false},

		{"NumberGreaterThan hit", `{"operatorType":"NumberGreaterThan","key":"data.n","value":4.5}`, true},
		{"NumberGreaterThan equal", `{"operatorType":"NumberGreaterThan","key":"data.n","value":5}`, false},
		{"NumberGreaterThan missing key", `{"operatorType":"NumberGreaterThan","key":"data.nope","value":0}`, false},

		{"NumberLessThanOrEquals equal", `{"operatorType":"NumberLessThanOrEquals","key":"data.n","value":5}`, true},
		{"NumberLessThanOrEquals below", `{"operatorType":"NumberLessThanOrEquals","key":"data.n","value":4.99}`, false},
		{"NumberLessThanOrEquals missing key", `{"operatorType":"NumberLessThanOrEquals","key":"data.nope","value":9}`, false},

		{"NumberGreaterThanOrEquals equal", `{"operatorType":"NumberGreaterThanOrEquals","key":"data.n","value":5}`, true},
		{"NumberGreaterThanOrEquals above", `{"operatorType":"NumberGreaterThanOrEquals","key":"data.n","value":5.01}`, false},
		{"NumberGreaterThanOrEquals missing key", `{"operatorType":"NumberGreaterThanOrEquals","key":"data.nope","value":0}`, false},

		{"NumberInRange inclusive bound", `{"operatorType":"NumberInRange","key":"data.n","values":[[1,4],[5,5]]}`, true},
		{"NumberInRange outside", `{"operatorType":"NumberInRange","key":"data.n","values":[[6,10]]}`, false},
		{"NumberInRange missing key", `{"operatorType":"NumberInRange","key":"data.nope","values":[[0,10]]}`, false},
		{"NumberInRange string value", `{"operatorType":"NumberInRange","key":"data.s","values":[[0,10]]}`, false},

		{"NumberNotInRange outside", `{"operatorType":"NumberNotInRange","key":"data.n","values":[[6,10]]}`, true},
		{"NumberNotInRange inside", `{"operatorType":"NumberNotInRange","key":"data.n","values":[[6,10],[0,5]]}`, false},
		{"NumberNotInRange missing key matches", `{"operatorType":"NumberNotInRange","key":"data.nope","values":[[0,10]]}`, true},
		{"NumberNotInRange string value ignored", `{"operatorType":"NumberNotInRange","key":"data.s","values":[[0,10]]}`, true},
	})
}

func TestBoolEquals(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"true", `{"operatorType":"BoolEquals","key":"data.b","value":true}`, true},
		{"false", `{"operatorType":"BoolEquals","key":"data.b","value":false}`, false},
		{"missing key", `{"operatorType":"BoolEquals","key":"data.nope","value":false}`, false},
		{"null", `{"operatorType":"BoolEquals","key":"data.z","value":false}`, false},
		{"string true is not a boolean", `{"operatorType":"BoolEquals","key":"data.bs","value":true}`, false},
		{"number is not a boolean", `{"operatorType":"BoolEquals","key":"data.n","value":true}`, false},
	})
}

func TestStringOperators(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"StringIn ignores case", `{"operatorType":"StringIn","key":"data.s","values":["x","hello WORLD"]}`, true},
		{"StringIn is whole-value", `{"operatorType":"StringIn","key":"data.s","values":["hello"]}`, false},
		{"StringIn missing key", `{"operatorType":"StringIn","key":"data.nope","values":["a"]}`, false},
		{"StringIn number in data is not a string", `{"operatorType":"StringIn","key":"data.n","values":["5"]}`, false},
		{"StringIn empty string", `{"operatorType":"StringIn","key":"data.es","values":[""]}`, true},

		{"StringNotIn none hit", `{"operatorType":"StringNotIn","key":"data.s","values":["x","y"]}`, true},
		{"StringNotIn one hits", `{"operatorType":"StringNotIn","key":"data.s","values":["x","HELLO world"]}`, false},
		{"StringNotIn missing key matches", `{"operatorType":"StringNotIn","key":"data.nope","values":["a"]}`, true},
		{"StringNotIn null matches", `{"operatorType":"StringNotIn","key":"data.z","values":["a"]}`, true},
		{"StringNotIn number ignored", `{"operatorType":"StringNotIn","key":"data.n","values":["5"]}`, true},

		{"StringBeginsWith", `{"operatorType":"StringBeginsWith","key":"data.s","values":["x","HEL"]}`, true},
		{"StringBeginsWith miss", `{"operatorType":"StringBeginsWith","key":"data.s","values":["world"]}`, false},
		{"StringBeginsWith missing key", `{"operatorType":"StringBeginsWith","key":"data.nope","values":[""]}`, false},

		{"StringNotBeginsWith", `{"operatorType":"StringNotBeginsWith","key":"data.s","values":["world"]}`, true},
		{"StringNotBeginsWith hit", `{"operatorType":"StringNotBeginsWith","key":"data.s","values":["world","hEl"]}`, false},
		{"StringNotBeginsWith missing key does not match", `{"operatorType":"StringNotBeginsWith","key":"data.nope","values":["a"]}`, false},
		{"StringNotBeginsWith null does not match", `{"operatorType":"StringNotBeginsWith","key":"data.z","values":["a"]}`, false},
		{"StringNotBeginsWith number ignored", `{"operatorType":"StringNotBeginsWith","key":"data.n","values":["5"]}`, true},

		{"StringEndsWith", `{"operatorType":"StringEndsWith","key":"data.s","values":["WORLD"]}`, true},
		{"StringEndsWith miss", `{"operatorType":"StringEndsWith","key":"data.s","values":["hello"]}`, false},
		{"StringEndsWith missing key", `{"operatorType":"StringEndsWith","key":"data.nope","values":["a"]}`, false},

		{"StringNotEndsWith", `{"operatorType":"StringNotEndsWith","key":"data.s","values":["hello"]}`, true},
		{"StringNotEndsWith hit", `{"operatorType":"StringNotEndsWith","key":"data.s","values":["LD"]}`, false},
		{"StringNotEndsWith missing key does not match", `{"operatorType":"StringNotEndsWith","key":"data.nope","values":["a"]}`, false},

		{"StringContains", `{"operatorType":"StringContains","key":"data.s","values":["xyz","O W"]}`, true},
		{"StringContains miss", `{"operatorType":"StringContains","key":"data.s","values":["xyz"]}`, false},
		{"StringContains missing key", `{"operatorType":"StringContains","key":"data.nope","values":[""]}`, false},

		{"StringNotContains", `{"operatorType":"StringNotContains","key":"data.s","values":["xyz"]}`, true},
		{"StringNotContains hit", `{"operatorType":"StringNotContains","key":"data.s","values":["xyz","lo wo"]}`, false},
		{"StringNotContains missing key does not match", `{"operatorType":"StringNotContains","key":"data.nope","values":["a"]}`, false},
	})
}

func TestNullOperators(t *testing.T) {
	t.Parallel()
	runAdvanced(t, false, []matchCase{
		{"IsNullOrUndefined missing", `{"operatorType":"IsNullOrUndefined","key":"data.nope"}`, true},
		{"IsNullOrUndefined null", `{"operatorType":"IsNullOrUndefined","key":"data.z"}`, true},
		{"IsNullOrUndefined empty string", `{"operatorType":"IsNullOrUndefined","key":"data.es"}`, false},
		{"IsNullOrUndefined value", `{"operatorType":"IsNullOrUndefined","key":"data.n"}`, false},
		{"IsNullOrUndefined below a scalar", `{"operatorType":"IsNullOrUndefined","key":"data.n.x"}`, true},

		{"IsNotNull value", `{"operatorType":"IsNotNull","key":"data.s"}`, true},
		{"IsNotNull object", `{"operatorType":"IsNotNull","key":"data.o"}`, true},
		{"IsNotNull array without array filtering", `{"operatorType":"IsNotNull","key":"data.nums"}`, true},
		{"IsNotNull missing", `{"operatorType":"IsNotNull","key":"data.nope"}`, false},
		{"IsNotNull null", `{"operatorType":"IsNotNull","key":"data.z"}`, false},
	})
}

func TestObjectValuesNeverMatch(t *testing.T) {
	t.Parallel()
	runAdvanced(t, true, []matchCase{
		{"positive", `{"operatorType":"StringIn","key":"data.o","values":["x"]}`, false},
		{"negative", `{"operatorType":"StringNotIn","key":"data.o","values":["x"]}`, false},
		{"number negative", `{"operatorType":"NumberNotIn","key":"data.o","values":[1]}`, false},
	})
}

func TestFiltersAndTogether(t *testing.T) {
	t.Parallel()
	ev := decodeEvent(t, orderEvent, EventGridSchema)
	both := mustCompile(t, `{"advancedFilters":[
		{"operatorType":"NumberIn","key":"data.n","values":[5]},
		{"operatorType":"StringContains","key":"subject","values":["/orders/"]}]}`)
	if !both.Match(ev) {
		t.Error("two true filters: want match")
	}
	one := mustCompile(t, `{"advancedFilters":[
		{"operatorType":"NumberIn","key":"data.n","values":[5]},
		{"operatorType":"StringContains","key":"subject","values":["/invoices/"]}]}`)
	if one.Match(ev) {
		t.Error("one false filter: want no match")
	}
	sameKey := mustCompile(t, `{"advancedFilters":[
		{"operatorType":"NumberGreaterThan","key":"data.n","value":1},
		{"operatorType":"NumberLessThan","key":"data.n","value":10}]}`)
	if !sameKey.Match(ev) {
		t.Error("the same key in two filters: want match")
	}
}
