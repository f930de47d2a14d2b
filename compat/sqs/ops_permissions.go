package sqs

import (
	"bytes"
	"encoding/json"
	"strings"
)

// AddPermission and RemovePermission edit the queue's Policy attribute as
// SQS does: one statement per label (Sid), allowing the accounts' root
// principals the actions on the queue. GridBridge checks no permission, so
// the policy is what GetQueueAttributes shows, nothing more.

// maxPermissionActions is SQS's limit on the actions of one statement.
const maxPermissionActions = 7

// sharedActions are the actions AddPermission may grant; the others (queue
// creation, deletion, attributes, permissions, tags) are the owner's alone.
var sharedActions = map[string]bool{
	"*": true, "SendMessage": true, "ReceiveMessage": true, "DeleteMessage": true,
	"ChangeMessageVisibility": true, "GetQueueAttributes": true, "GetQueueUrl": true,
	"ListDeadLetterSourceQueues": true, "PurgeQueue": true,
}

// ownerActions are SQS actions AddPermission refuses to share.
var ownerActions = map[string]bool{
	"AddPermission": true, "CreateQueue": true, "DeleteQueue": true, "RemovePermission": true,
	"SetQueueAttributes": true, "TagQueue": true, "UntagQueue": true, "ListQueueTags": true,
	"ListQueues": true,
}

type addPermissionInput struct {
	queueURLInput
	Label         *string
	AWSAccountIds []string `q:"AWSAccountId"` //nolint:revive // the wire name
	Actions       []string `q:"ActionName"`
}

type removePermissionInput struct {
	queueURLInput
	Label *string
}

// policyDocument is a queue policy: SQS writes Version, Id and Statement in
// this order. Statements are kept as given, so that a policy set with
// SetQueueAttributes keeps what GridBridge does not read.
type policyDocument struct {
	Version   string            `json:"Version,omitempty"`
	ID        string            `json:"Id,omitempty"`
	Statement []json.RawMessage `json:"Statement"`
}

// permissionStatement is the statement AddPermission writes.
type permissionStatement struct {
	Sid       string `json:"Sid"`
	Effect    string `json:"Effect"`
	Principal struct {
		AWS any `json:"AWS"`
	} `json:"Principal"`
	Action   any    `json:"Action"`
	Resource string `json:"Resource"`
}

func (s *Service) addPermission(_ *call, q *Queue, in *addPermissionInput) (any, error) {
	switch {
	case in.Label == nil:
		return nil, errMissingParameter("Label")
	case len(in.AWSAccountIds) == 0:
		return nil, errMissingParameter("AWSAccountIds")
	case len(in.Actions) == 0:
		return nil, errMissingParameter("Actions")
	}
	label := *in.Label
	if label == "" || len(label) > 80 || !isIDChars(label) {
		return nil, errInvalidParameter("Value %s for parameter Label is invalid. Reason: Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.", label)
	}
	if len(in.Actions) > maxPermissionActions {
		return nil, errOverLimit("%d actions were found in a statement from the submitted policy, max allowed is %d.", len(in.Actions), maxPermissionActions)
	}
	actions := make([]string, len(in.Actions))
	for i, a := range in.Actions {
		switch {
		case ownerActions[a]:
			return nil, errInvalidParameter("Value SQS:%s for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.", a)
		case !sharedActions[a]:
			return nil, errInvalidParameter("Value SQS:%s for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions.", a)
		}
		actions[i] = "SQS:" + a
	}
	principals := make([]string, len(in.AWSAccountIds))
	for i, id := range in.AWSAccountIds {
		if !isAccountID(id) {
			return nil, errInvalidParameter("Value [%s] for parameter PrincipalId is invalid. Reason: Unable to verify principal.", id)
		}
		principals[i] = "arn:aws:iam::" + id + ":root"
	}
	st := permissionStatement{Sid: label, Effect: "Allow", Action: oneOrMany(actions), Resource: q.arn}
	st.Principal.AWS = oneOrMany(principals)

	q.mu.Lock()
	defer q.mu.Unlock()
	doc, err := q.policyLocked()
	if err != nil {
		return nil, err
	}
	if doc.find(label) >= 0 {
		return nil, errInvalidParameter("Value %s for parameter Label is invalid. Reason: Already exists.", label)
	}
	raw, _ := json.Marshal(st)
	doc.Statement = append(doc.Statement, raw)
	q.setPolicyLocked(doc)
	return nil, nil
}

func (s *Service) removePermission(_ *call, q *Queue, in *removePermissionInput) (any, error) {
	if in.Label == nil {
		return nil, errMissingParameter("Label")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	doc, err := q.policyLocked()
	if err != nil {
		return nil, err
	}
	i := doc.find(*in.Label)
	if i < 0 {
		return nil, errInvalidParameter("Value %s for parameter Label is invalid. Reason: can't find label.", *in.Label)
	}
	doc.Statement = append(doc.Statement[:i], doc.Statement[i+1:]...)
	q.setPolicyLocked(doc)
	return nil, nil
}

// policyLocked parses the queue's Policy attribute; a queue without one has
// the empty policy SQS starts from.
func (q *Queue) policyLocked() (policyDocument, error) {
	doc := policyDocument{Version: "2008-10-17", ID: q.arn + "/SQSDefaultPolicy"}
	raw := q.cfg.raw["Policy"]
	if raw == "" {
		return doc, nil
	}
	// A policy's Statement may be one statement or a list of them.
	var given struct {
		Version   string          `json:"Version"`
		ID        string          `json:"Id"`
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal([]byte(raw), &given); err != nil {
		return doc, errInvalidAttributeValue("The queue's Policy attribute is not a JSON policy document, so no permission can be added to it or removed from it: %v.", err)
	}
	doc.Version, doc.ID, doc.Statement = given.Version, given.ID, nil
	switch st := bytes.TrimSpace(given.Statement); {
	case len(st) == 0 || string(st) == "null":
	case st[0] == '{':
		doc.Statement = []json.RawMessage{st}
	default:
		if err := json.Unmarshal(st, &doc.Statement); err != nil {
			return doc, errInvalidAttributeValue("The Statement of the queue's Policy attribute is neither a statement nor a list of them: %v.", err)
		}
	}
	return doc, nil
}

// setPolicyLocked stores doc as the Policy attribute, or removes the
// attribute when no statement is left, as SQS does.
func (q *Queue) setPolicyLocked(doc policyDocument) {
	if len(doc.Statement) == 0 {
		delete(q.cfg.raw, "Policy")
	} else {
		b, _ := json.Marshal(doc)
		q.cfg.raw["Policy"] = string(b)
	}
	q.modified = q.store.clock.Now()
}

// find returns the index of the statement whose Sid is label, or -1.
func (d policyDocument) find(label string) int {
	for i, raw := range d.Statement {
		var st struct{ Sid string }
		if json.Unmarshal(raw, &st) == nil && st.Sid == label {
			return i
		}
	}
	return -1
}

// oneOrMany is a policy value as SQS writes it: a lone string, or a list.
func oneOrMany(values []string) any {
	if len(values) == 1 {
		return values[0]
	}
	return values
}

func isAccountID(s string) bool {
	return len(s) == 12 && strings.Trim(s, "0123456789") == ""
}
