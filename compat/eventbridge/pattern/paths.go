package pattern

import "strings"

// pathTable numbers the field paths that a set of patterns uses ("detail.state") and arranges
// them as a tree of key segments, so that flattening an event follows only the keys some
// pattern looks at and skips everything else.
//
// Paths join keys with ".", and so do events: an event key "state.status" and the nested keys
// "state" then "status" both reach the path "state.status", which is how AWS treats dots.
// The tree therefore splits every path at its dots, and an event key with dots walks several
// levels at once.
type pathTable struct {
	root  pathNode
	names []string // path of each id
}

// pathNode is one segment of one or more paths.
type pathNode struct {
	id       int32 // the path ending here, or -1 when paths only pass through
	children pathChildren
}

// pathChildren finds a node's child by key segment. Most objects have a handful of used keys,
// for which comparing lengths and bytes in a short list beats hashing.
type pathChildren struct {
	keys  []string
	nodes []*pathNode
	big   map[string]*pathNode // replaces the list beyond maxListedChildren
}

const maxListedChildren = 8

func newPathTable() *pathTable {
	return &pathTable{root: pathNode{id: -1}}
}

// add registers a path and returns its id; adding a path twice returns the same id.
func (t *pathTable) add(path string) int32 {
	n := &t.root
	for seg := range strings.SplitSeq(path, ".") {
		child := n.children.get([]byte(seg))
		if child == nil {
			child = &pathNode{id: -1}
			n.children.put(seg, child)
		}
		n = child
	}
	if n.id < 0 {
		n.id = int32(len(t.names))
		t.names = append(t.names, path)
	}
	return n.id
}

func (t *pathTable) len() int { return len(t.names) }

// hasChildren reports whether some used path continues below n.
func (n *pathNode) hasChildren() bool { return len(n.children.keys) > 0 || n.children.big != nil }

// child returns the node that an event key leads to from n, or nil when no used path goes
// there. A key with dots stands for several segments.
func (n *pathNode) child(key []byte) *pathNode {
	for {
		dot := -1
		for i, c := range key {
			if c == '.' {
				dot = i
				break
			}
		}
		if dot < 0 {
			return n.children.get(key)
		}
		if n = n.children.get(key[:dot]); n == nil {
			return nil
		}
		key = key[dot+1:]
	}
}

func (c *pathChildren) get(key []byte) *pathNode {
	if c.big != nil {
		return c.big[string(key)]
	}
	for i, k := range c.keys {
		if len(k) == len(key) && k == string(key) {
			return c.nodes[i]
		}
	}
	return nil
}

func (c *pathChildren) put(key string, n *pathNode) {
	if c.big == nil && len(c.keys) < maxListedChildren {
		c.keys = append(c.keys, key)
		c.nodes = append(c.nodes, n)
		return
	}
	if c.big == nil {
		c.big = make(map[string]*pathNode, 2*maxListedChildren)
		for i, k := range c.keys {
			c.big[k] = c.nodes[i]
		}
		c.keys, c.nodes = nil, nil
	}
	c.big[key] = n
}
