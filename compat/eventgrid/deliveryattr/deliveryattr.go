// Package deliveryattr holds what Event Grid topics' webhook destinations
// and namespaces' push subscriptions share about delivery attribute
// mappings (custom headers): how a dynamic attribute's value becomes a
// header value.
package deliveryattr

import "strconv"

// HeaderValue is the header value of a dynamic attribute whose source field
// holds v, decoded from JSON: only string, number and boolean values are
// sent (Azure's delivery-properties docs); ok is false for anything else
// (the header is then left out).
func HeaderValue(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}
