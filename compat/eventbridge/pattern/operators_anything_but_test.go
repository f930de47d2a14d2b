package pattern

import "testing"

func TestAnythingBut(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"string", `{"s":[{"anything-but":"initializing"}]}`, `{"s":"pending"}`, true},
		{"string excluded", `{"s":[{"anything-but":"initializing"}]}`, `{"s":"initializing"}`, false},
		// A missing field never matches; null and other types do.
		{"missing", `{"s":[{"anything-but":"x"}]}`, `{"t":"x"}`, false},
		{"null", `{"s":[{"anything-but":"x"}]}`, `{"s":null}`, true},
		{"number against string", `{"s":[{"anything-but":"100"}]}`, `{"s":100}`, true},
		{"boolean", `{"s":[{"anything-but":"x"}]}`, `{"s":true}`, true},
		{"empty array has no value", `{"s":[{"anything-but":"x"}]}`, `{"s":[]}`, false},
		{"array with another value", `{"s":[{"anything-but":"x"}]}`, `{"s":["x","y"]}`, true},
		{"array of excluded", `{"s":[{"anything-but":"x"}]}`, `{"s":["x","x"]}`, false},
		{"string list", `{"s":[{"anything-but":["stopped","overloaded"]}]}`, `{"s":"pending"}`, true},
		{"string list excluded", `{"s":[{"anything-but":["stopped","overloaded"]}]}`, `{"s":"stopped"}`, false},
		{"number", `{"n":[{"anything-but":123}]}`, `{"n":789}`, true},
		{"number excluded", `{"n":[{"anything-but":123}]}`, `{"n":123}`, false},
		{"number excluded by value", `{"n":[{"anything-but":100}]}`, `{"n":1.0e2}`, false},
		{"zero", `{"n":[{"anything-but":0}]}`, `{"n":-0}`, false},
		{"number list", `{"n":[{"anything-but":[100,200,300]}]}`, `{"n":999}`, true},
		{"number list excluded", `{"n":[{"anything-but":[100,200,300]}]}`, `{"n":300}`, false},
		{"number list against string", `{"n":[{"anything-but":[100,200]}]}`, `{"n":"100"}`, true},
		{"number list against a number a float cannot hold", `{"n":[{"anything-but":[100]}]}`, `{"n":12345678901234567890}`, true},
		{"prefix", `{"s":[{"anything-but":{"prefix":"init"}}]}`, `{"s":"post-init"}`, true},
		{"prefix excluded", `{"s":[{"anything-but":{"prefix":"init"}}]}`, `{"s":"init-x"}`, false},
		{"prefix number value", `{"s":[{"anything-but":{"prefix":"init"}}]}`, `{"s":12}`, true},
		{"prefix list", `{"s":[{"anything-but":{"prefix":["init","post"]}}]}`, `{"s":"post-init"}`, false},
		{"prefix missing", `{"s":[{"anything-but":{"prefix":"init"}}]}`, `{}`, false},
		{"suffix", `{"f":[{"anything-but":{"suffix":".txt"}}]}`, `{"f":"file.txt.bak"}`, true},
		{"suffix excluded", `{"f":[{"anything-but":{"suffix":".txt"}}]}`, `{"f":"file.txt"}`, false},
		{"suffix list", `{"f":[{"anything-but":{"suffix":[".txt",".jpg"]}}]}`, `{"f":"file.jpg"}`, false},
		{"ignore case", `{"s":[{"anything-but":{"equals-ignore-case":"initializing"}}]}`, `{"s":"pending"}`, true},
		{"ignore case excluded", `{"s":[{"anything-but":{"equals-ignore-case":"initializing"}}]}`, `{"s":"INITIALIZING"}`, false},
		{"ignore case list", `{"s":[{"anything-but":{"equals-ignore-case":["initializing","stopped"]}}]}`, `{"s":"Stopped"}`, false},
		{"ignore case null", `{"s":[{"anything-but":{"equals-ignore-case":"x"}}]}`, `{"s":null}`, true},
		{"wildcard", `{"p":[{"anything-but":{"wildcard":"*/dir/*"}}]}`, `{"p":"dir/init/file"}`, true},
		{"wildcard excluded", `{"p":[{"anything-but":{"wildcard":"*/init/*"}}]}`, `{"p":"dir/init/file"}`, false},
		{"wildcard empty excludes only empty", `{"p":[{"anything-but":{"wildcard":""}}]}`, `{"p":"x"}`, true},
		{"wildcard number", `{"p":[{"anything-but":{"wildcard":"*"}}]}`, `{"p":123}`, true},
		{"or with numeric", `{"n":[{"numeric":[">",100]},{"anything-but":"101"}]}`, `{"n":"42"}`, true},
		{"or with numeric excluded string", `{"n":[{"numeric":[">",100]},{"anything-but":"101"}]}`, `{"n":"101"}`, false},
	})
}
