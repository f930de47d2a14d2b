package facetest

import (
	"io"
	"net/http"
	"testing"
)

// Response is an answer to a hand-made request, read in full.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Send sends req through client and reads the whole answer.
func Send(client *http.Client, req *http.Request) (Response, error) {
	resp, err := client.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, err
}

// Do is Send that fails the test when the request cannot be sent: for
// bad-input tests, which assert on the answer, not on the transport.
func Do(t testing.TB, client *http.Client, req *http.Request) Response {
	t.Helper()
	resp, err := Send(client, req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	return resp
}
