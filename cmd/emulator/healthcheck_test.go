package main

import (
	"flag"
	"testing"
)

// The health check reads the running emulator's command line with the
// emulator's own flags: a flag's value is never taken for another flag,
// and a bool flag takes no value.
func TestAddrFlagReadsACommandLineAsTheEmulatorDoes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args  []string
		want  string
		found bool
	}{
		{[]string{"--addr", "0.0.0.0:5080"}, "0.0.0.0:5080", true},
		{[]string{"-addr=0.0.0.0:5080", "--no-jitter", "--clock", "virtual"}, "0.0.0.0:5080", true},
		{[]string{"--no-jitter", "--clock", "--addr", "--addr", "[::]:6080"}, "[::]:6080", true},
		{[]string{"--clock", "virtual"}, "", false},
		{[]string{"--bogus", "--addr", "0.0.0.0:5080"}, "", false},
		{nil, "", false},
	} {
		fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
		fs.String("addr", "127.0.0.1:4080", "")
		fs.String("clock", "real", "")
		fs.Bool("no-jitter", false, "")
		got, found := addrFlag(fs, tc.args)
		if got != tc.want || found != tc.found {
			t.Errorf("addrFlag(%q) = %q, %v; want %q, %v", tc.args, got, found, tc.want, tc.found)
		}
	}
}
