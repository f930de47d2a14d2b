package filter

import (
	"bytes"
	"math"
	"strconv"
	"unicode/utf8"
)

// The service writes its JSON with a .NET serializer. These helpers reproduce
// the two details a client can see: doubles always carry a decimal point
// ("values":[2.0,3.5]) and HTML characters are not escaped. (json.Marshal
// escapes them again unless the caller's Encoder has SetEscapeHTML(false);
// either form decodes the same.)

// appendDouble writes f the way the service writes a double: the shortest
// round-trip digits, scientific notation when the decimal exponent is below
// -4 or above 14 (.NET's rule for doubles), and ".0" added
// when the text would otherwise read as an integer.
func appendDouble(b []byte, f float64) []byte {
	start := len(b)
	if abs := math.Abs(f); abs != 0 && (abs < 1e-4 || abs >= 1e15) {
		b = strconv.AppendFloat(b, f, 'E', -1, 64)
	} else {
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	if !bytes.ContainsAny(b[start:], ".E") {
		b = append(b, '.', '0')
	}
	return b
}

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does, so the output is always valid JSON.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func appendStrings(b []byte, ss []string) []byte { return appendArray(b, ss, appendString) }

func appendDoubles(b []byte, fs []float64) []byte { return appendArray(b, fs, appendDouble) }

// appendArray writes xs as a JSON array, each element with appendOne.
func appendArray[T any](b []byte, xs []T, appendOne func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, x)
	}
	return append(b, ']')
}
