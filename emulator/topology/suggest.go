package topology

import "strings"

// closest returns the candidate a mistyped word most likely meant, or ""
// when none is near: a difference of letter case only, or an edit distance
// of at most a third of the word (two edits for short words).
func closest(word string, candidates []string) string {
	best, bestDist := "", -1
	limit := max(2, len(word)/3)
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c
		}
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, counted in bytes
// (field names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
