package pattern

import "testing"

// FuzzParse: any pattern text is parsed or refused with an error, never a
// panic; a parsed pattern matches any event without panicking.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"source":["shop"]}`,
		`{"detail":{"total":[{"numeric":[">",100,"<=",200]}]}}`,
		`{"detail-type":[{"prefix":"Order"}],"detail":{"id":[{"exists":true}]}}`,
		`{"source":[{"anything-but":{"prefix":"aws."}}]}`,
		`{"detail":{"ip":[{"cidr":"10.0.0.0/24"}],"name":[{"equals-ignore-case":"x"}]}}`,
		`{"detail":{"path":[{"wildcard":"a/*/b"}],"s":[{"suffix":".png"}]}}`,
		`{"$or":[{"source":["a"]},{"detail":{"n":[1]}}]}`,
		`{"a":[null,true,1.5e3,"x"]}`,
		`{"a":`, `[]`, `{"a":[]}`, `{"a":[{"numeric":[">"]}]}`,
	} {
		f.Add(seed, `{"source":"shop","detail-type":"Order","detail":{"total":150,"id":"1","ip":"10.0.0.5","path":"a/x/b"}}`)
	}
	f.Fuzz(func(t *testing.T, pattern, event string) {
		p, err := Parse(pattern)
		if err != nil {
			return
		}
		_, _ = p.Match([]byte(event))
	})
}
