package eventbridge

import (
	"encoding/json"
	"path"
	"strings"
)

// A bus's resource policy decides whether another account may put events
// on it. GridBridge evaluates the parts a
// bus policy uses: Effect, Principal (an account, its root ARN, or "*"),
// Action (events:PutEvents, events:*, *) and Resource (with wildcards). An
// explicit Deny wins over an Allow. Conditions (such as aws:PrincipalOrgID)
// cannot be known here, so a statement applies whatever its Condition says.

type policyDoc struct {
	Statement []struct {
		Effect    string          `json:"Effect"`
		Principal json.RawMessage `json:"Principal"`
		Action    json.RawMessage `json:"Action"`
		Resource  json.RawMessage `json:"Resource"`
	} `json:"Statement"`
}

// allowsPutEvents reports whether account may put events on b.
func (b *bus) allowsPutEvents(account string) bool {
	doc := b.policyDocument()
	if doc == nil {
		return false
	}
	var p policyDoc
	if err := json.Unmarshal([]byte(*doc), &p); err != nil {
		// A single statement may stand alone, not in a list.
		var one struct {
			Statement json.RawMessage `json:"Statement"`
		}
		if json.Unmarshal([]byte(*doc), &one) != nil {
			return false
		}
		if json.Unmarshal([]byte(`{"Statement":[`+string(one.Statement)+`]}`), &p) != nil {
			return false
		}
	}
	allowed := false
	for _, st := range p.Statement {
		if !principalMatches(st.Principal, account) ||
			!anyMatches(st.Action, func(a string) bool { return actionMatches(a) }) ||
			(len(st.Resource) > 0 && !anyMatches(st.Resource, func(r string) bool { return wildcardMatch(r, b.arn) })) {
			continue
		}
		switch strings.ToLower(st.Effect) {
		case "deny":
			return false
		case "allow":
			allowed = true
		}
	}
	return allowed
}

func principalMatches(raw json.RawMessage, account string) bool {
	var star string
	if json.Unmarshal(raw, &star) == nil {
		return star == "*"
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	return anyMatches(m["AWS"], func(p string) bool {
		return p == "*" || p == account || p == "arn:aws:iam::"+account+":root"
	})
}

func actionMatches(a string) bool {
	a = strings.ToLower(a)
	return a == "*" || a == "events:*" || a == "events:putevents"
}

// anyMatches applies match to a policy member that is a string or a list.
func anyMatches(raw json.RawMessage, match func(string) bool) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return match(one)
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return false
	}
	for _, s := range many {
		if match(s) {
			return true
		}
	}
	return false
}

// wildcardMatch matches an IAM resource pattern (* and ?) against arn.
func wildcardMatch(pattern, arn string) bool {
	// path.Match treats '/' specially; IAM does not, so compare with the
	// slashes taken out of both sides' way.
	const slash = "\x00"
	ok, err := path.Match(strings.ReplaceAll(escapeBrackets(pattern), "/", slash), strings.ReplaceAll(arn, "/", slash))
	return err == nil && ok
}

func escapeBrackets(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`, `\`, `\\`).Replace(s)
}

// accessDenied is the per-entry answer to a PutEvents entry for another
// account's bus whose policy does not let the caller in.
func accessDenied(caller, busArn string) (code, msg string) {
	return "AccessDeniedException", "User: arn:aws:iam::" + caller + ":root is not authorized to perform: events:PutEvents on resource: " +
		busArn + " because no resource-based policy allows the events:PutEvents action"
}
