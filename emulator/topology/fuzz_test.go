package topology

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse: any file, YAML or JSON, is loaded or refused with an error
// naming the file; never a panic. The seeds are the example files and
// small broken variants of them.
func FuzzParse(f *testing.F) {
	for _, path := range []string{"../../examples/compose/topology.yaml", "../../testkit/container/testdata/topology.yaml"} {
		if data, err := os.ReadFile(path); err == nil {
			f.Add("topology.yaml", string(data))
		}
	}
	for _, s := range []string{
		`{"eventgrid":{"topics":[{"name":"t","subscriptions":[{"name":"s","webhook":"https://x","deadLetter":{"account":"acct","container":"dead"}}]}]}}`,
		`{"eventbridge":{"buses":[{"name":"b","rules":[{"name":"r","eventPattern":{"source":["s"]},"targets":[{"id":"t","arn":"arn:aws:sqs:us-east-1:000000000000:q"}]}]}]}}`,
		"eventgrid:\n  topics:\n    - name: [\n", "eventgrid: &a [*a]\n", "---\n- 1\n- 2\n", `{"eventgrid":`, "\xef\xbb\xbf{}", "",
	} {
		name := "topology.yaml"
		if strings.HasPrefix(s, "{") {
			name = "topology.json"
		}
		f.Add(name, s)
	}
	f.Fuzz(func(t *testing.T, name, data string) {
		if name == "" {
			name = "topology.yaml"
		}
		if _, err := Parse(name, []byte(data)); err != nil && !strings.Contains(err.Error(), name) {
			t.Fatalf("the error does not name the file %q: %v", name, err)
		}
	})
}
