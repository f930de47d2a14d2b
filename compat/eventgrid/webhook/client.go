package webhook

import (
	"io"
	"net/http"
)

// NoRedirects returns a copy of c (http.DefaultClient when nil) that does
// not follow redirects: Event Grid treats every status but 200–204 as a
// failure (EG-4), a 3xx included.
func NoRedirects(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cp := *c
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

// maxResponseBody bounds what is read of a webhook's answer.
const maxResponseBody = 64 << 10

// readLimited reads at most maxResponseBody bytes of an answer's body and
// drains nothing more, so a huge answer cannot hold the attempt. An empty
// body is read to its end without a buffer (its connection is kept only
// once it is).
func readLimited(resp *http.Response) []byte {
	if resp.ContentLength == 0 {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	return b
}
