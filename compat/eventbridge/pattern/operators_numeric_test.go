package pattern

import "testing"

func TestNumeric(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"greater", `{"n":[{"numeric":[">",100]}]}`, `{"n":101.0}`, true},
		{"greater equal bound", `{"n":[{"numeric":[">",100]}]}`, `{"n":100}`, false},
		{"greater or equal", `{"n":[{"numeric":[">=",100]}]}`, `{"n":1e2}`, true},
		{"less", `{"n":[{"numeric":["<",10]}]}`, `{"n":-5}`, true},
		{"less bound", `{"n":[{"numeric":["<",10]}]}`, `{"n":10}`, false},
		{"less or equal", `{"n":[{"numeric":["<=",10]}]}`, `{"n":10.0}`, true},
		{"equal", `{"n":[{"numeric":["=",301.8]}]}`, `{"n":301.8}`, true},
		{"equal other", `{"n":[{"numeric":["=",301.8]}]}`, `{"n":301.81}`, false},
		{"range", `{"n":[{"numeric":[">",0,"<=",5]}]}`, `{"n":5}`, true},
		{"range low end", `{"n":[{"numeric":[">",0,"<=",5]}]}`, `{"n":0}`, false},
		{"range closed low", `{"n":[{"numeric":[">=",0,"<",5]}]}`, `{"n":0}`, true},
		{"range open high", `{"n":[{"numeric":[">=",0,"<",5]}]}`, `{"n":5}`, false},
		{"string is not a number", `{"n":[{"numeric":[">",100]}]}`, `{"n":"300"}`, false},
		{"null is not a number", `{"n":[{"numeric":[">",100]}]}`, `{"n":null}`, false},
		{"array element", `{"n":[{"numeric":[">",100]}]}`, `{"n":[1,2,300]}`, true},
		{"two ranges are or", `{"n":[{"numeric":["<",0]},{"numeric":[">",10]}]}`, `{"n":11}`, true},
		{"large values", `{"n":[{"numeric":[">",5e9]}]}`, `{"n":6e9}`, true},
		{"negative", `{"n":[{"numeric":[">=",-10,"<",-1]}]}`, `{"n":-10}`, true},
		{"a float cannot hold it", `{"n":[{"numeric":[">",0]}]}`, `{"n":12345678901234567890}`, false},
		{"huge value", `{"n":[{"numeric":[">",0]}]}`, `{"n":1e400}`, false},
	})
}

func TestExists(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"present", `{"d":{"s":[{"exists":true}]}}`, `{"d":{"s":"pending"}}`, true},
		{"absent", `{"d":{"s":[{"exists":true}]}}`, `{"d":{"t":1}}`, false},
		{"null is a value", `{"d":[{"exists":true}]}`, `{"d":null}`, true},
		{"object is not a value", `{"d":[{"exists":true}]}`, `{"d":{"c1":100}}`, false},
		{"empty array has no value", `{"r":[{"exists":true}]}`, `{"r":[]}`, false},
		{"array with a value", `{"r":[{"exists":true}]}`, `{"r":["x"]}`, true},
		{"false when absent", `{"d":{"s":[{"exists":false}]}}`, `{"d":{"t":1}}`, true},
		{"false when parent absent", `{"a":{"b":{"c":[{"exists":false}]}}}`, `{"x":1}`, true},
		{"false when present", `{"d":{"s":[{"exists":false}]}}`, `{"d":{"s":"x"}}`, false},
		{"false on null", `{"d":[{"exists":false}]}`, `{"d":null}`, false},
		{"false on object", `{"d":[{"exists":false}]}`, `{"d":{"c1":100}}`, true},
		{"false on empty array", `{"r":[{"exists":false}]}`, `{"r":[]}`, true},
		{"or absent", `{"h":{"S":[{"anything-but":["roses"]},{"exists":false}]}}`, `{"h":{"N":"789"}}`, true},
		{"or present", `{"h":{"S":[{"anything-but":["roses"]},{"exists":false}]}}`, `{"h":{"S":"tulips"}}`, true},
		{"or present excluded", `{"h":{"S":[{"anything-but":["roses"]},{"exists":false}]}}`, `{"h":{"S":"roses"}}`, false},
		{"several operators or", `{"k":[{"exists":true},{"prefix":"IGNORED"},{"suffix":"IGNORED"}]}`, `{"k":"v"}`, true},
	})
}

func TestCIDR(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"inside", `{"ip":[{"cidr":"10.0.0.0/24"}]}`, `{"ip":"10.0.0.255"}`, true},
		{"outside", `{"ip":[{"cidr":"10.0.0.0/24"}]}`, `{"ip":"10.0.1.0"}`, false},
		{"not an address", `{"ip":[{"cidr":"10.0.0.0/24"}]}`, `{"ip":"10.0.0.256"}`, false},
		{"number", `{"ip":[{"cidr":"10.0.0.0/24"}]}`, `{"ip":123}`, false},
		{"leading zeros", `{"ip":[{"cidr":"10.0.0.0/8"}]}`, `{"ip":"010.1.2.3"}`, true},
		{"v6", `{"ip":[{"cidr":"2001:db8:1234:1a00::/64"}]}`, `{"ip":"2001:0db8:1234:1a00:0000:0000:0000:0000"}`, true},
		{"v6 outside", `{"ip":[{"cidr":"2001:db8:1234:1a00::/64"}]}`, `{"ip":"2001:0db8:123f:1a01:0000:0000:0000:0000"}`, false},
		{"v4 mapped v6", `{"ip":[{"cidr":"10.0.0.0/8"}]}`, `{"ip":"::ffff:a01:203"}`, true},
		// AWS's engine compares addresses as hex digit strings and can let an address of the
		// other family through a very short mask; GridBridge keeps the families apart.
		{"v4 against v6 block", `{"ip":[{"cidr":"2001:db8::/32"}]}`, `{"ip":"10.0.0.1"}`, false},
		{"v6 against v4 block", `{"ip":[{"cidr":"0.0.0.0/8"}]}`, `{"ip":"::"}`, false},
		{"v4 against whole v6 space", `{"ip":[{"cidr":"::/0"}]}`, `{"ip":"10.0.0.1"}`, false},
		{"whole v4 space", `{"ip":[{"cidr":"0.0.0.0/0"}]}`, `{"ip":"192.168.1.1"}`, true},
		// AWS's engine can let some bare numbers through a very wide block; GridBridge
		// matches only IP address strings, as AWS documents.
		{"whole v4 space not a number", `{"ip":[{"cidr":"0.0.0.0/0"}]}`, `{"ip":300}`, false},
	})
}
