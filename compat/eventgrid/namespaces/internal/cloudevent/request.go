package cloudevent

import (
	"mime"
	"net/http"
	"strings"
)

// Media types of the structured and batched content modes.
const (
	MediaTypeStructured = "application/cloudevents+json"
	MediaTypeBatch      = "application/cloudevents-batch+json"
)

// ParseRequest reads the events of one publish request, choosing the content
// mode from Content-Type with its parameters stripped (SDKs add
// "; charset=utf-8", curl users do not).
func ParseRequest(h http.Header, body []byte) ([]*Event, error) {
	contentType := h.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(contentType))
	}
	switch {
	case mt == MediaTypeStructured:
		ev, err := ParseStructured(body)
		if err != nil {
			return nil, err
		}
		return []*Event{ev}, nil
	case mt == MediaTypeBatch:
		return ParseBatch(body)
	case IsBinaryMode(h):
		ev, err := ParseBinary(h, body)
		if err != nil {
			return nil, err
		}
		return []*Event{ev}, nil
	case mt == "application/json":
		return ParseAny(body)
	case contentType == "":
		return nil, invalid("The Content-Type header is required: %s for one event, %s for a batch, or ce-* headers for binary mode.", MediaTypeStructured, MediaTypeBatch)
	default:
		return nil, invalid("The content type %q is not supported: use %s for one event, %s for a batch, or ce-* headers for binary mode.", contentType, MediaTypeStructured, MediaTypeBatch)
	}
}
