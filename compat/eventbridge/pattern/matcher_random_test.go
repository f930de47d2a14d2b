package pattern

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomPatterns builds patterns from a small vocabulary so that they often overlap: the same
// fields, values, prefixes and ranges appear in many patterns, in every operator.
type randomPatterns struct{ r *rand.Rand }

var (
	randomKeys    = []string{"a", "b", "c", "a.b"}
	randomStrings = []string{"x", "X", "xy", "", "abc", "ABC", "a*c", "10.0.0.1", "010.0.0.1", "2001:db8::1", "ß", "SS", "é", "aXbYc"}
	randomNumbers = []string{"0", "-0", "1", "1.0", "300", "3.0e2", "5.5", "-7", "100", "12345678901234567890"}
)

func (g randomPatterns) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g randomPatterns) str() string { return fmt.Sprintf("%q", g.pick(randomStrings)) }

func (g randomPatterns) operand() string {
	switch g.r.IntN(17) {
	case 0:
		return `{"prefix":` + g.str() + `}`
	case 1:
		return `{"suffix":` + g.str() + `}`
	case 2:
		return `{"equals-ignore-case":` + g.str() + `}`
	case 3:
		return `{"prefix":{"equals-ignore-case":` + g.str() + `}}`
	case 4:
		return `{"anything-but":` + g.str() + `}`
	case 5:
		return `{"anything-but":[` + g.pick(randomNumbers[2:]) + `]}`
	case 6:
		return `{"anything-but":{"prefix":"a"}}`
	case 7:
		lo := g.r.IntN(10)
		return fmt.Sprintf(`{"numeric":[">=",%d,"<",%d]}`, lo, lo+1+g.r.IntN(400))
	case 8:
		return `{"numeric":["<",` + g.pick([]string{"0", "6", "300"}) + `]}`
	case 9:
		return `{"exists":` + g.pick([]string{"true", "false"}) + `}`
	case 10:
		return `{"cidr":"10.0.0.0/8"}`
	case 11:
		return `{"wildcard":` + g.pick([]string{`"a*c"`, `"*"`, `"x*"`, `"*Y*"`}) + `}`
	case 12, 13:
		return g.pick(randomNumbers)
	case 14:
		return g.pick([]string{"true", "false", "null"})
	}
	return g.str()
}

func (g randomPatterns) object(depth int) string {
	var fields []string
	for _, k := range g.r.Perm(len(randomKeys))[:1+g.r.IntN(2)] {
		if depth < 2 && g.r.IntN(4) == 0 {
			fields = append(fields, fmt.Sprintf("%q:%s", randomKeys[k], g.object(depth+1)))
			continue
		}
		var values []string
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			values = append(values, g.operand())
		}
		fields = append(fields, fmt.Sprintf("%q:[%s]", randomKeys[k], strings.Join(values, ",")))
	}
	if depth == 0 && g.r.IntN(6) == 0 {
		fields = append(fields, `"$or":[`+g.object(1)+`,`+g.object(1)+`]`)
	}
	return "{" + strings.Join(fields, ",") + "}"
}

func (g randomPatterns) value(depth int) string {
	switch n := g.r.IntN(10); {
	case depth < 3 && n == 0:
		return g.event(depth + 1)
	case depth < 3 && n == 1:
		var items []string
		for i := g.r.IntN(4); i > 0; i-- {
			items = append(items, g.value(depth+1))
		}
		return "[" + strings.Join(items, ",") + "]"
	case n < 6:
		return g.str()
	case n < 9:
		return g.pick(randomNumbers)
	}
	return g.pick([]string{"true", "false", "null"})
}

func (g randomPatterns) event(depth int) string {
	var fields []string
	for _, k := range g.r.Perm(len(randomKeys))[:g.r.IntN(len(randomKeys)+1)] {
		fields = append(fields, fmt.Sprintf("%q:%s", randomKeys[k], g.value(depth)))
	}
	return "{" + strings.Join(fields, ",") + "}"
}

// The index is only an accelerator: a Matcher must return exactly the patterns whose
// Pattern.Match is true, whatever mix of patterns it holds.
func TestMatcherAgreesWithPatternMatch(t *testing.T) {
	t.Parallel()
	g := randomPatterns{rand.New(rand.NewPCG(1, 2))}
	for round := 0; round < 20; round++ {
		m := NewMatcher()
		patterns := map[string]*Pattern{}
		for len(patterns) < 150 {
			text := g.object(0)
			p, err := Parse(text)
			if err != nil {
				continue // e.g. a range whose ends meet
			}
			id := fmt.Sprintf("%d:%s", len(patterns), text)
			patterns[id] = p
			m.Add(id, p)
		}
		for e := 0; e < 100; e++ {
			event := g.event(0)
			var want []string
			for id, p := range patterns {
				ok, err := p.Match([]byte(event))
				if err != nil {
					t.Fatalf("%s: %v", event, err)
				}
				if ok {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			if got := sortedMatch(t, m, event); !slices.Equal(got, want) {
				t.Fatalf("event %s:\n got %q\nwant %q", event, got, want)
			}
		}
	}
}
