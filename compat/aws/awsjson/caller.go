package awsjson

import (
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/frame"
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
	scope := frame.CredentialScope(r)
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
