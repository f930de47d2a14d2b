package sqs

import (
	"net/http"
	"strings"
)

// signed reports whether r carries an AWS signature, as every SQS request
// must: an Authorization header of a signing scheme (AWS4-HMAC-SHA256 and
// the others the SDKs use), or a presigned URL's signature in the query.
// GridBridge does not check the signature itself (any credentials will do),
// so this is no authentication; it is what keeps a web page from driving
// the SQS API. The query protocol is served over GET, and a page can send a
// GET to any address with an <img> or a form, but no page can add an
// Authorization header to a request for another origin without a CORS
// preflight, which GridBridge never grants. A presigned URL a page could
// forge, so a query signature is taken only from a client that is not a
// browser page of another site: browsers mark such requests with
// Sec-Fetch-Site, SDKs and the CLI send no Sec-Fetch-Site at all.
func signed(r *http.Request) bool {
	if scheme, _, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " "); strings.HasPrefix(scheme, "AWS") {
		return true // AWS4-HMAC-SHA256, AWS4-ECDSA-P256-SHA256, AWS (SigV2 header)
	}
	q := r.URL.Query()
	if q.Get("X-Amz-Signature") == "" && q.Get("Signature") == "" {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		// Not a browser, the emulator's own page, or one the user typed.
		return true
	}
	return false
}

// errMissingAuthentication is AWS's answer to a request with no signature.
func errMissingAuthentication() *apiError {
	e := newError("MissingAuthenticationToken", "MissingAuthenticationToken",
		"The request must contain either a valid (registered) AWS access key ID or X.509 certificate. "+
			"GridBridge takes any credentials but needs the request signed, as the AWS SDKs and the CLI sign it "+
			"(a protection against web pages driving the SQS API).")
	e.Status = http.StatusForbidden
	return e
}
