package pattern

import (
	"strconv"
	"strings"
)

// The messages below are those of the JSON parser behind AWS's pattern validation, word for
// word (including its quirks), because AWS returns them as the InvalidEventPatternException
// reason for malformed pattern text.

func (l *lexer) mismatchedClose(actual, expected byte) error {
	s := l.top()
	return syntaxError("Unexpected close marker '" + string(actual) + "': expected '" + string(expected) +
		"' (for " + scopeDesc(s.kind) + " starting at " + l.location(s.start) + ")")
}

func (l *lexer) eofError() error {
	s := l.top()
	return syntaxError("Unexpected end-of-input: expected close marker for " + scopeName(s.kind) +
		" (start marker at " + l.location(s.start) + ")")
}

// location renders a source position the way the AWS parser embeds it in some messages:
// [Source: (String)"<pattern>"; line: L, column: C]. Columns count UTF-16 units from 1; the
// root scope is at column 0. Only the first 500 characters of the pattern are shown.
func (l *lexer) location(offset int) string {
	line, col := 1, 0
	if offset >= 0 {
		lineStart := 0
		for i := 0; i < offset; i++ {
			switch l.src[i] {
			case '\n':
				line++
				lineStart = i + 1
			case '\r':
				if i+1 < offset && l.src[i+1] == '\n' {
					continue
				}
				line++
				lineStart = i + 1
			}
		}
		col = utf16Len(l.src[lineStart:offset]) + 1
	}
	content := l.src
	truncated := 0
	if n := utf16Len(content); n > 500 {
		content = utf16Prefix(content, 500)
		truncated = n - 500
	}
	var b strings.Builder
	b.WriteString(`[Source: (String)"`)
	b.WriteString(content)
	b.WriteByte('"')
	if truncated > 0 {
		b.WriteString("[truncated " + strconv.Itoa(truncated) + " chars]")
	}
	b.WriteString("; line: " + strconv.Itoa(line) + ", column: " + strconv.Itoa(col) + "]")
	return b.String()
}

func scopeName(kind byte) string {
	if kind == 'a' {
		return "Array"
	}
	return "Object"
}

func scopeDesc(kind byte) string {
	switch kind {
	case 'a':
		return "Array"
	case 'o':
		return "Object"
	}
	return "root"
}

func syntaxError(reason string) error { return invalidPattern(reason) }

func unexpectedChar(c int, msg string) error {
	return syntaxError("Unexpected character (" + charDesc(rune(c)) + "): " + msg)
}

func numberError(c int, msg string) error {
	return syntaxError("Unexpected character (" + charDesc(rune(c)) + ") in numeric value: " + msg)
}

func nonStandardToken(tok string) error {
	return syntaxError("Non-standard token '" + tok + "': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow")
}

// charDesc describes a character as the AWS parser does in its messages.
func charDesc(r rune) string {
	if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
		return "(CTRL-CHAR, code " + strconv.Itoa(int(r)) + ")"
	}
	if r > 255 {
		return "'" + string(r) + "' (code " + strconv.Itoa(int(r)) + " / 0x" + strconv.FormatInt(int64(r), 16) + ")"
	}
	return "'" + string(r) + "' (code " + strconv.Itoa(int(r)) + ")"
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func utf16Prefix(s string, units int) string {
	n := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > units {
			return s[:i]
		}
		n += w
	}
	return s
}
