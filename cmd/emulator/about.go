package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// version describes this build: the module version (a tag when installed
// with go install …@version, "(devel)" for a build of a checkout), the
// commit it was built from and whether the tree had changes, and the Go
// toolchain, as the Go linker recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "gridbridge (unknown build)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var revision, modified, when string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		case "vcs.time":
			when = " " + s.Value
		}
	}
	out := "gridbridge " + v
	if revision != "" {
		out += fmt.Sprintf(" (commit %.12s%s%s)", revision, modified, when)
	}
	return out + " " + info.GoVersion
}

// usage is the --help text: how the binary is run, what it is, and its
// flags.
func usage(fs *flag.FlagSet, argv0 string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s [flags]\n\n", programName(argv0))
		io.WriteString(w, `GridBridge emulates Azure Event Grid and Amazon EventBridge (with SQS and
EventBridge Scheduler) on one local HTTP and HTTPS endpoint, for integration
tests. It prints one line per endpoint, the dashboard's URL, and "ready".

Every flag can also be set as GRIDBRIDGE_<FLAG>, upper-cased with dashes as
underscores (--sqs-endpoint: GRIDBRIDGE_SQS_ENDPOINT); the command line wins.
For tests, --clock virtual moves time only when a test advances it;
--time-scale 60 runs a real clock 60 times faster.

Flags:
`)
		fs.PrintDefaults()
	}
}

// programName is how the user ran the binary: "go run ./cmd/emulator" when
// argv0 is a binary go run built in its cache, otherwise its file name.
func programName(argv0 string) string {
	if strings.Contains(argv0, string(filepath.Separator)+"go-build") {
		return "go run ./cmd/emulator"
	}
	return filepath.Base(argv0)
}
