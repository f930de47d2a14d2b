package filter

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// FilterJSON is properties.filter of an event subscription (the ARM
// EventSubscriptionFilter), as armeventgrid/v2 sends it and as the service
// echoes it on GET.
type FilterJSON struct {
	// IncludedEventTypes lists the event types to deliver; nil means all.
	IncludedEventTypes []string
	// SubjectBeginsWith and SubjectEndsWith are plain prefix and suffix
	// filters on the subject; "" means no filter.
	SubjectBeginsWith string
	SubjectEndsWith   string
	// IsSubjectCaseSensitive makes the subject filters case-sensitive
	// (default false).
	IsSubjectCaseSensitive bool
	// EnableAdvancedFilteringOnArrays lets advanced filters look inside array
	// values; without it an array value never matches.
	EnableAdvancedFilteringOnArrays bool
	// AdvancedFilters are ANDed together.
	AdvancedFilters []AdvancedFilterJSON
}

// filterFields is the wire shape of FilterJSON without the advanced filters,
// which are read one by one so an error can name the filter's position.
type filterFields struct {
	IncludedEventTypes              []string          `json:"includedEventTypes"`
	SubjectBeginsWith               *string           `json:"subjectBeginsWith"`
	SubjectEndsWith                 *string           `json:"subjectEndsWith"`
	IsSubjectCaseSensitive          *bool             `json:"isSubjectCaseSensitive"`
	EnableAdvancedFilteringOnArrays *bool             `json:"enableAdvancedFilteringOnArrays"`
	AdvancedFilters                 []json.RawMessage `json:"advancedFilters"`
}

// UnmarshalJSON reads properties.filter. null fields take their defaults. A
// field of the wrong JSON type is a *ValidationError (HTTP 400), as is a bad
// advanced filter; limits are checked later by Compile.
func (f *FilterJSON) UnmarshalJSON(data []byte) error {
	var w filterFields
	if err := json.Unmarshal(data, &w); err != nil {
		return invalidFilterJSON(err)
	}
	out := FilterJSON{IncludedEventTypes: w.IncludedEventTypes}
	if len(out.IncludedEventTypes) == 0 {
		// An empty list is stored as "all event types", like null
		// (unconfirmed: the service may keep [] distinct).
		out.IncludedEventTypes = nil
	}
	if w.SubjectBeginsWith != nil {
		out.SubjectBeginsWith = *w.SubjectBeginsWith
	}
	if w.SubjectEndsWith != nil {
		out.SubjectEndsWith = *w.SubjectEndsWith
	}
	if w.IsSubjectCaseSensitive != nil {
		out.IsSubjectCaseSensitive = *w.IsSubjectCaseSensitive
	}
	if w.EnableAdvancedFilteringOnArrays != nil {
		out.EnableAdvancedFilteringOnArrays = *w.EnableAdvancedFilteringOnArrays
	}
	if len(w.AdvancedFilters) > 0 {
		out.AdvancedFilters = make([]AdvancedFilterJSON, len(w.AdvancedFilters))
	}
	for i, raw := range w.AdvancedFilters {
		if isAbsent(raw) {
			return invalid(fmt.Sprintf("Advanced filter number %d must not be null.", i+1))
		}
		if err := json.Unmarshal(raw, &out.AdvancedFilters[i]); err != nil {
			return err
		}
	}
	*f = out
	return nil
}

func invalidFilterJSON(err error) *ValidationError {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return invalid("The filter of the event subscription must be a JSON object.")
	}
	field, _, _ := strings.Cut(te.Field, ".")
	want := "an array"
	switch field {
	case "includedEventTypes":
		want = "an array of strings"
	case "subjectBeginsWith", "subjectEndsWith":
		want = "a string"
	case "isSubjectCaseSensitive", "enableAdvancedFilteringOnArrays":
		want = "a boolean"
	}
	return invalid(fmt.Sprintf("The value of filter.%s is not valid: it must be %s.", field, want))
}

// MarshalJSON writes the filter as the service returns it on GET (recorded
// responses of the real service): subjectBeginsWith and subjectEndsWith are
// always present ("" by default); includedEventTypes only when set;
// isSubjectCaseSensitive only when true (a false sent by the CLI is not
// echoed); advancedFilters only when there are some. enableAdvancedFilteringOnArrays
// is treated like isSubjectCaseSensitive (unconfirmed). Fields come in the
// service's order.
func (f FilterJSON) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 128+96*len(f.AdvancedFilters))
	b = append(b, `{"subjectBeginsWith":`...)
	b = appendString(b, f.SubjectBeginsWith)
	b = append(b, `,"subjectEndsWith":`...)
	b = appendString(b, f.SubjectEndsWith)
	if f.IncludedEventTypes != nil {
		b = append(b, `,"includedEventTypes":`...)
		b = appendStrings(b, f.IncludedEventTypes)
	}
	if f.IsSubjectCaseSensitive {
		b = append(b, `,"isSubjectCaseSensitive":true`...)
	}
	if f.EnableAdvancedFilteringOnArrays {
		b = append(b, `,"enableAdvancedFilteringOnArrays":true`...)
	}
	if len(f.AdvancedFilters) > 0 {
		b = append(b, `,"advancedFilters":[`...)
		for i, a := range f.AdvancedFilters {
			if i > 0 {
				b = append(b, ',')
			}
			b = a.appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}
