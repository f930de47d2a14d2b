package pattern

// anythingBut reads the value of "anything-but" (the operator name has been read): a string or
// number, a list of strings or of numbers, or one nested operator (equals-ignore-case, prefix,
// suffix, wildcard) with a string or a list of strings. Nesting goes no deeper: AWS rejects
// {"anything-but": {"prefix": {"equals-ignore-case": "x"}}}.
func (c *compiler) anythingBut() (valueMatcher, error) {
	tok, err := c.lx.next()
	if err != nil {
		return nil, err
	}
	nested := ""
	if tok == tokStartObject {
		if tok, err = c.lx.next(); err != nil {
			return nil, err
		}
		if tok != tokFieldName {
			return nil, invalidPattern("Anything-But expression name not found")
		}
		switch nested = c.lx.text; nested {
		case "equals-ignore-case", "prefix", "suffix", "wildcard":
		default:
			return nil, invalidPattern("Unsupported anything-but pattern: " + nested)
		}
		if tok, err = c.lx.next(); err != nil {
			return nil, err
		}
	}
	if tok != tokStartArray && tok != tokString && !tok.isNumber() {
		return nil, invalidPattern("Value of anything-but must be an array or single string/number value.")
	}
	var m valueMatcher
	switch {
	case nested == "" && tok == tokStartArray:
		m, err = c.anythingButList()
	case nested == "":
		m, err = c.anythingButValue(tok)
	default:
		var values []string
		if values, err = c.anythingButOperands(tok, nested); err == nil {
			m, err = newAnythingButOperator(nested, values)
		}
	}
	if err != nil {
		return nil, err
	}
	// AWS words an extra member here as it does for numeric.
	if err := c.expectEnd(tokEndObject, "Too many elements in numeric expression"); err != nil {
		return nil, err
	}
	if nested != "" {
		if err := c.expectEnd(tokEndObject, "Too many elements in numeric expression"); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// anythingButValue compiles {"anything-but": "x"} or {"anything-but": 5}.
func (c *compiler) anythingButValue(tok tokenKind) (valueMatcher, error) {
	m := &anythingBut{}
	if tok == tokString {
		s, err := c.lx.stringText()
		if err != nil {
			return nil, err
		}
		m.strings = map[string]struct{}{s: {}}
		return m, nil
	}
	f, err := comparableBound(c.lx.text)
	if err != nil {
		return nil, err
	}
	m.numeric = true
	m.numbers = map[uint64]struct{}{floatKey(f): {}}
	return m, nil
}

// anythingButList compiles {"anything-but": [...]}: all strings or all numbers.
func (c *compiler) anythingButList() (valueMatcher, error) {
	m := &anythingBut{strings: map[string]struct{}{}, numbers: map[uint64]struct{}{}}
	hasString, hasNumber := false, false
	for {
		tok, err := c.lx.next()
		if err != nil {
			return nil, err
		}
		if tok == tokEndArray {
			break
		}
		switch {
		case tok == tokString:
			s, err := c.lx.stringText()
			if err != nil {
				return nil, err
			}
			m.strings[s] = struct{}{}
			hasString = true
		case tok.isNumber():
			f, err := comparableBound(c.lx.text)
			if err != nil {
				return nil, err
			}
			m.numbers[floatKey(f)] = struct{}{}
			hasNumber = true
		default:
			return nil, invalidPattern("Inside anything but list, start|null|boolean is not supported.")
		}
	}
	if hasString == hasNumber {
		return nil, invalidPattern("Inside anything but list, either all values are number or string, mixed type is not supported")
	}
	m.numeric = hasNumber
	return m, nil
}

// anythingButOperands reads the string or list of strings of a nested operator.
func (c *compiler) anythingButOperands(tok tokenKind, op string) ([]string, error) {
	var values []string
	read := func(tok tokenKind) error {
		if tok != tokString {
			switch op {
			case "equals-ignore-case":
				return invalidPattern("Inside anything-but/equals-ignore-case list, number|start|null|boolean is not supported.")
			case "wildcard":
				return invalidPattern("wildcard match pattern must be a string")
			}
			return invalidPattern("prefix/suffix match pattern must be a string")
		}
		s, err := c.lx.stringText()
		if err != nil {
			return err
		}
		if s == "" && (op == "prefix" || op == "suffix") {
			return invalidPattern("Null prefix/suffix not allowed")
		}
		for _, v := range values {
			if v == s {
				return nil
			}
		}
		values = append(values, s)
		return nil
	}
	if tok != tokStartArray {
		return values, read(tok)
	}
	for {
		tok, err := c.lx.next()
		if err != nil {
			return nil, err
		}
		if tok == tokEndArray {
			return values, nil
		}
		if err := read(tok); err != nil {
			return nil, err
		}
	}
}

func newAnythingButOperator(op string, values []string) (valueMatcher, error) {
	switch op {
	case "prefix":
		return anythingButPrefix{prefixes: values}, nil
	case "suffix":
		return anythingButSuffix{suffixes: values}, nil
	case "equals-ignore-case":
		m := &anythingButIgnoreCase{}
		for _, v := range values {
			m.values = append(m.values, newFoldPattern(v))
		}
		return m, nil
	}
	m := &anythingButWildcard{}
	for _, v := range values {
		w, err := parseWildcard(v)
		if err != nil {
			return nil, err
		}
		m.values = append(m.values, w)
	}
	return m, nil
}
