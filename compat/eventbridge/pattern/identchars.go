package pattern

import "unicode"

// AWS's "Unrecognized token 'x'" messages quote the token as far as identifier characters go:
// letters, digits, "_", "$", currency symbols, connectors, combining marks, format characters
// and some control characters.

func isIdentifierStart(r rune) bool {
	return unicode.IsLetter(r) || r == '$' || r == '_' ||
		unicode.In(r, unicode.Sc, unicode.Pc, unicode.Nl)
}

func isIdentifierPart(r rune) bool {
	if isIdentifierStart(r) || unicode.In(r, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Cf) {
		return true
	}
	// Control characters that count as (ignorable) identifier characters.
	return (r >= 0 && r <= 8) || (r >= 0x0e && r <= 0x1b) || (r >= 0x7f && r <= 0x9f)
}
