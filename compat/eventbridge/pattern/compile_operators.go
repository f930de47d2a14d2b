package pattern

import "math"

// matchExpression reads one operator object such as {"prefix": "x"} (after its "{"). It
// returns the matcher, or absent for {"exists": false}. The checks and their messages follow
// AWS one by one, including its odd spots (a non-string cidr is "prefix match pattern must be a
// string"; extra members after numeric or anything-but are "Too many elements in numeric
// expression").
func (c *compiler) matchExpression() (m valueMatcher, absent bool, err error) {
	tok, err := c.lx.next()
	if err != nil {
		return nil, false, err
	}
	if tok != tokFieldName {
		return nil, false, invalidPattern("Match expression name not found")
	}
	switch op := c.lx.text; op {
	case "exactly":
		s, err := c.stringOperand("exact match pattern must be a string")
		if err != nil {
			return nil, false, err
		}
		return exactString{s: s}, false, c.endOfExpression()
	case "prefix":
		return c.affix(foldPrefix, "prefix")
	case "suffix":
		return c.affix(foldSuffix, "suffix")
	case "equals-ignore-case":
		s, err := c.stringOperand("equals-ignore-case match pattern must be a string")
		if err != nil {
			return nil, false, err
		}
		return &ignoreCase{mode: foldEquals, p: newFoldPattern(s)}, false, c.endOfExpression()
	case "wildcard":
		s, err := c.stringOperand("wildcard match pattern must be a string")
		if err != nil {
			return nil, false, err
		}
		w, err := parseWildcard(s)
		if err != nil {
			return nil, false, err
		}
		return &wildcardMatcher{w: w}, false, c.endOfExpression()
	case "cidr":
		s, err := c.stringOperand("prefix match pattern must be a string")
		if err != nil {
			return nil, false, err
		}
		block, err := parseCIDR(s)
		if err != nil {
			return nil, false, err
		}
		return cidrMatcher{block: block}, false, c.endOfExpression()
	case "exists":
		return c.exists()
	case "numeric":
		tok, err := c.lx.next()
		if err != nil {
			return nil, false, err
		}
		if tok != tokStartArray {
			return nil, false, invalidPattern("Value of numeric must be an array.")
		}
		r, err := c.numeric()
		if err != nil {
			return nil, false, err
		}
		return r, false, c.expectEnd(tokEndObject, "Too many elements in numeric expression")
	case "anything-but":
		m, err := c.anythingBut()
		return m, false, err
	default:
		return nil, false, invalidPattern("Unrecognized match type " + op)
	}
}

// stringOperand reads the operator's value, which must be a string.
func (c *compiler) stringOperand(notString string) (string, error) {
	tok, err := c.lx.next()
	if err != nil {
		return "", err
	}
	if tok != tokString {
		return "", invalidPattern(notString)
	}
	return c.lx.stringText()
}

func (c *compiler) endOfExpression() error {
	return c.expectEnd(tokEndObject, "Only one key allowed in match expression")
}

// expectEnd reads the next token and fails with reason unless it is want.
func (c *compiler) expectEnd(want tokenKind, reason string) error {
	tok, err := c.lx.next()
	if err != nil {
		return err
	}
	if tok != want {
		return invalidPattern(reason)
	}
	return nil
}

// affix reads the value of prefix or suffix: a string, or {"equals-ignore-case": "..."}.
func (c *compiler) affix(mode foldMode, op string) (valueMatcher, bool, error) {
	tok, err := c.lx.next()
	if err != nil {
		return nil, false, err
	}
	if tok == tokStartObject {
		m, err := c.affixIgnoreCase(mode, op)
		return m, false, err
	}
	if tok != tokString {
		return nil, false, invalidPattern(op + " match pattern must be a string")
	}
	s, err := c.lx.stringText()
	if err != nil {
		return nil, false, err
	}
	var m valueMatcher = prefixMatcher{s: s}
	if mode == foldSuffix {
		m = suffixMatcher{s: s}
	}
	return m, false, c.endOfExpression()
}

func (c *compiler) affixIgnoreCase(mode foldMode, op string) (valueMatcher, error) {
	title := "Prefix"
	if op == "suffix" {
		title = "Suffix"
	}
	tok, err := c.lx.next()
	if err != nil {
		return nil, err
	}
	if tok != tokFieldName {
		return nil, invalidPattern(title + " expression name not found")
	}
	if c.lx.text != "equals-ignore-case" {
		return nil, invalidPattern("Unsupported " + op + " pattern: " + c.lx.text)
	}
	s, err := c.stringOperand("equals-ignore-case match pattern must be a string")
	if err != nil {
		return nil, err
	}
	if err := c.endOfExpression(); err != nil {
		return nil, err
	}
	if err := c.endOfExpression(); err != nil {
		return nil, err
	}
	return &ignoreCase{mode: mode, p: newFoldPattern(s)}, nil
}

func (c *compiler) exists() (valueMatcher, bool, error) {
	tok, err := c.lx.next()
	if err != nil {
		return nil, false, err
	}
	var absent bool
	switch tok {
	case tokTrue:
	case tokFalse:
		absent = true
	default:
		return nil, false, invalidPattern("exists match pattern must be either true or false.")
	}
	if err := c.endOfExpression(); err != nil {
		return nil, false, err
	}
	if absent {
		return nil, true, nil
	}
	return existsMatcher{}, false, nil
}

// numeric reads the array after "numeric" (after its "["): ["=", v], ["<" or "<=", v],
// [">" or ">=", v], or a range [">" or ">=", low, "<" or "<=", high] with the low end first.
func (c *compiler) numeric() (valueMatcher, error) {
	tok, err := c.lx.next()
	if err != nil {
		return nil, err
	}
	if tok != tokString {
		text, err := c.lx.tokenText()
		if err != nil {
			return nil, err
		}
		return nil, invalidPattern("Invalid member in numeric match: " + text)
	}
	op, err := c.lx.stringText()
	if err != nil {
		return nil, err
	}
	if tok, err = c.lx.next(); err != nil {
		return nil, err
	}
	switch op {
	case "=":
		if !tok.isNumber() {
			return nil, invalidPattern("Value of equals must be numeric")
		}
		v, err := c.soleBound()
		if err != nil {
			return nil, err
		}
		return numericRange{lo: v, hi: v}, nil
	case ">", ">=":
		if !tok.isNumber() {
			return nil, invalidPattern("Value of " + op + " must be numeric")
		}
		low := c.lx.text
		if tok, err = c.lx.next(); err != nil {
			return nil, err
		}
		if tok == tokEndArray {
			v, err := comparableBound(low)
			if err != nil {
				return nil, err
			}
			return numericRange{lo: v, loOpen: op == ">", hi: math.MaxFloat64}, nil
		}
		return c.numericRangeTop(tok, low, op == ">")
	case "<", "<=":
		if !tok.isNumber() {
			return nil, invalidPattern("Value of " + op + " must be numeric")
		}
		v, err := c.soleBound()
		if err != nil {
			return nil, err
		}
		return numericRange{lo: -math.MaxFloat64, hi: v, hiOpen: op == "<"}, nil
	}
	return nil, invalidPattern("Unrecognized numeric range operator: " + op)
}

// soleBound reads the number of a one-sided numeric match (the current
// token), which must end the array.
func (c *compiler) soleBound() (float64, error) {
	text := c.lx.text
	if err := c.expectEnd(tokEndArray, "Too many elements in numeric expression"); err != nil {
		return 0, err
	}
	return comparableBound(text)
}

// numericRangeTop reads the upper half of a two-sided range; tok is the token after the low end.
func (c *compiler) numericRangeTop(tok tokenKind, low string, lowOpen bool) (valueMatcher, error) {
	if tok != tokString {
		text, err := c.lx.tokenText()
		if err != nil {
			return nil, err
		}
		return nil, invalidPattern("Bad value in numeric range: " + text)
	}
	op, err := c.lx.stringText()
	if err != nil {
		return nil, err
	}
	if op != "<" && op != "<=" {
		return nil, invalidPattern("Bad numeric range operator: " + op)
	}
	if tok, err = c.lx.next(); err != nil {
		return nil, err
	}
	if !tok.isNumber() {
		return nil, invalidPattern("Value of " + op + " must be numeric")
	}
	high := c.lx.text
	if err := c.expectEnd(tokEndArray, "Too many terms in numeric range expression"); err != nil {
		return nil, err
	}
	lo, err := comparableBound(low)
	if err != nil {
		return nil, err
	}
	hi, err := comparableBound(high)
	if err != nil {
		return nil, err
	}
	if lo >= hi {
		return nil, invalidPattern("Bottom must be less than top")
	}
	return numericRange{lo: lo, loOpen: lowOpen, hi: hi, hiOpen: op == "<"}, nil
}

// comparableBound is a number a pattern compares against, which must be comparable.
func comparableBound(text string) (float64, error) {
	f, ok := analyzeNumber(text)
	if !ok {
		return 0, invalidPattern("Cannot compare number : " + text)
	}
	return f, nil
}
