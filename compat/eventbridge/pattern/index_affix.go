package pattern

// affixTrie holds the prefixes (or, read backwards, the suffixes) of one field as a byte trie,
// so that a value finds every prefix it starts with in one walk along its bytes, however many
// prefixes there are.
type affixTrie struct {
	root *trieNode
}

type trieNode struct {
	edges []byte
	next  []*trieNode
	dense *[256]*trieNode // replaces edges/next when a node has many children
	ids   []int32         // branches whose prefix ends here
}

const maxSparseEdges = 16

func (t *affixTrie) add(s string, b int32, backwards bool) {
	if t.root == nil {
		t.root = &trieNode{}
	}
	n := t.root
	for i := 0; i < len(s); i++ {
		c := s[i]
		if backwards {
			c = s[len(s)-1-i]
		}
		next := n.step(c)
		if next == nil {
			next = &trieNode{}
			n.link(c, next)
		}
		n = next
	}
	n.ids = append(n.ids, b)
}

func (n *trieNode) step(c byte) *trieNode {
	if n.dense != nil {
		return n.dense[c]
	}
	for i, e := range n.edges {
		if e == c {
			return n.next[i]
		}
	}
	return nil
}

func (n *trieNode) link(c byte, next *trieNode) {
	if n.dense == nil && len(n.edges) < maxSparseEdges {
		n.edges = append(n.edges, c)
		n.next = append(n.next, next)
		return
	}
	if n.dense == nil {
		n.dense = new([256]*trieNode)
		for i, e := range n.edges {
			n.dense[e] = n.next[i]
		}
		n.edges, n.next = nil, nil
	}
	n.dense[c] = next
}

// collectPrefixes hands c every branch whose prefix v starts with.
func (t *affixTrie) collectPrefixes(v []byte, c *candidates) {
	n := t.root
	if n == nil {
		return
	}
	c.addAll(n.ids)
	for i := 0; i < len(v); i++ {
		if n = n.step(v[i]); n == nil {
			return
		}
		c.addAll(n.ids)
	}
}

// collectSuffixes hands c every branch whose suffix v ends with.
func (t *affixTrie) collectSuffixes(v []byte, c *candidates) {
	n := t.root
	if n == nil {
		return
	}
	c.addAll(n.ids)
	for i := len(v) - 1; i >= 0; i-- {
		if n = n.step(v[i]); n == nil {
			return
		}
		c.addAll(n.ids)
	}
}
