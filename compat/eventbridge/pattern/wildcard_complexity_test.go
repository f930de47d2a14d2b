package pattern

import "testing"

func TestWildcardComplexity(t *testing.T) {
	t.Parallel()
	score := func(values ...string) int {
		var ws []wildcardPattern
		for _, v := range values {
			w, err := parseWildcard(v)
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
		for limit := 0; ; limit++ {
			if !wildcardComplexityExceeds(ws, limit) {
				return limit
			}
		}
	}
	// Scores as AWS's engine computes them (with the quotes it adds around values).
	for _, c := range []struct {
		values []string
		want   int
	}{
		{[]string{"*:*:*:*:*:event-bus/*"}, 11},
		{[]string{"arn:aws:events:us-east-1:*:event-bus/*"}, 3},
		{[]string{"/Users/*/dir/dir/dir/dir/dir/doc.txt"}, 7},
		{[]string{"/Users/*/doc.txt"}, 2},
		{[]string{"*/dir/*"}, 4},
		{[]string{"a*a*a*a*a*a"}, 10},
		{[]string{"*"}, 2},
		{[]string{"abc"}, 1},
		{[]string{"a*bbb"}, 4},
		{[]string{"*", "ab*c"}, 4},
		{[]string{"a*aaa", "aa*aa"}, 7},
		{[]string{"a*a*a*a", "a*a*a*a*a"}, 14},
	} {
		if got := score(c.values...); got != c.want {
			t.Errorf("complexity of %q = %d, want %d", c.values, got, c.want)
		}
	}
}

func TestWildcardComplexityAcrossPattern(t *testing.T) {
	t.Parallel()
	// Values on the same field add up, also across $or branches; other fields do not.
	if _, err := Parse(`{"f":[{"wildcard":"a*a*a*a"},{"anything-but":{"wildcard":"a*a*a*a*a"}}]}`); err == nil {
		t.Error("two wildcards on one field should add up past the limit")
	}
	if _, err := Parse(`{"$or":[{"f":[{"wildcard":"a*a*a*a"}]},{"f":[{"wildcard":"a*a*a*a*a"}]}]}`); err == nil {
		t.Error("wildcards on one field in two branches should add up past the limit")
	}
	if _, err := Parse(`{"f":[{"wildcard":"a*a*a*a"}],"g":[{"wildcard":"a*a*a*a*a"}]}`); err != nil {
		t.Errorf("wildcards on different fields: %v", err)
	}
}
