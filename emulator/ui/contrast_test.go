package ui

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every --NAME-fg colour of the palette is drawn on its --NAME-bg; each pair
// must reach WCAG 2's 4.5:1 contrast for normal text.
func TestPaletteContrast(t *testing.T) {
	t.Parallel()
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;`).FindAllStringSubmatch(string(css), -1) {
		vars[m[1]] = m[2]
	}
	pairs := 0
	for name, fg := range vars {
		base, ok := strings.CutSuffix(name, "-fg")
		if !ok {
			continue
		}
		bg, ok := vars[base+"-bg"]
		if !ok {
			t.Errorf("--%s has no --%s-bg to be drawn on", name, base)
			continue
		}
		pairs++
		if r := contrast(t, fg, bg); r < 4.5 {
			t.Errorf("--%s %s on --%s-bg %s: contrast %.2f:1, want at least 4.5:1", name, fg, base, bg, r)
		}
	}
	// Text that also sits on the striped table rows and the header.
	for _, p := range [][2]string{{"muted-fg", "row-bg"}, {"link-fg", "row-bg"}, {"page-fg", "row-bg"}, {"head-fg", "head-bg"}, {"page-fg", "code-bg"}} {
		if r := contrast(t, vars[p[0]], vars[p[1]]); r < 4.5 {
			t.Errorf("--%s on --%s: contrast %.2f:1, want at least 4.5:1", p[0], p[1], r)
		}
	}
	if pairs < 10 {
		t.Fatalf("found %d colour pairs in style.css; the palette is not where this test looks", pairs)
	}
	// The checker itself: black on white is 21:1, a mid grey on white fails.
	if r := contrast(t, "#000000", "#ffffff"); math.Abs(r-21) > 0.01 {
		t.Fatalf("contrast(black, white) = %.2f, want 21", r)
	}
	if r := contrast(t, "#959595", "#ffffff"); r >= 4.5 {
		t.Fatalf("contrast(#959595, white) = %.2f, want below 4.5", r)
	}
}

// contrast is WCAG 2's (L1 + 0.05) / (L2 + 0.05) of two sRGB colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(t *testing.T, hex string) float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		t.Fatalf("colour %q: %v", hex, err)
	}
	channel := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*channel(v>>16&0xff) + 0.7152*channel(v>>8&0xff) + 0.0722*channel(v&0xff)
}
