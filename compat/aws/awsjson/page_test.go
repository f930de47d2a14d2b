package awsjson

import (
	"slices"
	"testing"
)

func TestPageResumesAfterTheLastNameReturned(t *testing.T) {
	t.Parallel()
	names := []string{"d", "b", "a", "c", "e"}
	for _, tc := range []struct {
		after string
		size  int
		want  []string
		more  bool
	}{
		{"", 2, []string{"a", "b"}, true},
		{"b", 2, []string{"c", "d"}, true},
		{"d", 2, []string{"e"}, false},
		// The name the token carries was deleted meanwhile: the page goes
		// on from where it stood, repeating and skipping nothing.
		{"bb", 2, []string{"c", "d"}, true},
		{"e", 2, []string{}, false},
		{"", 10, []string{"a", "b", "c", "d", "e"}, false},
	} {
		page, more := Page(slices.Clone(names), tc.after, tc.size)
		if !slices.Equal(page, tc.want) || more != tc.more {
			t.Errorf("Page(after %q, size %d) = %v, %v; want %v, %v", tc.after, tc.size, page, more, tc.want, tc.more)
		}
	}
}
