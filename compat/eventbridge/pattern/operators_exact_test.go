package pattern

import "testing"

func TestExactValues(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"string", `{"source":["aws.ec2"]}`, `{"source":"aws.ec2"}`, true},
		{"string other", `{"source":["aws.ec2"]}`, `{"source":"aws.ec3"}`, false},
		{"string is case sensitive", `{"source":["aws.ec2"]}`, `{"source":"AWS.EC2"}`, false},
		{"key is case sensitive", `{"Source":["aws.ec2"]}`, `{"source":"aws.ec2"}`, false},
		{"any of the list", `{"source":["a","b","c"]}`, `{"source":"b"}`, true},
		{"missing field", `{"source":["a"]}`, `{"other":"a"}`, false},
		{"empty string", `{"v":[""]}`, `{"v":""}`, true},
		{"empty string is not null", `{"v":[""]}`, `{"v":null}`, false},
		{"null", `{"v":[null]}`, `{"v":null}`, true},
		{"null is not the string null", `{"v":[null]}`, `{"v":"null"}`, false},
		{"null is not missing", `{"v":[null]}`, `{"w":1}`, false},
		{"true", `{"v":[true]}`, `{"v":true}`, true},
		{"true is not the string true", `{"v":[true]}`, `{"v":"true"}`, false},
		{"false", `{"v":[false]}`, `{"v":false}`, true},
		{"false is not true", `{"v":[false]}`, `{"v":true}`, false},
		// AWS compares numbers by value, against its own documentation.
		{"number", `{"v":[300]}`, `{"v":300}`, true},
		{"number with fraction", `{"v":[300]}`, `{"v":300.0}`, true},
		{"number with exponent", `{"v":[300]}`, `{"v":3.0e2}`, true},
		{"pattern exponent", `{"v":[3e2]}`, `{"v":300}`, true},
		{"negative zero", `{"v":[0]}`, `{"v":-0.0}`, true},
		{"decimal", `{"v":[0.1]}`, `{"v":0.10}`, true},
		{"number is not a string", `{"v":[300]}`, `{"v":"300"}`, false},
		{"string is not a number", `{"v":["300"]}`, `{"v":300}`, false},
		{"other number", `{"v":[300]}`, `{"v":301}`, false},
		// Numbers a float cannot hold exactly only match their own text.
		{"big number same text", `{"v":[12345678901234567890]}`, `{"v":12345678901234567890}`, true},
		{"big number other text", `{"v":[12345678901234567890]}`, `{"v":1.2345678901234567890e19}`, false},
		{"account id", `{"account":[123456789012]}`, `{"account":123456789012}`, true},
		// A string that is an IP address matches the same address however it is written.
		{"ipv6 spelled differently", `{"ip":["2001:db8::1"]}`, `{"ip":"2001:DB8:0:0::1"}`, true},
		{"ipv4 with leading zeros", `{"ip":["10.0.0.1"]}`, `{"ip":"010.0.0.1"}`, true},
		{"ipv4 other", `{"ip":["10.0.0.1"]}`, `{"ip":"10.0.0.2"}`, false},
		{"exactly is plain text", `{"ip":[{"exactly":"10.0.0.1"}]}`, `{"ip":"010.0.0.1"}`, false},
		{"exactly", `{"v":[{"exactly":"x"}]}`, `{"v":"x"}`, true},
		{"unicode", `{"s":["A CamelCase string with an emoji 🚀 "]}`, `{"s":"A CamelCase string with an emoji \ud83d\ude80 "}`, true},
		{"escapes in event", `{"s":["a\"b\\c/d"]}`, `{"s":"a\"b\\c\/d"}`, true},
		{"nested", `{"detail":{"state":["running"]}}`, `{"detail":{"state":"running"}}`, true},
		{"nested object is not a value", `{"detail":["running"]}`, `{"detail":{"state":"running"}}`, false},
		{"string detail is not parsed", `{"detail":{"k":["v"]}}`, `{"detail":"{\"k\":\"v\"}"}`, false},
		{"all fields must match", `{"a":["1"],"b":["2"]}`, `{"a":"1","b":"3"}`, false},
		{"all fields match", `{"a":["1"],"b":["2"]}`, `{"a":"1","b":"2","c":"3"}`, true},
	})
}

func TestDottedPaths(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"dotted pattern key", `{"detail":{"state.status":["running"]}}`, `{"detail":{"state":{"status":"running"}}}`, true},
		{"dotted event key", `{"detail":{"state":{"status":["running"]}}}`, `{"detail":{"state.status":"running"}}`, true},
		{"dotted both", `{"a.b.c":["x"]}`, `{"a":{"b.c":"x"}}`, true},
		{"dotted deeper", `{"detail":{"state":{"status":["running"]}}}`, `{"detail":{"state.status":{"status":"running"}}}`, false},
		{"escaped key", `{"a\"b":{"c":["x"]}}`, `{"a\u0022b":{"c":"x"}}`, true},
	})
}

func TestDuplicateKeysLastWins(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"last wins", `{"detail":{"location":[{"prefix":"us-"}],"location":[{"anything-but":"us-east"}]}}`, `{"detail":{"location":"eu-central-1"}}`, true},
		{"first is gone", `{"a":["x"],"a":["y"]}`, `{"a":"x"}`, false},
		{"dotted and nested name the same field", `{"a":{"b":["x"]},"a.b":["y"]}`, `{"a":{"b":"y"}}`, true},
		{"objects merge field by field", `{"a":{"b":["x"]},"a":{"c":["y"]}}`, `{"a":{"b":"x","c":"y"}}`, true},
	})
}

func TestEventArrays(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"any element", `{"resources":["arn:2"]}`, `{"resources":["arn:1","arn:2"]}`, true},
		{"no element", `{"resources":["arn:3"]}`, `{"resources":["arn:1","arn:2"]}`, false},
		{"empty array has no values", `{"resources":[null]}`, `{"resources":[]}`, false},
		{"nested arrays", `{"a":[3]}`, `{"a":[[1,2],[3]]}`, true},
		{"array of objects", `{"a":{"id":[{"exists":true}]}}`, `{"a":[{"k":1},{"id":"x"},{"k":2}]}`, true},
		{"conditions may use different values of one list", `{"a":["x"],"b":{"c":["y"]}}`, `{"a":["x","y"],"b":[{"c":"y"}]}`, true},
	})
}

func TestOr(t *testing.T) {
	t.Parallel()
	const numericOr = `{"detail":{"$or":[{"c-count":[{"numeric":[">",0,"<=",5]}]},{"d-count":[{"numeric":["<",10]}]},{"x-limit":[{"numeric":["=",3.018e2]}]}]}}`
	runMatchCases(t, []matchCase{
		{"first branch", numericOr, `{"detail":{"c-count":3}}`, true},
		{"second branch", numericOr, `{"detail":{"d-count":9}}`, true},
		{"third branch", numericOr, `{"detail":{"x-limit":301.8}}`, true},
		{"no branch", numericOr, `{"detail":{"c-count":0,"d-count":10,"x-limit":901.8}}`, false},
		{"and with outer field", `{"source":["s"],"$or":[{"a":["1"]},{"b":["2"]}]}`, `{"source":"s","b":"2"}`, true},
		{"outer field fails", `{"source":["s"],"$or":[{"a":["1"]},{"b":["2"]}]}`, `{"source":"t","b":"2"}`, false},
		{"nested or", `{"$or":[{"a":["1"]},{"$or":[{"b":["2"]},{"c":["3"]}]}]}`, `{"c":"3"}`, true},
		{"two ors multiply", `{"$or":[{"a":["1"]},{"b":["2"]}],"c":{"$or":[{"d":["4"]},{"e":["5"]}]}}`, `{"b":"2","c":{"e":"5"}}`, true},
		{"two ors both needed", `{"$or":[{"a":["1"]},{"b":["2"]}],"c":{"$or":[{"d":["4"]},{"e":["5"]}]}}`, `{"b":"2","c":{"f":"5"}}`, false},
		// A field inside a branch replaces the same field outside it.
		{"branch replaces outer field", `{"a":["x"],"$or":[{"a":["y"]},{"b":["z"]}]}`, `{"a":"x"}`, false},
		{"branch keeps outer field", `{"a":["x"],"$or":[{"a":["y"]},{"b":["z"]}]}`, `{"a":"x","b":"z"}`, true},
	})
}
