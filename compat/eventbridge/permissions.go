package eventbridge

import (
	"encoding/json"
	"regexp"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// policyStatement is one statement of a bus's resource policy, built by
// PutPermission. GridBridge stores the policy for DescribeEventBus and
// enforces it for other accounts' PutEvents (policy_eval.go).
type policyStatement struct {
	Sid       string          `json:"Sid"`
	Effect    string          `json:"Effect"`
	Principal json.RawMessage `json:"Principal"`
	Action    string          `json:"Action"`
	Resource  string          `json:"Resource"`
	Condition json.RawMessage `json:"Condition,omitempty"`
}

var principalPattern = regexp.MustCompile(`^(\d{12}|\*)$`)

// policyDocument renders the bus policy as the JSON string DescribeEventBus
// returns, or nil when the bus has no permissions.
func (b *bus) policyDocument() *string {
	if b.rawPolicy != nil {
		return b.rawPolicy
	}
	if len(b.policy) == 0 {
		return nil
	}
	doc, _ := json.Marshal(struct {
		Version   string            `json:"Version"`
		Statement []policyStatement `json:"Statement"`
	}{"2012-10-17", b.policy})
	return ptr(string(doc))
}

func checkPutPermission(in *putPermissionInput, v *awsjson.Violations) {
	checkBusRef(v, in.EventBusName, "eventBusName")
	if in.Policy == nil {
		if in.Principal != nil && !principalPattern.MatchString(*in.Principal) {
			v.Add(in.Principal, "principal", awsjson.Pattern(`(\d{12}|\*)`))
		}
		checkLength(v, in.StatementId, "statementId", 1, 64)
	}
}

func (s *Service) putPermission(_ *call, in *putPermissionInput, b *bus) (any, error) {
	if in.Policy != nil {
		if !json.Valid([]byte(*in.Policy)) {
			return nil, awsjson.Validation("Parameter Policy is not valid.")
		}
		b.rawPolicy, b.policy = in.Policy, nil
		return nil, nil
	}
	if in.Action == nil || in.Principal == nil || in.StatementId == nil {
		return nil, awsjson.Validation("Parameter(s) Action, Principal and StatementId must be specified.")
	}
	if *in.Action != "events:PutEvents" {
		return nil, awsjson.Validation("Provided value in parameter 'action' is not supported.")
	}
	principal := json.RawMessage(`"*"`)
	if *in.Principal != "*" {
		principal, _ = json.Marshal(map[string]string{"AWS": "arn:aws:iam::" + *in.Principal + ":root"})
	}
	st := policyStatement{Sid: *in.StatementId, Effect: "Allow", Principal: principal, Action: *in.Action, Resource: b.arn}
	if in.Condition != nil {
		st.Condition, _ = json.Marshal(map[string]map[string]string{
			deref(in.Condition.Type): {deref(in.Condition.Key): deref(in.Condition.Value)},
		})
	}
	b.rawPolicy = nil
	for i, old := range b.policy {
		if old.Sid == st.Sid {
			b.policy[i] = st
			return nil, nil
		}
	}
	b.policy = append(b.policy, st)
	return nil, nil
}

func (s *Service) removePermission(_ *call, in *removePermissionInput, b *bus) (any, error) {
	if in.RemoveAllPermissions {
		b.policy, b.rawPolicy = nil, nil
		return nil, nil
	}
	for i, st := range b.policy {
		if st.Sid == deref(in.StatementId) {
			b.policy = append(b.policy[:i], b.policy[i+1:]...)
			return nil, nil
		}
	}
	return nil, awsjson.NotFound("Statement with the provided id does not exist.")
}
