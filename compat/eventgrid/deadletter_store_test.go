package eventgrid

import (
	"context"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// A dead-letter destination naming an unconfigured storage account lands in
// Azurite's development account when that one is configured.
func TestAccountFallback(t *testing.T) {
	t.Parallel()
	var got []string
	record := engine.SinkFunc(func(_ context.Context, dl engine.DeadLetter) error {
		got = append(got, dl.Destination)
		return nil
	})
	cases := []struct {
		names []string
		dest  string
		want  string
	}{
		{[]string{"devstoreaccount1", "prod"}, "prod/dlq/A.json", "prod/dlq/A.json"},
		{[]string{"devstoreaccount1", "prod"}, "other/dlq/A.json", "devstoreaccount1/dlq/A.json"},
		{[]string{"only"}, "other/dlq/A.json", "only/dlq/A.json"},
		{[]string{"one", "two"}, "other/dlq/A.json", "other/dlq/A.json"}, // no fallback: the sink says not found
	}
	for _, c := range cases {
		got = nil
		if err := (accountFallback{sink: record, names: c.names}).Write(context.Background(), engine.DeadLetter{Destination: c.dest}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("accounts %v, destination %q: wrote %v, want %q", c.names, c.dest, got, c.want)
		}
	}
}
