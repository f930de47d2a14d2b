package awsmodel

import "strings"

// Exemption is a constraint of a model that the service itself does not
// enforce as the model writes it: the operation, the input member at the
// top of the violation's path, and the kind of constraint.
type Exemption struct {
	Op, Member string
	Kind       Kind
}

// Exemptions are a service's exemptions, each with the reason. Checker
// skips them and the generated tests leave them out, naming the reason.
func Exemptions(service string) map[Exemption]string {
	switch service {
	case "SQS":
		return map[Exemption]string{
			{"ReceiveMessage", "AttributeNames", Enum}: "the deprecated AttributeNames takes the message system attribute names (AWSTraceHeader, SentTimestamp…), as SQS's reference lists, though the model types it as queue attribute names",
		}
	}
	return nil
}

// exempt reports whether v, found in op, is exempted.
func (c *Checker) exempt(op string, v Violation) bool {
	if len(c.exemptions) == 0 {
		return false
	}
	top, _, _ := strings.Cut(v.Path, ".")
	top, _, _ = strings.Cut(top, "[")
	for e := range c.exemptions {
		if e.Op == op && e.Kind == v.Kind && strings.EqualFold(e.Member, top) {
			return true
		}
	}
	return false
}
