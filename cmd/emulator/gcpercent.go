package main

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultGCPercent is the Go runtime's GOGC when neither --gc-percent
// (GRIDBRIDGE_GC_PERCENT) nor GOGC says otherwise.
//
// With the runtime's own 100 the heap grows to twice its live data between
// collections. The emulator's live data is mostly what it holds for pending
// events, and its garbage mostly what delivery attempts leave behind, so at
// 50 a backlog on a failing webhook costs less memory (about
// 1.75 KiB per pending event instead of 1.87 after twelve hours of retries)
// for collections twice as often; the collector's share of the emulator's
// CPU is small there, and the change in the benchmark's CPU time was within
// its run-to-run spread (README, Memory at scale).
const DefaultGCPercent = 50

// gcPercent is the --gc-percent flag.
type gcPercent struct {
	getenv  func(string) string
	set     bool
	percent int // negative: off
}

func (g *gcPercent) String() string {
	if g == nil || !g.set {
		return ""
	}
	if g.percent < 0 {
		return "off"
	}
	return strconv.Itoa(g.percent)
}

// Set parses a percentage as GOGC spells it: a number, or "off".
func (g *gcPercent) Set(v string) error {
	s := strings.TrimSpace(v)
	if strings.EqualFold(s, "off") {
		g.set, g.percent = true, -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a GC percentage (a number of 0 or more, or off)", v)
	}
	g.set, g.percent = true, n
	return nil
}

// resolve says which percentage to set: the flag's, else none when GOGC is
// in the environment (the runtime already applied it), else the default.
func (g *gcPercent) resolve() (int, bool) {
	switch {
	case g.set:
		return g.percent, true
	case g.getenv != nil && g.getenv("GOGC") != "":
		return 0, false
	}
	return DefaultGCPercent, true
}
