package topology

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// maxNodes bounds how many nodes decoding visits, aliases included: a small
// file of nested aliases can otherwise expand to billions of nodes.
const maxNodes = 1_000_000

// maxDepth bounds nesting, so a pathological file cannot exhaust the stack.
const maxDepth = 64

// decoder reads a parsed YAML (or JSON) tree into the File model,
// collecting problems rather than stopping at the first.
type decoder struct {
	problems
	visited int
}

// visit counts n against maxNodes and resolves an alias to its anchor's
// node. It reports false, once, when the file is too large.
func (d *decoder) visit(n *yaml.Node) (*yaml.Node, bool) {
	d.visited++
	if d.visited == maxNodes+1 {
		d.add(n.Line, "", "the file expands to more than %d values (aliases included); it is too large to be a topology", maxNodes)
	}
	if d.visited > maxNodes {
		return nil, false
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n, true
}

// entry is one key of a mapping and its value.
type entry struct {
	key   string
	line  int // the key's line
	value *yaml.Node
}

// entries lists a mapping's keys in file order, with YAML merge keys
// ("<<: *defaults") expanded so that keys written in the mapping win. A key
// written twice is a problem: YAML and JSON parsers disagree on which one
// counts, so a file that relies on either is ambiguous.
func (d *decoder) entries(n *yaml.Node, path string) []entry {
	var own, merged []entry
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merged = append(merged, d.mergeEntries(v, path)...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			d.add(k.Line, path, "a key must be plain text, not %s", kindName(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.add(k.Line, join(path, k.Value), "duplicate key (first at line %d)", first)
			continue
		}
		seen[k.Value] = k.Line
		own = append(own, entry{key: k.Value, line: k.Line, value: v})
	}
	for _, e := range merged {
		if _, overridden := seen[e.key]; !overridden {
			seen[e.key] = e.line
			own = append(own, e)
		}
	}
	return own
}

// mergeEntries reads the value of a merge key: one mapping or a list of them.
func (d *decoder) mergeEntries(v *yaml.Node, path string) []entry {
	v, ok := d.visit(v)
	if !ok {
		return nil
	}
	switch v.Kind {
	case yaml.MappingNode:
		return d.entries(v, path)
	case yaml.SequenceNode:
		var out []entry
		for _, item := range v.Content {
			out = append(out, d.mergeEntries(item, path)...)
		}
		return out
	}
	d.add(v.Line, path, "a merge key (<<) must name a mapping, not %s", kindName(v))
	return nil
}

// kindName names a node's kind, with its article, the way a message to a
// person should: "a mapping", "the text \"five\"".
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "an empty value"
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		}
		return "the text " + strconv.Quote(n.Value)
	}
	return "an unreadable value"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// join appends a key to a field path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index appends a list index to a field path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
