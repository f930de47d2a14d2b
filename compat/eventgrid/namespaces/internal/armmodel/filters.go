package armmodel

import (
	"encoding/json"
	"errors"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
)

// FiltersConfiguration is filtersConfiguration: included event types and
// filters keyed by operatorType, the same operators and operand shapes as
// the basic tier's advanced filters, so the shared filter package reads,
// checks and evaluates them.
type FiltersConfiguration struct {
	IncludedEventTypes []string
	Filters            []filter.AdvancedFilterJSON
}

// UnmarshalJSON reads the configuration; a bad filter is a 400.
func (f *FiltersConfiguration) UnmarshalJSON(data []byte) error {
	var raw struct {
		IncludedEventTypes []string                    `json:"includedEventTypes"`
		Filters            []filter.AdvancedFilterJSON `json:"filters"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return filterError(err)
	}
	f.IncludedEventTypes, f.Filters = raw.IncludedEventTypes, raw.Filters
	return nil
}

// MarshalJSON echoes the configuration: includedEventTypes as sent (null
// when absent), filters always an array, operatorType spelled canonically
// (the Go SDK picks the filter type by it, case-sensitively).
func (f FiltersConfiguration) MarshalJSON() ([]byte, error) {
	filters := f.Filters
	if filters == nil {
		filters = []filter.AdvancedFilterJSON{}
	}
	return json.Marshal(struct {
		IncludedEventTypes []string                    `json:"includedEventTypes"`
		Filters            []filter.AdvancedFilterJSON `json:"filters"`
	}{f.IncludedEventTypes, filters})
}

// compile checks the configuration against the filter limits and prepares
// it for matching. Namespace filters have no enableAdvancedFilteringOnArrays
// switch; they are taken to look inside arrays (UNCONFIRMED).
func (f *FiltersConfiguration) compile() (*filter.Filter, *arm.Error) {
	if f == nil {
		return nil, nil
	}
	compiled, err := filter.Compile(filter.FilterJSON{
		IncludedEventTypes:              f.IncludedEventTypes,
		EnableAdvancedFilteringOnArrays: true,
		AdvancedFilters:                 f.Filters,
	})
	if err != nil {
		return nil, filterError(err)
	}
	return compiled, nil
}

func filterError(err error) *arm.Error {
	var ve *filter.ValidationError
	if errors.As(err, &ve) {
		return &arm.Error{Status: 400, Code: ve.Code, Message: ve.Message}
	}
	return &arm.Error{Status: 400, Code: arm.CodeInvalidRequestContent,
		Message: "The request content was invalid: filtersConfiguration must be an object with includedEventTypes and filters."}
}
