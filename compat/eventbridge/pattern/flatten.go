package pattern

import (
	"errors"
	"fmt"
)

// maxEventDepth bounds the nesting of event objects and arrays.
const maxEventDepth = 1000

var errEventNotObject = errors.New("pattern: event must be a JSON object")

// flattener reads one event's JSON and turns the parts that patterns look at into leaves. It
// validates the whole text, including the parts it skips (and the UTF-8 inside strings), so
// that a broken event is always an error and never a silent non-match.
type flattener struct {
	data   []byte
	pos    int
	paths  *pathTable
	ev     *flatEvent
	arrays int32
	depth  int
}

// flatten fills ev with the leaves of event that lie on the paths of table.
func flatten(event []byte, table *pathTable, ev *flatEvent) error {
	ev.reset()
	f := flattener{data: event, paths: table, ev: ev}
	f.skipSpace()
	if f.pos >= len(f.data) || f.data[f.pos] != '{' {
		if f.pos < len(f.data) {
			if err := f.skipValue(); err != nil {
				return err
			}
		}
		return errEventNotObject
	}
	f.pos++
	if err := f.object(&table.root); err != nil {
		return err
	}
	f.skipSpace()
	if f.pos != len(f.data) {
		return f.errorf("unexpected text after the event object")
	}
	return nil
}

func (f *flattener) errorf(format string, args ...any) error {
	return fmt.Errorf("pattern: invalid event JSON at offset %d: %s", f.pos, fmt.Sprintf(format, args...))
}

// object reads the members of an object whose "{" has been consumed; node is the object's
// place in the path tree.
func (f *flattener) object(node *pathNode) error {
	if f.depth++; f.depth > maxEventDepth {
		return f.errorf("nesting deeper than %d", maxEventDepth)
	}
	f.skipSpace()
	if f.pos < len(f.data) && f.data[f.pos] == '}' {
		f.pos++
		f.depth--
		return nil
	}
	for {
		if f.pos >= len(f.data) || f.data[f.pos] != '"' {
			return f.errorf("expected a field name")
		}
		start := f.pos + 1
		end, escaped, err := f.scanString(start)
		if err != nil {
			return err
		}
		f.pos = end + 1
		key := f.data[start:end]
		if escaped {
			key = f.decodeString(f.ev.keyBuf[:0], start, end, true)
			f.ev.keyBuf = key
		}
		f.skipSpace()
		if f.pos >= len(f.data) || f.data[f.pos] != ':' {
			return f.errorf("expected ':'")
		}
		f.pos++
		f.skipSpace()
		if child := node.child(key); child != nil {
			err = f.value(child)
		} else {
			err = f.skipValue()
		}
		if err != nil {
			return err
		}
		if end, err := f.next('}'); end || err != nil {
			return err
		}
	}
}

// value reads the value of a field on a path some pattern uses (or leads through).
func (f *flattener) value(node *pathNode) error {
	if f.pos >= len(f.data) {
		return f.errorf("unexpected end of input")
	}
	switch c := f.data[f.pos]; c {
	case '{':
		if !node.hasChildren() {
			return f.skipValue()
		}
		f.pos++
		return f.object(node)
	case '[':
		f.pos++
		return f.array(node)
	case '"':
		start := f.pos + 1
		end, escaped, err := f.scanString(start)
		if err != nil {
			return err
		}
		f.pos = end + 1
		if node.id >= 0 {
			var s []byte
			if escaped {
				from := len(f.ev.strBuf)
				f.ev.strBuf = f.decodeString(f.ev.strBuf, start, end, true)
				s = f.ev.strBuf[from:len(f.ev.strBuf):len(f.ev.strBuf)]
			} else {
				s = f.data[start:end]
			}
			f.ev.addLeaf(node.id, leafString, s)
		}
	case 't', 'f', 'n':
		kind, err := f.literal()
		if err != nil {
			return err
		}
		if node.id >= 0 {
			f.ev.addLeaf(node.id, kind, nil)
		}
	default:
		start := f.pos
		if err := f.number(); err != nil {
			return err
		}
		if node.id >= 0 {
			f.ev.addLeaf(node.id, leafNumber, f.data[start:f.pos])
		}
	}
	return nil
}

// array reads the elements of an array whose "[" has been consumed. Every element has the
// array's own path; objects and arrays inside it also record which element they are.
func (f *flattener) array(node *pathNode) error {
	if f.depth++; f.depth > maxEventDepth {
		return f.errorf("nesting deeper than %d", maxEventDepth)
	}
	id := f.arrays
	f.arrays++
	f.skipSpace()
	if f.pos < len(f.data) && f.data[f.pos] == ']' {
		f.pos++
		f.depth--
		return nil
	}
	for index := int32(0); ; index++ {
		if f.pos >= len(f.data) {
			return f.errorf("unexpected end of input")
		}
		var err error
		switch f.data[f.pos] {
		case '{':
			if !node.hasChildren() {
				err = f.skipValue()
				break
			}
			f.pos++
			f.ev.enterElement(id, index)
			err = f.object(node)
			f.ev.leaveElement()
		case '[':
			f.pos++
			f.ev.enterElement(id, index)
			err = f.array(node)
			f.ev.leaveElement()
		default:
			err = f.value(node)
		}
		if err != nil {
			return err
		}
		if end, err := f.next(']'); end || err != nil {
			return err
		}
	}
}

// next reads what follows a member or an element: a comma, before the next
// one, or close, which ends the object or array (end is true).
func (f *flattener) next(close byte) (end bool, err error) {
	f.skipSpace()
	if f.pos >= len(f.data) {
		return false, f.errorf("unexpected end of input")
	}
	switch f.data[f.pos] {
	case ',':
		f.pos++
		f.skipSpace()
		return false, nil
	case close:
		f.pos++
		f.depth--
		return true, nil
	}
	return false, f.errorf("expected ',' or '%c'", close)
}
