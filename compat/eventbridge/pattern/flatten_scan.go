package pattern

// Stepping over JSON: whole values that no pattern looks at (still validated in full, but
// without building anything), and the white space, literals and numbers everything is made of.

// skipValue validates and steps over any value.
func (f *flattener) skipValue() error {
	if f.pos >= len(f.data) {
		return f.errorf("unexpected end of input")
	}
	switch f.data[f.pos] {
	case '{', '[':
		return f.skipContainer()
	case '"':
		end, _, err := f.scanString(f.pos + 1)
		if err != nil {
			return err
		}
		f.pos = end + 1
		return nil
	case 't', 'f', 'n':
		_, err := f.literal()
		return err
	}
	return f.number()
}

// skipContainer validates and steps over an object or array, iteratively.
func (f *flattener) skipContainer() error {
	const (
		opening   = iota // f.data[f.pos] opens a container
		member           // a member (object) or element (array) comes next
		following        // after a member: "," or the closing bracket
	)
	var stack [64]byte
	closers := stack[:0]
	state := opening
	for {
		switch state {
		case opening:
			if f.data[f.pos] == '{' {
				closers = append(closers, '}')
			} else {
				closers = append(closers, ']')
			}
			f.pos++
			if len(closers)+f.depth > maxEventDepth {
				return f.errorf("nesting deeper than %d", maxEventDepth)
			}
			f.skipSpace()
			if f.pos < len(f.data) && f.data[f.pos] == closers[len(closers)-1] {
				f.pos++
				if closers = closers[:len(closers)-1]; len(closers) == 0 {
					return nil
				}
				state = following
				continue
			}
			state = member
		case member:
			if closers[len(closers)-1] == '}' {
				if f.pos >= len(f.data) || f.data[f.pos] != '"' {
					return f.errorf("expected a field name")
				}
				end, _, err := f.scanString(f.pos + 1)
				if err != nil {
					return err
				}
				f.pos = end + 1
				f.skipSpace()
				if f.pos >= len(f.data) || f.data[f.pos] != ':' {
					return f.errorf("expected ':'")
				}
				f.pos++
				f.skipSpace()
			}
			if f.pos < len(f.data) && (f.data[f.pos] == '{' || f.data[f.pos] == '[') {
				state = opening
				continue
			}
			if err := f.skipValue(); err != nil {
				return err
			}
			state = following
		case following:
			f.skipSpace()
			if f.pos >= len(f.data) {
				return f.errorf("unexpected end of input")
			}
			switch f.data[f.pos] {
			case ',':
				f.pos++
				f.skipSpace()
				state = member
			case closers[len(closers)-1]:
				f.pos++
				if closers = closers[:len(closers)-1]; len(closers) == 0 {
					return nil
				}
			default:
				return f.errorf("expected ',' or a closing bracket")
			}
		}
	}
}

func (f *flattener) skipSpace() {
	if f.pos < len(f.data) && f.data[f.pos] > ' ' {
		return // compact JSON: the common case
	}
	for f.pos < len(f.data) {
		switch f.data[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

func (f *flattener) literal() (leafKind, error) {
	rest := f.data[f.pos:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		f.pos += 4
		return leafTrue, nil
	case len(rest) >= 5 && string(rest[:5]) == "false":
		f.pos += 5
		return leafFalse, nil
	case len(rest) >= 4 && string(rest[:4]) == "null":
		f.pos += 4
		return leafNull, nil
	}
	return 0, f.errorf("invalid literal")
}

// number validates a JSON number and moves past it.
func (f *flattener) number() error {
	d, p := f.data, f.pos
	if p < len(d) && d[p] == '-' {
		p++
	}
	switch {
	case p < len(d) && d[p] == '0':
		p++
	case p < len(d) && d[p] >= '1' && d[p] <= '9':
		for p < len(d) && isDigit(d[p]) {
			p++
		}
	default:
		return f.errorf("invalid value")
	}
	if p < len(d) && d[p] == '.' {
		p++
		if p >= len(d) || !isDigit(d[p]) {
			return f.errorf("invalid number")
		}
		for p < len(d) && isDigit(d[p]) {
			p++
		}
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		p++
		if p < len(d) && (d[p] == '+' || d[p] == '-') {
			p++
		}
		if p >= len(d) || !isDigit(d[p]) {
			return f.errorf("invalid number")
		}
		for p < len(d) && isDigit(d[p]) {
			p++
		}
	}
	f.pos = p
	return nil
}
