package eventbridge

import (
	"encoding/base64"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

const (
	defaultPageSize = 100
	maxPageSize     = 100
)

// pageOf cuts one page out of names (any order) for a List call, checking
// the paging members; the token names the last entry returned
// (awsjson.Page).
func pageOf(names []string, in pageInput) (page []string, next *string, err error) {
	var v awsjson.Violations
	if in.Limit != nil && *in.Limit < 1 {
		v.Add(ptr(itoa(int(*in.Limit))), "limit", awsjson.MinValue(1))
	}
	if in.Limit != nil && *in.Limit > maxPageSize {
		v.Add(ptr(itoa(int(*in.Limit))), "limit", awsjson.MaxValue(maxPageSize))
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	after := ""
	if in.NextToken != nil && *in.NextToken != "" {
		var ok bool
		if after, ok = decodeToken(*in.NextToken); !ok {
			return nil, nil, awsjson.Validation("Parameter NextToken is not valid.")
		}
	}
	size := defaultPageSize
	if in.Limit != nil {
		size = int(*in.Limit)
	}
	page, more := awsjson.Page(names, after, size)
	if more {
		next = ptr(encodeToken(page[len(page)-1]))
	}
	return page, next, nil
}

const tokenPrefix = "gridbridge1:"

func encodeToken(last string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(tokenPrefix + last))
}

func decodeToken(tok string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || !strings.HasPrefix(string(raw), tokenPrefix) {
		return "", false
	}
	return strings.TrimPrefix(string(raw), tokenPrefix), true
}

// withPrefix keeps the names that start with prefix (all when nil).
func withPrefix(names []string, prefix *string) []string {
	if prefix == nil || *prefix == "" {
		return names
	}
	out := names[:0]
	for _, n := range names {
		if strings.HasPrefix(n, *prefix) {
			out = append(out, n)
		}
	}
	return out
}

// listPage is the body of every List operation: the resources of byName that
// keep accepts (nil keeps all) and whose names start with prefix, sorted by
// name, cut to the requested page, each turned into its list item.
func listPage[R, I any](byName map[string]R, keep func(R) bool, prefix *string, in pageInput, item func(R) I) ([]I, *string, error) {
	return awsjson.ListPage(byName, keep, func(names []string) ([]string, *string, error) {
		return pageOf(withPrefix(names, prefix), in)
	}, item)
}
