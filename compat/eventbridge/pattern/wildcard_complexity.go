package pattern

import "math/bits"

// AWS rejects wildcard patterns that would make matching too non-deterministic, with
// "Rule is too complex - try using fewer wildcard characters or fewer repeating character
// sequences after a wildcard character". Its measure is, over every possible input value, the
// largest number of wildcard-pattern prefixes that the input matches at once, summed over the
// wildcard values (plain and anything-but) on the same field. Each value is taken with the
// quotes AWS wraps string values in. For example "*:*:*:*:*:event-bus/*" scores 11 (rejected),
// "/Users/*/dir/dir/dir/dir/dir/doc.txt" scores 7 and "arn:aws:events:us-east-1:*:event-bus/*"
// scores 3 (both accepted). AWS does not publish its limit; GridBridge accepts up to 10.
const maxWildcardComplexity = 10

const tooComplexReason = "Rule is too complex - try using fewer wildcard characters or fewer repeating character sequences after a wildcard character"

// wildcardComplexityExceeds reports whether the wildcard values on one field score above limit.
func wildcardComplexityExceeds(values []wildcardPattern, limit int) bool {
	if len(values) == 0 {
		return false
	}
	// Each value as the automaton AWS builds: quote, the value, quote. State k means "the
	// input so far matches the first k tokens"; a state just after a star loops on any byte.
	nfas := make([][]int16, len(values))
	var used [256]bool
	used['"'] = true
	for i, v := range values {
		t := make([]int16, 0, len(v.tokens)+2)
		t = append(t, '"')
		t = append(t, v.tokens...)
		t = append(t, '"')
		nfas[i] = t
		for _, tok := range v.tokens {
			if tok != starToken {
				used[tok] = true
			}
		}
	}
	// Bytes that appear in no value all behave alike, so one of them stands for the rest.
	var alphabet []int16
	other := -1
	for b := 0; b < 256; b++ {
		if used[b] {
			alphabet = append(alphabet, int16(b))
		} else if other < 0 {
			other = b
		}
	}
	if other >= 0 {
		alphabet = append(alphabet, int16(other))
	}

	start := make([]stateSet, len(nfas))
	for i, t := range nfas {
		start[i] = closeOverStars(t, newStateSet(len(t)+1).with(0))
	}
	seen := map[string]bool{jointKey(start): true}
	queue := [][]stateSet{start}
	const maxStates = 20000 // enough for any realistic pattern; beyond it, accept
	for len(queue) > 0 && len(seen) < maxStates {
		cur := queue[0]
		queue = queue[1:]
		score := 0
		for _, s := range cur {
			score += s.countFrom1()
		}
		if score > limit {
			return true
		}
		for _, c := range alphabet {
			next := make([]stateSet, len(nfas))
			for i, t := range nfas {
				next[i] = stepOnByte(t, cur[i], c)
			}
			if k := jointKey(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return false
}

// stateSet is a set of automaton states (token positions) as a bitset.
type stateSet []uint64

func newStateSet(n int) stateSet { return make(stateSet, (n+63)/64) }

func (s stateSet) with(k int) stateSet {
	s[k/64] |= 1 << (k % 64)
	return s
}

func (s stateSet) has(k int) bool { return s[k/64]&(1<<(k%64)) != 0 }

// countFrom1 counts the states other than the start state: each is a matched prefix.
func (s stateSet) countFrom1() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	if s.has(0) {
		n--
	}
	return n
}

// closeOverStars adds, for every state before a star, the state after it (a star may match
// nothing).
func closeOverStars(t []int16, s stateSet) stateSet {
	for k := 0; k < len(t); k++ {
		if t[k] == starToken && s.has(k) {
			s.with(k + 1)
		}
	}
	return s
}

func stepOnByte(t []int16, s stateSet, c int16) stateSet {
	next := newStateSet(len(t) + 1)
	for k := 0; k <= len(t); k++ {
		if !s.has(k) {
			continue
		}
		if k < len(t) && t[k] == c {
			next.with(k + 1)
		}
		if k > 0 && t[k-1] == starToken {
			next.with(k)
		}
	}
	return closeOverStars(t, next)
}

func jointKey(sets []stateSet) string {
	b := make([]byte, 0, 8*len(sets))
	for _, s := range sets {
		for _, w := range s {
			for i := 0; i < 8; i++ {
				b = append(b, byte(w>>(8*i)))
			}
		}
	}
	return string(b)
}
