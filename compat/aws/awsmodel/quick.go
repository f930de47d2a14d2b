package awsmodel

import (
	"strconv"
	"unicode/utf8"
)

// quick reports whether body, the JSON body of an input of shape, is
// certainly free of violations and of mistyped members, reading its bytes
// once without decoding them: the answer for nearly every request, which
// then costs no allocation. Anything it is unsure of (an escaped string
// whose length or pattern matters, a blob with bounds, malformed JSON)
// answers false, and Check decodes the body to find what is wrong, so the
// two always agree on a request that breaks something.
func (c *Checker) quick(body []byte, shape int) bool {
	q := quickScan{c: c, b: body}
	end, ok := q.value(q.ws(0), shape)
	return ok && q.ws(end) == len(body)
}

type quickScan struct {
	c *Checker
	b []byte
}

func (q *quickScan) ws(i int) int {
	for i < len(q.b) && (q.b[i] == ' ' || q.b[i] == '\t' || q.b[i] == '\n' || q.b[i] == '\r') {
		i++
	}
	return i
}

// str reads the string at i: its raw bytes between the quotes, whether it
// holds escapes, and the index after it.
func (q *quickScan) str(i int) (raw []byte, escaped bool, end int, ok bool) {
	if i >= len(q.b) || q.b[i] != '"' {
		return nil, false, i, false
	}
	for j := i + 1; j < len(q.b); j++ {
		switch q.b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return q.b[i+1 : j], escaped, j + 1, true
		default:
			if q.b[j] < 0x20 {
				return nil, false, j, false
			}
		}
	}
	return nil, false, len(q.b), false
}

// number reads the number at i.
func (q *quickScan) number(i int) (float64, int, bool) {
	j := i
	for j < len(q.b) && (q.b[j] == '-' || q.b[j] == '+' || q.b[j] == '.' || q.b[j] == 'e' || q.b[j] == 'E' || (q.b[j] >= '0' && q.b[j] <= '9')) {
		j++
	}
	if j == i {
		return 0, i, false
	}
	f, err := strconv.ParseFloat(string(q.b[i:j]), 64)
	return f, j, err == nil
}

func (q *quickScan) literal(i int, word string) (int, bool) {
	if len(q.b)-i < len(word) || string(q.b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// skip passes over any JSON value.
func (q *quickScan) skip(i int) (int, bool) {
	if i >= len(q.b) {
		return i, false
	}
	switch q.b[i] {
	case '"':
		_, _, end, ok := q.str(i)
		return end, ok
	case '{', '[':
		closing := byte('}')
		if q.b[i] == '[' {
			closing = ']'
		}
		i = q.ws(i + 1)
		if i < len(q.b) && q.b[i] == closing {
			return i + 1, true
		}
		for {
			if closing == '}' {
				_, _, end, ok := q.str(i)
				if !ok {
					return end, false
				}
				i = q.ws(end)
				if i >= len(q.b) || q.b[i] != ':' {
					return i, false
				}
				i = q.ws(i + 1)
			}
			end, ok := q.skip(i)
			if !ok {
				return end, false
			}
			i = q.ws(end)
			if i >= len(q.b) {
				return i, false
			}
			if q.b[i] == closing {
				return i + 1, true
			}
			if q.b[i] != ',' {
				return i, false
			}
			i = q.ws(i + 1)
		}
	case 't':
		return q.literal(i, "true")
	case 'f':
		return q.literal(i, "false")
	case 'n':
		return q.literal(i, "null")
	}
	_, end, ok := q.number(i)
	return end, ok
}

func (q *quickScan) within(b Bound, n int) bool {
	return !(b.HasMin && float64(n) < b.Min) && !(b.HasMax && float64(n) > b.Max)
}

// value checks the value at i against shape; null is absent, and fine.
func (q *quickScan) value(i, shape int) (int, bool) {
	if i >= len(q.b) {
		return i, false
	}
	if q.b[i] == 'n' {
		return q.literal(i, "null")
	}
	s := &q.c.svc.Shapes[shape]
	switch s.Type {
	case String:
		raw, escaped, end, ok := q.str(i)
		if !ok {
			return end, false
		}
		constrained := s.Length.HasMin || s.Length.HasMax || len(s.Enum) > 0 || q.c.patterns[shape] != nil
		if !constrained {
			return end, true
		}
		if escaped || !utf8.Valid(raw) {
			return end, false
		}
		if !q.within(s.Length, utf8.RuneCount(raw)) {
			return end, false
		}
		if len(s.Enum) > 0 {
			found := false
			for _, e := range s.Enum {
				if string(raw) == e {
					found = true
					break
				}
			}
			if !found {
				return end, false
			}
		}
		if re := q.c.patterns[shape]; re != nil && !re.Match(raw) {
			return end, false
		}
		return end, true
	case Blob:
		_, _, end, ok := q.str(i)
		return end, ok && !s.Length.HasMin && !s.Length.HasMax
	case Integer, Long, Float:
		f, end, ok := q.number(i)
		if !ok || !fits(s.Type, f) {
			return end, false
		}
		return end, !(s.Range.HasMin && f < s.Range.Min) && !(s.Range.HasMax && f > s.Range.Max)
	case Timestamp:
		f, end, ok := q.number(i)
		return end, ok && f <= 1e13 && f >= -1e13
	case Boolean:
		if q.b[i] == 't' {
			return q.literal(i, "true")
		}
		return q.literal(i, "false")
	case List:
		if q.b[i] != '[' {
			return i, false
		}
		i = q.ws(i + 1)
		n := 0
		if i < len(q.b) && q.b[i] == ']' {
			return i + 1, q.within(s.Length, 0)
		}
		for {
			end, ok := q.value(i, s.Elem)
			if !ok {
				return end, false
			}
			n++
			i = q.ws(end)
			if i >= len(q.b) {
				return i, false
			}
			if q.b[i] == ']' {
				return i + 1, q.within(s.Length, n)
			}
			if q.b[i] != ',' {
				return i, false
			}
			i = q.ws(i + 1)
		}
	case Map, Structure, Union:
		return q.object(i, shape, s)
	}
	return q.skip(i)
}

// object checks a map's entries or a structure's members.
func (q *quickScan) object(i, shape int, s *Shape) (int, bool) {
	if q.b[i] != '{' || len(s.Members) > 64 || s.Discriminator != "" {
		return i, false
	}
	var seen uint64
	n := 0
	i = q.ws(i + 1)
	if i < len(q.b) && q.b[i] == '}' {
		i++
	} else {
		for {
			key, escaped, end, ok := q.str(i)
			if !ok || escaped {
				return end, false
			}
			colon := q.ws(end)
			if colon >= len(q.b) || q.b[colon] != ':' {
				return colon, false
			}
			at := q.ws(colon + 1)
			switch s.Type {
			case Map:
				if _, ok := q.value(i, s.Key); !ok {
					return i, false
				}
				if end, ok = q.value(at, s.Elem); !ok {
					return end, false
				}
				n++
			default:
				member := -1
				for k := range s.Members {
					if string(key) == s.Members[k].Name {
						member = k
						break
					}
				}
				if member < 0 {
					end, ok = q.skip(at)
				} else {
					if at < len(q.b) && q.b[at] != 'n' {
						seen |= 1 << member
					}
					end, ok = q.value(at, s.Members[member].Shape)
				}
				if !ok {
					return end, false
				}
			}
			i = q.ws(end)
			if i >= len(q.b) {
				return i, false
			}
			if q.b[i] == '}' {
				i++
				break
			}
			if q.b[i] != ',' {
				return i, false
			}
			i = q.ws(i + 1)
		}
	}
	if s.Type == Map {
		return i, q.within(s.Length, n)
	}
	if s.Type == Structure {
		for k, m := range s.Members {
			if m.Required && seen&(1<<k) == 0 {
				return i, false
			}
		}
	}
	return i, true
}
