package pattern

import (
	"strings"
	"unicode/utf8"
)

// tokenKind is one JSON token of a pattern, in the streaming style of the parser AWS uses.
type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokStartObject
	tokEndObject
	tokStartArray
	tokEndArray
	tokFieldName
	tokString
	tokInt
	tokFloat
	tokTrue
	tokFalse
	tokNull
)

func (k tokenKind) isNumber() bool { return k == tokInt || k == tokFloat }

// scope is one open object or array (or the root) of the pattern being read.
type scope struct {
	kind    byte // 'r' root, 'o' object, 'a' array
	start   int  // byte offset of the opening bracket
	entries int  // entries read so far; from the second on a comma is required
}

// lexer reads pattern text token by token. AWS validates patterns with a streaming JSON parser
// and reports the first problem in document order, whether it is a syntax error or a pattern
// rule, so the compiler pulls tokens one at a time and both kinds of error surface in the same
// order as on AWS. Syntax errors carry the parser's own wording (see syntaxError and friends).
type lexer struct {
	src    string
	pos    int
	scopes []scope

	kind      tokenKind
	tokPos    int    // byte offset where the current token starts
	text      string // field name, or number text
	pending   bool   // current token is a string whose body has not been read yet
	value     tokenKind
	valueText string // number text of that value
	hasNext   bool   // after a field name: the value token, already recognised, comes next
}

func newLexer(src string) *lexer {
	return &lexer{src: src, scopes: []scope{{kind: 'r', start: -1}}}
}

func (l *lexer) top() *scope { return &l.scopes[len(l.scopes)-1] }

// next advances to the next token. At the end of the top-level value it returns tokEOF; text
// after the end of the top-level value is never read, as on AWS.
func (l *lexer) next() (tokenKind, error) {
	if l.pending {
		// The previous string was never read: skip it, reporting what is wrong inside it.
		if _, err := l.stringText(); err != nil {
			return tokEOF, err
		}
	}
	if l.hasNext {
		l.hasNext = false
		l.text = l.valueText
		return l.begin(l.value), nil
	}
	c, err := l.skipSpace()
	if err != nil {
		return tokEOF, err
	}
	if c < 0 {
		if l.top().kind != 'r' {
			return tokEOF, l.eofError()
		}
		l.kind = tokEOF
		return tokEOF, nil
	}
	l.tokPos = l.pos
	if c == ']' || c == '}' {
		return l.closeScope(byte(c))
	}
	s := l.top()
	if s.entries > 0 && s.kind != 'r' {
		if c != ',' {
			return tokEOF, unexpectedChar(c, "was expecting comma to separate "+scopeName(s.kind)+" entries")
		}
		l.pos++
		if c, err = l.skipSpace(); err != nil {
			return tokEOF, err
		}
		if c < 0 {
			return tokEOF, syntaxError("Unexpected end-of-input within/between " + scopeName(s.kind) + " entries")
		}
		l.tokPos = l.pos
	}
	s.entries++
	if s.kind == 'o' {
		return l.fieldName(c)
	}
	kind, err := l.valueToken(c)
	if err != nil {
		return tokEOF, err
	}
	return l.begin(kind), nil
}

// begin makes kind, which starts at tokPos, the current token.
func (l *lexer) begin(kind tokenKind) tokenKind {
	l.kind = kind
	switch kind {
	case tokStartObject:
		l.scopes = append(l.scopes, scope{kind: 'o', start: l.tokPos})
	case tokStartArray:
		l.scopes = append(l.scopes, scope{kind: 'a', start: l.tokPos})
	case tokString:
		l.pending = true
	}
	return kind
}

// fieldName reads `"name" :` and recognises (but does not yet return) the value after it.
func (l *lexer) fieldName(c int) (tokenKind, error) {
	if c != '"' {
		return tokEOF, unexpectedChar(c, "was expecting double-quote to start field name")
	}
	name, end, err := l.readString(l.pos+1, "name")
	if err != nil {
		return tokEOF, err
	}
	l.pos = end
	c, err = l.skipSpace()
	if err != nil {
		return tokEOF, err
	}
	if c < 0 {
		return tokEOF, syntaxError("Unexpected end-of-input within/between Object entries")
	}
	if c != ':' {
		return tokEOF, unexpectedChar(c, "was expecting a colon to separate field name and value")
	}
	l.pos++
	if c, err = l.skipSpace(); err != nil {
		return tokEOF, err
	}
	if c < 0 {
		return tokEOF, syntaxError("Unexpected end-of-input within/between Object entries")
	}
	valuePos := l.pos
	var value tokenKind
	if c == '}' {
		return tokEOF, unexpectedChar(c, "expected a value")
	}
	if value, err = l.valueToken(c); err != nil {
		return tokEOF, err
	}
	l.valueText = l.text
	l.kind, l.text, l.value, l.hasNext = tokFieldName, name, value, true
	l.tokPos = valuePos
	return tokFieldName, nil
}

// valueToken recognises the value starting at c. Strings are only located; their body is read
// by stringText when the compiler asks for it (or skipped by next), as the AWS parser does.
func (l *lexer) valueToken(c int) (tokenKind, error) {
	switch {
	case c == '"':
		l.pos++
		return tokString, nil
	case c == '{':
		l.pos++
		return tokStartObject, nil
	case c == '[':
		l.pos++
		return tokStartArray, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return l.number()
	case c == 't':
		return tokTrue, l.literal("true")
	case c == 'f':
		return tokFalse, l.literal("false")
	case c == 'n':
		return tokNull, l.literal("null")
	case c == '}':
		return tokEOF, unexpectedChar(c, "expected a value")
	case c == 'N' && strings.HasPrefix(l.src[l.pos:], "NaN"):
		return tokEOF, nonStandardToken("NaN")
	case c == 'I' && strings.HasPrefix(l.src[l.pos:], "Infinity"):
		return tokEOF, nonStandardToken("Infinity")
	case c == '+':
		return tokEOF, syntaxError("Unexpected character ('+' (code 43)) in numeric value: JSON spec does not allow numbers to have plus signs: enable `JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS` to allow")
	case isIdentifierStart(rune(c)):
		return tokEOF, l.invalidToken("")
	}
	return tokEOF, unexpectedChar(c, "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')")
}

// skipSpace moves past JSON white space and returns the next character, or -1 at the end.
func (l *lexer) skipSpace() (int, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '/':
			return 0, unexpectedChar('/', "maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)")
		case c < 0x20:
			return 0, syntaxError("Illegal character (" + charDesc(rune(c)) + "): only regular white space (\\r, \\n, \\t) is allowed between tokens")
		default:
			return l.charAt(l.pos), nil
		}
	}
	return -1, nil
}

// charAt returns the character at byte offset p (a whole rune for non-ASCII text).
func (l *lexer) charAt(p int) int {
	if c := l.src[p]; c < utf8.RuneSelf {
		return int(c)
	}
	r, _ := utf8.DecodeRuneInString(l.src[p:])
	return int(r)
}

func (l *lexer) closeScope(c byte) (tokenKind, error) {
	s := l.top()
	if c == ']' && s.kind != 'a' {
		return tokEOF, l.mismatchedClose(c, '}')
	}
	if c == '}' && s.kind != 'o' {
		return tokEOF, l.mismatchedClose(c, ']')
	}
	l.pos++
	l.scopes = l.scopes[:len(l.scopes)-1]
	if c == ']' {
		l.kind = tokEndArray
	} else {
		l.kind = tokEndObject
	}
	return l.kind, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
