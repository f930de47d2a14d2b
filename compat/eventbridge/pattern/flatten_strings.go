package pattern

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// scanString finds the closing quote of the string whose body starts at p, validating escapes,
// control characters and UTF-8 on the way. It reports whether the body has escapes, in which
// case decodeString must be used to read it.
func (f *flattener) scanString(p int) (end int, escaped bool, err error) {
	d := f.data
	for {
		// Plain ASCII goes eight bytes at a time, up to the first byte that needs a look.
		for p+8 <= len(d) {
			if m := attentionMask(binary.LittleEndian.Uint64(d[p:])); m != 0 {
				p += bits.TrailingZeros64(m) / 8
				break
			}
			p += 8
		}
		if p >= len(d) {
			f.pos = p
			return 0, false, f.errorf("unterminated string")
		}
		switch c := d[p]; {
		case c == '"':
			return p, escaped, nil
		case c == '\\':
			f.pos = p
			if _, err := f.escape(); err != nil {
				return 0, false, err
			}
			p = f.pos
			escaped = true
		case c < 0x20:
			f.pos = p
			return 0, false, f.errorf("control character in string")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d[p:])
			if r == utf8.RuneError && size <= 1 {
				f.pos = p
				return 0, false, f.errorf("invalid UTF-8")
			}
			p += size
		default:
			p++
		}
	}
}

// attentionMask sets the high bit of each of the eight bytes in w (little-endian) that is a
// quote, a backslash, a control character or non-ASCII. Bytes above the first flagged one may be
// flagged wrongly, so only the lowest flag is to be trusted.
func attentionMask(w uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	zeroQuote := (quote - ones) &^ quote
	zeroBackslash := (backslash - ones) &^ backslash
	control := w - ones*0x20 // a byte below 0x20 borrows into its high bit
	return (zeroQuote | zeroBackslash | control&^w | w) & highs
}

// decodeString appends the string body d[start:end] to dst, resolving escapes. The body has
// been validated by scanString.
func (f *flattener) decodeString(dst []byte, start, end int, escaped bool) []byte {
	if !escaped {
		return append(dst, f.data[start:end]...)
	}
	save := f.pos
	for p := start; p < end; {
		if c := f.data[p]; c != '\\' {
			dst = append(dst, c)
			p++
			continue
		}
		f.pos = p
		r, _ := f.escape()
		dst = utf8.AppendRune(dst, r) // a lone surrogate becomes U+FFFD
		p = f.pos
	}
	f.pos = save
	return dst
}

// escape reads the escape sequence whose backslash is at f.pos and returns its character.
func (f *flattener) escape() (rune, error) {
	if f.pos+1 >= len(f.data) {
		return 0, f.errorf("unterminated string")
	}
	e := f.data[f.pos+1]
	f.pos += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := f.hex4()
		if err != nil {
			return 0, err
		}
		if r >= 0xD800 && r < 0xDC00 && f.pos+1 < len(f.data) && f.data[f.pos] == '\\' && f.data[f.pos+1] == 'u' {
			save := f.pos
			f.pos += 2
			if lo, err := f.hex4(); err == nil && lo >= 0xDC00 && lo < 0xE000 {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), nil
			}
			f.pos = save
		}
		return r, nil
	}
	return 0, f.errorf("invalid escape")
}

func (f *flattener) hex4() (rune, error) {
	if f.pos+4 > len(f.data) {
		return 0, f.errorf("invalid unicode escape")
	}
	var r rune
	for i := 0; i < 4; i++ {
		v, ok := hexValue(f.data[f.pos+i])
		if !ok {
			return 0, f.errorf("invalid unicode escape")
		}
		r = r<<4 | rune(v)
	}
	f.pos += 4
	return r, nil
}
