package pattern

import (
	"fmt"
	"testing"
)

// benchEvent is a typical small EventBridge event as a bus delivers it (compact JSON).
var benchEvent = []byte(`{"version":"0","id":"6a7e8feb-b491-4cf7-a9f1-bf3703467718",` +
	`"detail-type":"OrderPlaced","source":"bench.orders0","account":"111122223333",` +
	`"time":"2024-03-01T12:34:56Z","region":"us-east-1",` +
	`"resources":["arn:aws:ecs:us-east-1:111122223333:task/example/7"],` +
	`"detail":{"orderId":"o-0007","customer":"cust-0-acme","status":"pending","amount":5.5,"items":3,"priority":true}}`)

// benchRule returns the i-th rule of a mixed rule set: numeric, exact, prefix and anything-but
// rules in turn, each aimed at its own source, detail-type or customer as real rule sets are.
// benchEvent matches rule 0 and no other, so every sub-benchmark produces the same result.
func benchRule(i int) string {
	switch i % 4 {
	case 0:
		return fmt.Sprintf(`{"source":["bench.orders%d"],"detail":{"amount":[{"numeric":[">",%d,"<=",%d]}]}}`, i%50, i, i+10)
	case 1:
		return fmt.Sprintf(`{"source":["bench.orders%d"],"detail-type":["OrderPlaced%d"]}`, i%50, i)
	case 2:
		return fmt.Sprintf(`{"source":[{"prefix":"bench.orders%d"}],"detail":{"customer":[{"prefix":"cust-%d-"}]}}`, i%50, i)
	default:
		return fmt.Sprintf(`{"detail-type":["OrderPlaced%d"],"detail":{"status":[{"anything-but":["cancelled","failed-%d"]}]}}`, i, i)
	}
}

func BenchmarkMatcher(b *testing.B) {
	for _, n := range []int{1, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			m := NewMatcher()
			for i := 0; i < n; i++ {
				p, err := Parse(benchRule(i))
				if err != nil {
					b.Fatal(err)
				}
				m.Add(fmt.Sprintf("rule-%d", i), p)
			}
			if ids, err := m.Match(benchEvent); err != nil || len(ids) != 1 || ids[0] != "rule-0" { // builds the index
				b.Fatalf("Match = %v, %v; want [rule-0]", ids, err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.Match(benchEvent); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func BenchmarkPatternMatch(b *testing.B) {
	p, err := Parse(`{"source":["bench.orders0"],"detail":{"amount":[{"numeric":[">",5,"<=",20]}],"status":[{"anything-but":"cancelled"}]}}`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ok, err := p.Match(benchEvent); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(benchRule(i % 4)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatcherRebuild measures the index rebuild that the first Match after a change pays.
func BenchmarkMatcherRebuild(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			patterns := map[string]*Pattern{}
			for i := 0; i < n; i++ {
				p, err := Parse(benchRule(i))
				if err != nil {
					b.Fatal(err)
				}
				patterns[fmt.Sprintf("rule-%d", i)] = p
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buildSnapshot(patterns)
			}
		})
	}
}
