package awsjson

import (
	"net/http"
	"strings"
)

// DefaultAccount is the account of a caller whose access key id is not
// twelve digits; DefaultRegion the region of one whose signature names none.
const (
	DefaultAccount = "000000000000"
	DefaultRegion  = "us-east-1"
)

// Caller is who sent a request, as far as GridBridge cares: the account that
// owns the resources it touches and the region they live in.
type Caller struct {
	Account string
	Region  string
}

// CallerOf reads the caller from the request's signature, which GridBridge
// never verifies. A twelve-digit access key id is taken as the account (the
// convention local AWS emulators share), so tests can act as several
// accounts. The region comes from the SigV4 credential scope
// (AKID/date/region/service/aws4_request); a SigV4a scope has no region
// (AKID/date/service/aws4_request), so X-Amz-Region-Set is used instead when
// it names a single region.
func CallerOf(r *http.Request) Caller {
	c := Caller{Account: DefaultAccount, Region: DefaultRegion}
	scope := credentialScope(r)
	var fields [6]string // a scope has 5 at most; a sixth says "more"
	parts := splitScope(scope, fields[:])
	if len(parts) > 0 && IsAccountID(parts[0]) {
		c.Account = parts[0]
	}
	switch {
	case len(parts) == 5 && parts[2] != "":
		c.Region = parts[2]
	case len(parts) == 4:
		if set := strings.TrimSpace(r.Header.Get("X-Amz-Region-Set")); set != "" && set != "*" && !strings.ContainsAny(set, ",*") {
			c.Region = set
		}
	}
	return c
}

// SigningService is the AWS service a request is signed for: the service
// of its SigV4 (AKID/date/region/service/aws4_request) or SigV4a
// (AKID/date/service/aws4_request) credential scope, or "" when it carries
// no signature.
func SigningService(r *http.Request) string {
	// Read from the end, without splitting: every AWS request asks.
	rest, ok := strings.CutSuffix(credentialScope(r), "/aws4_request")
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 || strings.Count(rest[:i], "/") < 1 {
		return ""
	}
	return rest[i+1:]
}

// credentialScope returns the Credential value of the Authorization header,
// or of the X-Amz-Credential query parameter of a presigned request.
func credentialScope(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if i := strings.Index(auth, "Credential="); i >= 0 {
		v := auth[i+len("Credential="):]
		if j := strings.IndexAny(v, ", "); j >= 0 {
			v = v[:j]
		}
		return v
	}
	return r.URL.Query().Get("X-Amz-Credential")
}

// IsAccountID reports whether s is an AWS account id: twelve digits.
func IsAccountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// splitScope splits a credential scope at "/" into fields, as strings.Split
// would up to len(fields) fields (the last one keeping the rest), without
// allocating.
func splitScope(scope string, fields []string) []string {
	n := 0
	for n < len(fields)-1 {
		f, rest, ok := strings.Cut(scope, "/")
		if !ok {
			break
		}
		fields[n], scope = f, rest
		n++
	}
	fields[n] = scope
	return fields[:n+1]
}
