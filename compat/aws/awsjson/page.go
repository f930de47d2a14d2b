package awsjson

import "sort"

// Page cuts the page of a List call out of names: at most size of them, in
// name order, after the name after ("" starts at the first). Tokens name
// the last entry returned rather than a position, so a page never repeats
// even when entries come and go between calls, and the AWS CLI's auto-paging
// never sees the same token twice; more says whether names follow the page.
// names is sorted in place.
func Page(names []string, after string, size int) (page []string, more bool) {
	sort.Strings(names)
	start := 0
	if after != "" {
		start = sort.SearchStrings(names, after)
		if start < len(names) && names[start] == after {
			start++
		}
	}
	end := min(start+size, len(names))
	return names[start:end], end < len(names)
}

// ListPage is the body of a List operation: the resources of byName that
// keep accepts (nil keeps all), cut to one page by cut (which also checks
// the paging members and makes the next token), each turned into its list
// item.
func ListPage[R, I, T any](byName map[string]R, keep func(R) bool, cut func(names []string) ([]string, T, error), item func(R) I) ([]I, T, error) {
	names := make([]string, 0, len(byName))
	for name, r := range byName {
		if keep == nil || keep(r) {
			names = append(names, name)
		}
	}
	page, next, err := cut(names)
	if err != nil {
		return nil, next, err
	}
	items := make([]I, 0, len(page))
	for _, name := range page {
		items = append(items, item(byName[name]))
	}
	return items, next, nil
}
