package pipes_test

import (
	"net/http"
	"strings"
	"testing"
)

// Bad input gets a 4xx in the Pipes shape, never a 5xx or a panic.
func TestGarbageGetsClientErrors(t *testing.T) {
	h := startTest(t)
	bodies := []string{``, `null`, `[]`, `{`, `{"Source":"x"}`, `{"Source":5}`, `{"Tags":"x"}`, `{"tags":[1]}`,
		`{"SourceParameters":{"SqsQueueParameters":{"BatchSize":"ten"}}}`,
		`{"Source":"` + queueArn + `","Target":"` + lambda + `","RoleArn":"` + role + `","SourceParameters":{"FilterCriteria":{"Filters":[{}]}}}`,
		`{"Source":"` + queueArn + `","Target":"arn:aws:iam::123456789012:role/x","RoleArn":"` + role + `"}`,
		`{"Source":"` + queueArn + `","Target":"` + lambda + `","RoleArn":"` + role + `","LogConfiguration":[]}`}
	paths := []struct{ method, path string }{
		{http.MethodPost, "/v1/pipes/x"}, {http.MethodPut, "/v1/pipes/x"}, {http.MethodGet, "/v1/pipes/" + strings.Repeat("n", 65)},
		{http.MethodDelete, "/v1/pipes/x"}, {http.MethodGet, "/v1/pipes?Limit=0"}, {http.MethodGet, "/v1/pipes?NextToken=%%%"},
		{http.MethodGet, "/v1/pipes?CurrentState=SOMETIMES"}, {http.MethodPost, "/v1/pipes/x/start"}, {http.MethodPost, "/v1/pipes/x/stop"},
		{http.MethodPost, "/tags/arn:aws:pipes:us-east-1:123456789012:pipe%2Fx"}, {http.MethodDelete, "/tags/arn:aws:pipes:nowhere"},
	}
	for _, p := range paths {
		for _, body := range bodies {
			req, _ := http.NewRequest(p.method, h.Server.URL+p.path, strings.NewReader(body))
			resp, err := h.Server.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode < 400 && p.method != http.MethodGet || resp.StatusCode >= 500 {
				t.Errorf("%s %s %q: HTTP %d", p.method, p.path, body, resp.StatusCode)
			}
			if resp.StatusCode >= 400 && resp.Header.Get("X-Amzn-ErrorType") == "" {
				t.Errorf("%s %s %q: HTTP %d without X-Amzn-ErrorType", p.method, p.path, body, resp.StatusCode)
			}
		}
	}
}
