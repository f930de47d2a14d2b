package eventsv2

import (
	"encoding/base64"
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventbridge/awsjson"
)

const (
	defaultPageSize = 100
	maxPageSize     = 100
)

// page cuts one page out of names: those with prefix, in name order, after
// the name the token carries. The token is the last name returned, so a page
// never repeats a token and a concurrent create or delete shifts nothing.
func page(names []string, prefix, token *string, maxResults *int32) (selected []string, next string, err error) {
	var v awsjson.Violations
	checkLength(&v, token, "nextToken", 1, 2048)
	checkRange(&v, maxResults, "maxResults", 1, maxPageSize)
	if err := v.Err(); err != nil {
		return nil, "", err
	}
	after := ""
	if token != nil {
		raw, decodeErr := base64.RawURLEncoding.DecodeString(*token)
		if decodeErr != nil || len(raw) == 0 {
			return nil, "", awsjson.Validation("The NextToken %q is not valid: pass the NextToken of the previous page unchanged.", *token)
		}
		after = string(raw)
	}
	size := defaultPageSize
	if maxResults != nil {
		size = int(*maxResults)
	}
	sort.Strings(names)
	for _, n := range names {
		if prefix != nil && !strings.HasPrefix(n, *prefix) || after != "" && n <= after {
			continue
		}
		if len(selected) == size {
			return selected, base64.RawURLEncoding.EncodeToString([]byte(selected[len(selected)-1])), nil
		}
		selected = append(selected, n)
	}
	return selected, "", nil
}

// listPage is the body of ListEventBuses and ListSubscribers: of the
// resources in byName that keep accepts (nil keeps all), the page that
// page cuts, each described.
func listPage[R, O any](byName map[string]R, keep func(R) bool, in pageInput, describe func(R) O) ([]O, string, error) {
	var names []string
	for n, r := range byName {
		if keep == nil || keep(r) {
			names = append(names, n)
		}
	}
	selected, next, err := page(names, in.NamePrefix, in.NextToken, in.MaxResults)
	if err != nil {
		return nil, "", err
	}
	out := make([]O, 0, len(selected))
	for _, n := range selected {
		out = append(out, describe(byName[n]))
	}
	return out, next, nil
}
