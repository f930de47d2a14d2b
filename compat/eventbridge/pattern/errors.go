package pattern

import "strings"

// InvalidPatternError reports a pattern that EventBridge would reject with
// InvalidEventPatternException. Message is the first line of the text AWS returns:
// "Event pattern is not valid. Reason: <reason>". AWS follows it with the JSON parser's
// location on further lines ("\n at [Source: ...]"), which GridBridge does not reproduce;
// clients and tests compare the first line. A reason that quotes a multi-line pattern is cut
// at the pattern's first line break, as the first line of AWS's message is.
type InvalidPatternError struct {
	Message string
}

func (e *InvalidPatternError) Error() string { return e.Message }

// Reason is the part of Message after "Event pattern is not valid. Reason: ".
func (e *InvalidPatternError) Reason() string { return e.Message[len(invalidPatternPrefix):] }

const invalidPatternPrefix = "Event pattern is not valid. Reason: "

func invalidPattern(reason string) *InvalidPatternError {
	reason, _, _ = strings.Cut(reason, "\n")
	return &InvalidPatternError{Message: invalidPatternPrefix + reason}
}
