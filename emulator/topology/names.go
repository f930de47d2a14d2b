package topology

import "strings"

// uniqueNames reports a name declared twice among siblings (topics of a
// file, rules of a bus, …). Azure names compare without letter case.
type uniqueNames struct {
	what string // e.g. "topic name"
	fold bool
	seen map[string]int
}

func newUniqueNames(what string, fold bool) *uniqueNames {
	return &uniqueNames{what: what, fold: fold, seen: make(map[string]int)}
}

// add records the name in o's field; "" (already reported) is skipped.
func (u *uniqueNames) add(o *object, field, name string) {
	if name == "" {
		return
	}
	key := name
	if u.fold {
		key = strings.ToLower(name)
	}
	_, line := o.field(field)
	if first, dup := u.seen[key]; dup {
		o.problem(field, "duplicate %s %q (first at line %d)", u.what, name, first)
		return
	}
	u.seen[key] = line
}

// decodeEach decodes every item with decode and returns, in order, what it
// read; names reports a name (nameOf of the result, in the item's field
// field) used before in its name space.
func decodeEach[T any](items []item, names *uniqueNames, field string, decode func(item) (T, *object), nameOf func(T) string) []T {
	var out []T
	for _, it := range items {
		if v, o := decode(it); o != nil {
			names.add(o, field, nameOf(v))
			out = append(out, v)
		}
	}
	return out
}
