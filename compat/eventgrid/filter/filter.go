package filter

import "strings"

// Filter is a compiled, immutable event-subscription filter. It is safe for
// concurrent use.
type Filter struct {
	eventTypes    []string // nil: every event type
	subjectPrefix string
	subjectSuffix string
	caseSensitive bool
	arrays        bool
	conditions    []condition
}

// Match reports whether the subscription takes e: its event type is included,
// its subject has the prefix and suffix, and every advanced filter holds
// (filters AND together; the values of one filter OR together, and the NOT
// operators require that none of the values hit) [filtering doc, "OR and
// AND"]. A nil Filter takes every event, like a subscription without one.
func (f *Filter) Match(e Event) bool {
	if f == nil {
		return true
	}
	if f.eventTypes != nil && !f.matchEventType(e.EventType()) {
		return false
	}
	if (f.subjectPrefix != "" || f.subjectSuffix != "") && !f.matchSubject(e.Subject()) {
		return false
	}
	for i := range f.conditions {
		if !f.conditions[i].match(e, f.arrays) {
			return false
		}
	}
	return true
}

// matchEventType compares case-insensitively: event types are not
// case-sensitive identifiers in Azure's docs, so GridBridge compares them
// so (UNCONFIRMED).
func (f *Filter) matchEventType(t string) bool {
	for _, want := range f.eventTypes {
		if strings.EqualFold(t, want) {
			return true
		}
	}
	return false
}

// matchSubject applies subjectBeginsWith and subjectEndsWith: plain prefix and
// suffix, no wildcards, case-insensitive unless isSubjectCaseSensitive.
func (f *Filter) matchSubject(s string) bool {
	if f.caseSensitive {
		return strings.HasPrefix(s, f.subjectPrefix) && strings.HasSuffix(s, f.subjectSuffix)
	}
	return hasPrefixFold(s, f.subjectPrefix) && hasSuffixFold(s, f.subjectSuffix)
}
