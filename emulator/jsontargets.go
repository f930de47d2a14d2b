package emulator

import (
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/notserved"
)

// jsonTargeted is a face that speaks an AWS JSON protocol: it serves POST /
// whose X-Amz-Target begins with prefix ("AmazonSQS."), with h. An empty
// prefix serves nothing (SQS with --sqs-endpoint).
type jsonTargeted interface {
	JSONTarget() (prefix string, h http.Handler)
}

// jsonTargets routes AWS JSON-protocol requests, the ones a busy test sends
// most, by their X-Amz-Target alone, before the router (whose path
// patterns, Event Grid's ARM paths, are many regular expressions, and which
// copies each request twice to carry its route and variables, none of which
// these requests have). It takes exactly the requests the faces' own
// X-Amz-Target routes match, and hands them to the same handlers, so in
// the binary those routes are simply not reached. A request signed for a
// service GridBridge does not emulate is left to the router, which answers
// it in that service's shape.
type jsonTargets struct {
	prefixes []string
	handlers []http.Handler
}

func newJSONTargets(faces []face) *jsonTargets {
	t := &jsonTargets{}
	for _, f := range faces {
		if j, ok := f.(jsonTargeted); ok {
			if prefix, h := j.JSONTarget(); prefix != "" {
				t.prefixes = append(t.prefixes, prefix)
				t.handlers = append(t.handlers, h)
			}
		}
	}
	return t
}

// find returns the handler of r's X-Amz-Target, nil when none serves it.
func (t *jsonTargets) find(r *http.Request) http.Handler {
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		return nil
	}
	target := r.Header.Get("X-Amz-Target")
	if target == "" {
		return nil
	}
	for i, p := range t.prefixes {
		if strings.HasPrefix(target, p) {
			return t.handlers[i]
		}
	}
	return nil
}

// handler is the face that takes r, nil to leave r to the router.
func (t *jsonTargets) handler(r *http.Request) http.Handler {
	h := t.find(r)
	if h == nil || notserved.ForAnotherAWSService(r, nil) {
		return nil
	}
	return h
}
