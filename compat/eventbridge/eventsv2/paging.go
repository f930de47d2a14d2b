package eventsv2

import (
	"encoding/base64"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

const (
	defaultPageSize = 100
	maxPageSize     = 100
)

// page cuts one page out of names: those with prefix, in name order, after
// the name the token carries (awsjson.Page).
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
	if prefix != nil {
		kept := names[:0]
		for _, n := range names {
			if strings.HasPrefix(n, *prefix) {
				kept = append(kept, n)
			}
		}
		names = kept
	}
	selected, more := awsjson.Page(names, after, size)
	if more {
		next = base64.RawURLEncoding.EncodeToString([]byte(selected[len(selected)-1]))
	}
	return selected, next, nil
}

// listPage is the body of ListEventBuses and ListSubscribers: of the
// resources in byName that keep accepts (nil keeps all), the page that
// page cuts, each described.
func listPage[R, O any](byName map[string]R, keep func(R) bool, in pageInput, describe func(R) O) ([]O, string, error) {
	return awsjson.ListPage(byName, keep, func(names []string) ([]string, string, error) {
		return page(names, in.NamePrefix, in.NextToken, in.MaxResults)
	}, describe)
}
