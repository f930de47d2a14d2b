package eventbridge

import "github.com/gridbridge/gridbridge/internal/jsonscan"

// Every PutEvents entry's Detail is checked and compacted, and
// encoding/json's Compact (a byte-at-a-time state machine) was a fiftieth of
// a call's cost. appendCompact does the same in a direct pass. It only ever
// says yes to what encoding/json accepts, writing what json.Compact writes
// (held to it by FuzzAppendCompact); anything it does not take — invalid
// JSON, or nesting deeper than it bothers with — goes to json.Compact, whose
// verdict stands.

// maxCompactDepth is the nesting appendCompact handles itself.
const maxCompactDepth = 64

// appendCompact appends src without insignificant white space to dst and
// reports whether src was one JSON value it could take.
func appendCompact(dst, src []byte) ([]byte, bool) {
	c := compactor{src: src, dst: dst}
	c.space()
	if !c.value(0) {
		return dst, false
	}
	c.space()
	return c.dst, c.i == len(src)
}

type compactor struct {
	src []byte
	i   int
	dst []byte
}

func (c *compactor) space() { c.i = jsonscan.SkipSpace(c.src, c.i) }

func (c *compactor) value(depth int) bool {
	if c.i >= len(c.src) {
		return false
	}
	switch b := c.src[c.i]; {
	case b == '{':
		return c.object(depth + 1)
	case b == '[':
		return c.array(depth + 1)
	case b == '"':
		return c.string()
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	}
	return false
}

func (c *compactor) object(depth int) bool {
	return c.container(depth, '}', func() bool {
		if c.i >= len(c.src) || c.src[c.i] != '"' || !c.string() {
			return false
		}
		c.space()
		if c.i >= len(c.src) || c.src[c.i] != ':' {
			return false
		}
		c.dst = append(c.dst, ':')
		c.i++
		c.space()
		return c.value(depth)
	})
}

func (c *compactor) array(depth int) bool {
	return c.container(depth, ']', func() bool { return c.value(depth) })
}

// container copies the object or array opening at c.i, up to its closing
// byte; item reads one member or element.
func (c *compactor) container(depth int, closing byte, item func() bool) bool {
	if depth > maxCompactDepth {
		return false
	}
	c.dst = append(c.dst, c.src[c.i])
	c.i++
	c.space()
	if c.i < len(c.src) && c.src[c.i] == closing {
		c.dst = append(c.dst, closing)
		c.i++
		return true
	}
	for {
		if !item() {
			return false
		}
		if more, ok := c.after(closing); !more {
			return ok
		}
	}
}

// after reads what follows a member or an element: a comma, when more
// follow, or the container's closing byte; ok is false for anything else.
func (c *compactor) after(closing byte) (more, ok bool) {
	c.space()
	if c.i >= len(c.src) {
		return false, false
	}
	switch c.src[c.i] {
	case ',':
		c.dst = append(c.dst, ',')
		c.i++
		c.space()
		return true, true
	case closing:
		c.dst = append(c.dst, closing)
		c.i++
		return false, true
	}
	return false, false
}

// string copies a string as it is: encoding/json checks its escapes and
// control characters, not its UTF-8.
func (c *compactor) string() bool {
	start := c.i
	c.i++
	for c.i < len(c.src) {
		switch b := c.src[c.i]; {
		case b == '"':
			c.i++
			c.dst = append(c.dst, c.src[start:c.i]...)
			return true
		case b < 0x20:
			return false
		case b == '\\':
			if c.i+1 >= len(c.src) {
				return false
			}
			switch c.src[c.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.i += 2
			case 'u':
				if c.i+6 > len(c.src) {
					return false
				}
				for _, h := range c.src[c.i+2 : c.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				c.i += 6
			default:
				return false
			}
		default:
			c.i++
		}
	}
	return false
}

func (c *compactor) number() bool {
	start := c.i
	end, ok := jsonscan.ScanNumber(c.src, c.i)
	if !ok {
		return false
	}
	c.i = end
	c.dst = append(c.dst, c.src[start:end]...)
	return true
}

func (c *compactor) literal(word string) bool {
	if len(c.src)-c.i < len(word) || string(c.src[c.i:c.i+len(word)]) != word {
		return false
	}
	c.i += len(word)
	c.dst = append(c.dst, word...)
	return true
}
