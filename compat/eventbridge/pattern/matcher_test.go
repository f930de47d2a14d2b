package pattern

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

func sortedMatch(t *testing.T, m *Matcher, event string) []string {
	t.Helper()
	ids, err := m.Match([]byte(event))
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	slices.Sort(ids)
	return ids
}

func TestMatcherAddRemove(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	const event = `{"source":"aws.ec2","detail":{"state":"running"}}`
	if ids := sortedMatch(t, m, event); len(ids) != 0 {
		t.Fatalf("empty matcher matched %v", ids)
	}
	m.Add("by-source", mustParse(t, `{"source":["aws.ec2"]}`))
	m.Add("by-state", mustParse(t, `{"detail":{"state":["running"]}}`))
	m.Add("other", mustParse(t, `{"source":["aws.s3"]}`))
	if got, want := sortedMatch(t, m, event), []string{"by-source", "by-state"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if m.Len() != 3 {
		t.Fatalf("Len = %d", m.Len())
	}

	m.Add("by-source", mustParse(t, `{"source":["aws.s3"]}`)) // replace
	if got, want := sortedMatch(t, m, event), []string{"by-state"}; !slices.Equal(got, want) {
		t.Fatalf("after replace: got %v, want %v", got, want)
	}

	m.Remove("by-state")
	m.Remove("never-added")
	if got := sortedMatch(t, m, event); len(got) != 0 {
		t.Fatalf("after remove: got %v", got)
	}
	if got, want := sortedMatch(t, m, `{"source":"aws.s3"}`), []string{"by-source", "other"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestMatcherReportsEachPatternOnce(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	// Both branches match, and the field matches through two array values.
	m.Add("or", mustParse(t, `{"$or":[{"a":["1"]},{"b":["2"]}]}`))
	m.Add("list", mustParse(t, `{"r":["x","y"]}`))
	got := sortedMatch(t, m, `{"a":"1","b":"2","r":["x","y","x"]}`)
	if want := []string{"list", "or"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestMatcherSamePatternManyIDs(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	p := mustParse(t, `{"source":[{"prefix":"aws."}]}`)
	for i := 0; i < 50; i++ {
		m.Add(fmt.Sprintf("rule-%02d", i), p)
	}
	if got := sortedMatch(t, m, `{"source":"aws.ec2"}`); len(got) != 50 {
		t.Fatalf("matched %d ids, want 50", len(got))
	}
}

// Patterns without any field the index can use are checked on every event.
func TestMatcherUnindexablePatterns(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	m.Add("anything-but", mustParse(t, `{"state":[{"anything-but":"stopped"}]}`))
	m.Add("missing", mustParse(t, `{"state":[{"exists":false}]}`))
	m.Add("wildcard", mustParse(t, `{"state":[{"wildcard":"run*"}]}`))
	m.Add("cidr", mustParse(t, `{"ip":[{"cidr":"10.0.0.0/8"}]}`))
	m.Add("non-ascii ignore case", mustParse(t, `{"state":[{"equals-ignore-case":"RÜN"}]}`))
	cases := map[string][]string{
		`{"state":"running"}`:            {"anything-but", "wildcard"},
		`{"state":"stopped"}`:            nil,
		`{"ip":"10.1.2.3"}`:              {"cidr", "missing"},
		`{"state":"rün","ip":"1.1.1.1"}`: {"anything-but", "non-ascii ignore case"},
	}
	for event, want := range cases {
		if got := sortedMatch(t, m, event); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", event, got, want)
		}
	}
}

// The index picks one field per pattern; every kind of indexable condition must still find
// its patterns, alone and mixed with many others.
func TestMatcherIndexKinds(t *testing.T) {
	t.Parallel()
	patterns := map[string]string{
		"string":        `{"f":["v"]}`,
		"ip":            `{"f":["10.0.0.1"]}`,
		"number":        `{"n":[300]}`,
		"number text":   `{"n":[12345678901234567890]}`,
		"true":          `{"b":[true]}`,
		"null":          `{"z":[null]}`,
		"prefix":        `{"f":[{"prefix":"va"}]}`,
		"empty prefix":  `{"f":[{"prefix":""}]}`,
		"suffix":        `{"f":[{"suffix":"ue"}]}`,
		"fold":          `{"f":[{"equals-ignore-case":"VALUE"}]}`,
		"fold prefix":   `{"f":[{"prefix":{"equals-ignore-case":"VAL"}}]}`,
		"fold suffix":   `{"f":[{"suffix":{"equals-ignore-case":"LUE"}}]}`,
		"range":         `{"n":[{"numeric":[">",299,"<",301]}]}`,
		"exists":        `{"n":[{"exists":true}]}`,
		"mixed list":    `{"f":["nope",{"prefix":"valu"}]}`,
		"two fields":    `{"f":["value"],"n":[{"numeric":["=",3e2]}]}`,
		"needs absence": `{"f":["value"],"g":[{"exists":false}]}`,
	}
	events := []string{
		`{"f":"value","n":300,"b":true,"z":null}`,
		`{"f":"v","n":12345678901234567890}`,
		`{"f":"010.0.0.1","n":300.5}`,
		`{"f":"VALUE","g":1}`,
	}
	for _, noise := range []int{0, 300} {
		m := NewMatcher()
		for id, text := range patterns {
			m.Add(id, mustParse(t, text))
		}
		// Noise patterns on the same fields change which field each pattern is indexed under.
		for i := 0; i < noise; i++ {
			m.Add(fmt.Sprintf("noise-%d", i), mustParse(t, fmt.Sprintf(`{"f":["n%d"],"n":[%d]}`, i, 1000+i)))
		}
		for _, event := range events {
			var want []string
			for id, text := range patterns {
				if ok, _ := mustParse(t, text).Match([]byte(event)); ok {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			if got := sortedMatch(t, m, event); !slices.Equal(got, want) {
				t.Errorf("noise %d, %s:\n got %v\nwant %v", noise, event, got, want)
			}
		}
	}
}

func TestMatcherConcurrentUse(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	m.Add("stable", mustParse(t, `{"source":["aws.ec2"]}`))
	event := []byte(`{"source":"aws.ec2","detail":{"n":5}}`)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) { // writers churn their own ids
			defer wg.Done()
			for i := 0; i < 200; i++ {
				id := fmt.Sprintf("w%d-%d", w, i%7)
				if i%3 == 2 {
					m.Remove(id)
					continue
				}
				m.Add(id, mustParse(t, fmt.Sprintf(`{"detail":{"n":[{"numeric":[">",%d]}]}}`, i%10)))
			}
		}(w)
	}
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() { // readers always see the stable rule, and no id twice
			defer wg.Done()
			for i := 0; i < 500; i++ {
				ids, err := m.Match(event)
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.Contains(ids, "stable") {
					t.Errorf("stable rule missing from %v", ids)
					return
				}
				slices.Sort(ids)
				if len(slices.Compact(slices.Clone(ids))) != len(ids) {
					t.Errorf("duplicate ids in %v", ids)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Once writers are done, the result reflects every change.
	got := sortedMatch(t, m, string(event))
	var want []string
	for w := 0; w < 4; w++ {
		for k := 0; k < 7; k++ {
			// Replay the last operation each writer made on w<w>-<k>.
			last := -1
			for i := 0; i < 200; i++ {
				if i%7 == k {
					last = i
				}
			}
			if last%3 != 2 && 5 > last%10 {
				want = append(want, fmt.Sprintf("w%d-%d", w, k))
			}
		}
	}
	want = append(want, "stable")
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("final state: got %v, want %v", got, want)
	}
}

// Large rule sets switch the index to its bigger structures: many keys in one object, many
// prefixes sharing a node, many numeric ranges on one field.
func TestMatcherLargeIndexes(t *testing.T) {
	t.Parallel()
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN" // 40 edges out of one trie node
	m := NewMatcher()
	for i := 0; i < 300; i++ {
		m.Add(fmt.Sprintf("key-%03d", i), mustParse(t, fmt.Sprintf(`{"k%d":["v"]}`, i)))
		m.Add(fmt.Sprintf("prefix-%03d", i), mustParse(t, fmt.Sprintf(`{"p":[{"prefix":"x%c%d"}]}`, letters[i%40], i)))
		m.Add(fmt.Sprintf("suffix-%03d", i), mustParse(t, fmt.Sprintf(`{"p":[{"suffix":"%d%cy"}]}`, i, letters[i%40])))
		m.Add(fmt.Sprintf("range-%03d", i), mustParse(t, fmt.Sprintf(`{"n":[{"numeric":[">=",%d,"<",%d]}]}`, i, i+3)))
	}
	cases := map[string][]string{
		`{"k7":"v","k250":"v","k999":"v"}`: {"key-007", "key-250"},
		`{"p":"xh7-tail"}`:                 {"prefix-007"},
		`{"p":"xh7"}`:                      {"prefix-007"},
		`{"p":"head-7hy"}`:                 {"suffix-007"},
		`{"p":"xh7-7hy"}`:                  {"prefix-007", "suffix-007"},
		`{"n":10}`:                         {"range-008", "range-009", "range-010"},
		`{"n":0.5}`:                        {"range-000"},
		`{"n":301.5}`:                      {"range-299"},
		`{"n":302}`:                        nil,
		`{"n":-1}`:                         nil,
	}
	for event, want := range cases {
		if got := sortedMatch(t, m, event); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", event, got, want)
		}
	}
}
