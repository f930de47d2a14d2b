package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultMemoryLimit is the Go runtime's soft memory limit when neither
// --memory-limit (GRIDBRIDGE_MEMORY_LIMIT) nor GOMEMLIMIT says otherwise.
//
// Without a limit the runtime lets the heap grow to twice its live data
// before collecting (GOGC=100) and returns freed pages to the system only
// slowly, so an emulator that once held a large backlog stays large. With the
// limit the collector runs sooner as the heap nears it and the scavenger
// gives freed memory back to stay under it.
//
// 96 MiB sits above the live data of the emulator holding 100,000 pending
// events of 300 bytes (about 65 MiB), so even that backlog costs no extra
// collections (measured: 64 MiB made publishing it twice as slow, 96 MiB
// not measurably), while it keeps that process near 100 MB resident instead
// of 145 MB. Smaller runs never reach it and behave as without a limit. The
// limit is soft: a process whose live data exceeds it keeps working and only
// collects more often (the runtime caps the collector's CPU share).
const DefaultMemoryLimit = 96 << 20

// memoryLimit is the --memory-limit flag.
type memoryLimit struct {
	getenv func(string) string
	set    bool
	bytes  int64 // math.MaxInt64: no limit
}

func (m *memoryLimit) String() string {
	if m == nil || !m.set {
		return ""
	}
	if m.bytes == math.MaxInt64 {
		return "off"
	}
	return strconv.FormatInt(m.bytes, 10)
}

// Set parses a size as GOMEMLIMIT spells it: a number of bytes with an
// optional unit B, KiB, MiB, GiB or TiB, or "off".
func (m *memoryLimit) Set(v string) error {
	n, err := parseMemoryLimit(v)
	if err != nil {
		return err
	}
	m.set, m.bytes = true, n
	return nil
}

// resolve says which limit to set: the flag's, else none when GOMEMLIMIT is
// in the environment (the runtime already applied it), else the default.
func (m *memoryLimit) resolve() (int64, bool) {
	switch {
	case m.set:
		return m.bytes, true
	case m.getenv != nil && m.getenv("GOMEMLIMIT") != "":
		return 0, false
	}
	return DefaultMemoryLimit, true
}

func parseMemoryLimit(v string) (int64, error) {
	s := strings.TrimSpace(v)
	if strings.EqualFold(s, "off") {
		return math.MaxInt64, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, shift = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a memory size (a positive number of bytes, optionally with B, KiB, MiB, GiB or TiB, or off)", v)
	}
	return n << shift, nil
}
