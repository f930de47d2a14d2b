package main

import (
	"math"
	"testing"
)

// --memory-limit (GRIDBRIDGE_MEMORY_LIMIT) takes GOMEMLIMIT's spelling; when
// neither it nor GOMEMLIMIT is given the default applies, and GOMEMLIMIT
// alone is left to the runtime.
func TestMemoryLimitFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"64MiB", 64 << 20}, {"1GiB", 1 << 30}, {"512KiB", 512 << 10}, {"2TiB", 2 << 40},
		{"1000000", 1_000_000}, {"300B", 300}, {" 8 MiB ", 8 << 20}, {"off", math.MaxInt64}, {"OFF", math.MaxInt64},
	} {
		got, err := parseMemoryLimit(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseMemoryLimit(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "lots", "-1MiB", "0", "64MB", "1.5GiB", "99999999999TiB"} {
		if got, err := parseMemoryLimit(bad); err == nil {
			t.Errorf("parseMemoryLimit(%q) = %d, want an error", bad, got)
		}
	}

	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, c := range []struct {
		name   string
		flag   string
		env    map[string]string
		want   int64
		wantOK bool
	}{
		{"default", "", nil, DefaultMemoryLimit, true},
		{"GOMEMLIMIT left to the runtime", "", map[string]string{"GOMEMLIMIT": "1GiB"}, 0, false},
		{"flag wins over GOMEMLIMIT", "96MiB", map[string]string{"GOMEMLIMIT": "1GiB"}, 96 << 20, true},
		{"off", "off", nil, math.MaxInt64, true},
	} {
		m := memoryLimit{getenv: env(c.env)}
		if c.flag != "" {
			if err := m.Set(c.flag); err != nil {
				t.Fatal(err)
			}
		}
		if got, ok := m.resolve(); got != c.want || ok != c.wantOK {
			t.Errorf("%s: resolve() = %d, %v; want %d, %v", c.name, got, ok, c.want, c.wantOK)
		}
	}
}

// --gc-percent (GRIDBRIDGE_GC_PERCENT) takes GOGC's spelling; when neither
// it nor GOGC is set the binary collects at DefaultGCPercent.
func TestGCPercentFlag(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, c := range []struct {
		name   string
		flag   string
		env    map[string]string
		want   int
		wantOK bool
	}{
		{"default", "", nil, DefaultGCPercent, true},
		{"GOGC left to the runtime", "", map[string]string{"GOGC": "200"}, 0, false},
		{"flag wins over GOGC", "80", map[string]string{"GOGC": "200"}, 80, true},
		{"off", "off", nil, -1, true},
	} {
		g := gcPercent{getenv: env(c.env)}
		if c.flag != "" {
			if err := g.Set(c.flag); err != nil {
				t.Fatal(err)
			}
		}
		if got, ok := g.resolve(); got != c.want || ok != c.wantOK {
			t.Errorf("%s: resolve() = %d, %v; want %d, %v", c.name, got, ok, c.want, c.wantOK)
		}
	}
	for _, bad := range []string{"", "lots", "-5", "1.5"} {
		var g gcPercent
		if err := g.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}
