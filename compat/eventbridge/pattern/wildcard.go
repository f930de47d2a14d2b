package pattern

import (
	"bytes"
	"strconv"
)

// wildcardPattern is a compiled wildcard value: literal pieces separated by "*", each "*"
// matching any run of characters, including none.
type wildcardPattern struct {
	text   string   // as written in the pattern, to tell patterns apart
	pieces [][]byte // len(pieces) == number of stars + 1
	tokens []int16  // the whole value, one entry per byte, starToken for "*"
}

const starToken = -1

// parseWildcard compiles a wildcard value with AWS's escape rules: "\*" is a literal star,
// "\\" a literal backslash, any other backslash is an error, and so are two stars in a row.
// Error positions count UTF-8 bytes from 1, because AWS counts them in the value with a quote
// prepended.
func parseWildcard(text string) (wildcardPattern, error) {
	w := wildcardPattern{text: text}
	var piece []byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case '*':
			if i+1 < len(text) && text[i+1] == '*' {
				return w, invalidPattern("Consecutive wildcard characters at pos " + strconv.Itoa(i+1))
			}
			w.pieces = append(w.pieces, piece)
			piece = nil
			w.tokens = append(w.tokens, starToken)
		case '\\':
			if i+1 < len(text) && (text[i+1] == '*' || text[i+1] == '\\') {
				i++
				piece = append(piece, text[i])
				w.tokens = append(w.tokens, int16(text[i]))
				continue
			}
			return w, invalidPattern("Invalid escape character at pos " + strconv.Itoa(i+1))
		default:
			piece = append(piece, c)
			w.tokens = append(w.tokens, int16(c))
		}
	}
	w.pieces = append(w.pieces, piece)
	return w, nil
}

// matches reports whether the whole of v matches. With only "*" to handle, taking the leftmost
// occurrence of each middle piece is always right.
func (w *wildcardPattern) matches(v []byte) bool {
	first, last := w.pieces[0], w.pieces[len(w.pieces)-1]
	if len(w.pieces) == 1 {
		return bytes.Equal(v, first)
	}
	if len(v) < len(first)+len(last) || !bytes.HasPrefix(v, first) || !bytes.HasSuffix(v, last) {
		return false
	}
	rest := v[len(first) : len(v)-len(last)]
	for _, p := range w.pieces[1 : len(w.pieces)-1] {
		i := bytes.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}
