package pattern

import (
	"strings"
	"unicode/utf8"
)

// literal matches true, false or null.
func (l *lexer) literal(word string) error {
	i := 0
	for i < len(word) && l.pos+i < len(l.src) && l.src[l.pos+i] == word[i] {
		i++
	}
	if i < len(word) {
		l.pos += i
		return l.invalidToken(word[:i])
	}
	l.pos += i
	if l.pos < len(l.src) {
		r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
		if r >= '0' && r != ']' && r != '}' && isIdentifierPart(r) {
			return l.invalidToken(word)
		}
	}
	return nil
}

// invalidToken reports the unrecognised word starting at the cursor (minus matched).
func (l *lexer) invalidToken(matched string) error {
	var b strings.Builder
	b.WriteString(matched)
	p := l.pos
	for p < len(l.src) && b.Len() < 256 {
		r, size := utf8.DecodeRuneInString(l.src[p:])
		if !isIdentifierPart(r) {
			break
		}
		b.WriteRune(r)
		p += size
	}
	return syntaxError("Unrecognized token '" + b.String() + "': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')")
}

// number reads a JSON number and keeps its text exactly as written.
func (l *lexer) number() (tokenKind, error) {
	start := l.pos
	p := l.pos
	if l.src[p] == '-' {
		p++
		if strings.HasPrefix(l.src[p:], "Infinity") {
			return tokEOF, nonStandardToken("-Infinity")
		}
		switch {
		case p >= len(l.src):
			// The AWS parser's wording, missing space included.
			return tokEOF, syntaxError("Unexpected end-of-inputNo digit following minus sign")
		case l.src[p] == '.':
			return tokEOF, unexpectedChar('.', "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')")
		case !isDigit(l.src[p]):
			return tokEOF, numberError(l.charAt(p), "expected digit (0-9) to follow minus sign, for valid numeric value")
		}
	}
	if l.src[p] == '0' && p+1 < len(l.src) && isDigit(l.src[p+1]) {
		return tokEOF, syntaxError("Invalid numeric value: Leading zeroes not allowed")
	}
	for p < len(l.src) && isDigit(l.src[p]) {
		p++
	}
	kind := tokInt
	if p < len(l.src) && l.src[p] == '.' {
		kind = tokFloat
		p++
		if p >= len(l.src) {
			// At the end of the text the parser names the point itself.
			return tokEOF, numberError('.', "Decimal point not followed by a digit")
		}
		if !isDigit(l.src[p]) {
			return tokEOF, numberError(l.charAt(p), "Decimal point not followed by a digit")
		}
		for p < len(l.src) && isDigit(l.src[p]) {
			p++
		}
	}
	if p < len(l.src) && (l.src[p] == 'e' || l.src[p] == 'E') {
		kind = tokFloat
		p++
		if p < len(l.src) && (l.src[p] == '+' || l.src[p] == '-') {
			p++
		}
		if p >= len(l.src) {
			return tokEOF, syntaxError("Unexpected end-of-inputexpected a digit for number exponent")
		}
		if !isDigit(l.src[p]) {
			return tokEOF, numberError(l.charAt(p), "Exponent indicator not followed by a digit")
		}
		for p < len(l.src) && isDigit(l.src[p]) {
			p++
		}
	}
	if l.top().kind == 'r' && p < len(l.src) && !isSpace(l.src[p]) {
		return tokEOF, unexpectedChar(l.charAt(p), "Expected space separating root-level values")
	}
	l.text = l.src[start:p]
	l.pos = p
	return kind, nil
}

// stringText returns the body of the current string token, reading it on first use.
func (l *lexer) stringText() (string, error) {
	if !l.pending {
		return l.text, nil
	}
	s, end, err := l.readString(l.pos, "string value")
	if err != nil {
		return "", err
	}
	l.pending = false
	l.text = s
	l.pos = end
	return s, nil
}

// tokenText is the text of the current token as the AWS parser prints it in messages
// ("Invalid member in numeric match: ]").
func (l *lexer) tokenText() (string, error) {
	switch l.kind {
	case tokString:
		return l.stringText()
	case tokFieldName, tokInt, tokFloat:
		return l.text, nil
	case tokStartObject:
		return "{", nil
	case tokEndObject:
		return "}", nil
	case tokStartArray:
		return "[", nil
	case tokEndArray:
		return "]", nil
	case tokTrue:
		return "true", nil
	case tokFalse:
		return "false", nil
	case tokNull:
		return "null", nil
	}
	return "", nil
}

// readString decodes a JSON string whose body starts at p (just after the opening quote) and
// returns the offset just past the closing quote. what is "name" or "string value".
func (l *lexer) readString(p int, what string) (string, int, error) {
	start := p
	for p < len(l.src) {
		c := l.src[p]
		if c == '"' {
			return l.src[start:p], p + 1, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p++
	}
	var b strings.Builder
	b.WriteString(l.src[start:p])
	for {
		if p >= len(l.src) {
			if what == "name" {
				return "", 0, syntaxError("Unexpected end-of-input in field name")
			}
			return "", 0, syntaxError("Unexpected end-of-input: was expecting closing quote for a string value")
		}
		c := l.src[p]
		switch {
		case c == '"':
			return b.String(), p + 1, nil
		case c < 0x20:
			return "", 0, syntaxError("Illegal unquoted character (" + charDesc(rune(c)) + "): has to be escaped using backslash to be included in " + what)
		case c != '\\':
			b.WriteByte(c)
			p++
			continue
		}
		p++
		if p >= len(l.src) {
			return "", 0, syntaxError("Unexpected end-of-input in character escape sequence")
		}
		e := l.src[p]
		p++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := l.hex4(p)
			if err != nil {
				return "", 0, err
			}
			p += 4
			if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(l.src[p:], `\u`) {
				if lo, err := l.hex4(p + 2); err == nil && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					p += 6
				}
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD
		default:
			r, _ := utf8.DecodeRuneInString(l.src[p-1:])
			return "", 0, syntaxError("Unrecognized character escape " + charDesc(r))
		}
	}
}

func (l *lexer) hex4(p int) (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		if p+i >= len(l.src) {
			return 0, syntaxError("Unexpected end-of-input in character escape sequence")
		}
		c := l.src[p+i]
		v, ok := hexValue(c)
		if !ok {
			return 0, unexpectedChar(l.charAt(p+i), "expected a hex-digit for character escape sequence")
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}
