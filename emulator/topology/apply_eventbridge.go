package topology

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
)

// X-Amz-Target prefixes of classic EventBridge and of event buses v2.
const (
	targetClassic = "AWSEvents."
	targetV2      = "AWSEventsV2."
)

// awsCredential is the Authorization header of every EventBridge request.
// GridBridge never verifies signatures; it takes the account from a
// twelve-digit access key id and the region from the credential scope, the
// way an AWS SDK configured for it sends them, so resources land in the
// file's account and region.
func awsCredential(eb *EventBridge) string {
	return "AWS4-HMAC-SHA256 Credential=" + eb.Account + "/20260101/" + eb.Region + "/events/aws4_request, " +
		"SignedHeaders=content-type;host;x-amz-target, Signature=" + strings.Repeat("0", 64)
}

// call sends one AWS JSON 1.1 request and returns the answer's body.
func (a *applier) call(eb *EventBridge, src Source, what, operation string, input any) ([]byte, error) {
	header := http.Header{
		"Content-Type":  {"application/x-amz-json-1.1"},
		"X-Amz-Target":  {operation},
		"Authorization": {awsCredential(eb)},
	}
	ans, err := a.send(http.MethodPost, "/", header, mustJSON(input))
	if err != nil {
		return nil, err
	}
	if !ans.ok() {
		return nil, a.refused(src, what, strings.TrimPrefix(strings.TrimPrefix(operation, targetV2), targetClassic), ans)
	}
	return ans.body, nil
}

type createEventBusInput struct {
	Name        string `json:"Name"`
	Description string `json:"Description,omitempty"`
}

type putRuleInput struct {
	Name               string `json:"Name"`
	EventBusName       string `json:"EventBusName"`
	EventPattern       string `json:"EventPattern,omitempty"`
	ScheduleExpression string `json:"ScheduleExpression,omitempty"`
	State              string `json:"State,omitempty"`
	Description        string `json:"Description,omitempty"`
	RoleArn            string `json:"RoleArn,omitempty"`
}

type putTargetsInput struct {
	Rule         string                       `json:"Rule"`
	EventBusName string                       `json:"EventBusName"`
	Targets      []map[string]json.RawMessage `json:"Targets"`
}

type putTargetsOutput struct {
	FailedEntryCount int `json:"FailedEntryCount"`
	FailedEntries    []struct {
		TargetID     string `json:"TargetId"`
		ErrorCode    string `json:"ErrorCode"`
		ErrorMessage string `json:"ErrorMessage"`
	} `json:"FailedEntries"`
}

func (a *applier) bus(eb *EventBridge, b Bus) error {
	what := "bus " + quote(b.Name)
	if b.Name != defaultBus {
		if _, err := a.call(eb, b.Source, what, targetClassic+"CreateEventBus", createEventBusInput{Name: b.Name, Description: b.Description}); err != nil {
			return err
		}
	}
	for _, r := range b.Rules {
		if err := a.rule(eb, b, r); err != nil {
			return err
		}
	}
	return nil
}

func (a *applier) rule(eb *EventBridge, b Bus, r Rule) error {
	what := "rule " + quote(r.Name) + " on bus " + quote(b.Name)
	in := putRuleInput{Name: r.Name, EventBusName: b.Name, EventPattern: r.EventPattern, ScheduleExpression: r.ScheduleExpression,
		State: r.State, Description: r.Description, RoleArn: r.RoleArn}
	if _, err := a.call(eb, r.Source, what, targetClassic+"PutRule", in); err != nil {
		return err
	}
	if len(r.Targets) == 0 {
		return nil
	}
	targets := make([]map[string]json.RawMessage, len(r.Targets))
	for i, t := range r.Targets {
		targets[i] = t.Members
	}
	body, err := a.call(eb, r.Source, "targets of "+what, targetClassic+"PutTargets", putTargetsInput{Rule: r.Name, EventBusName: b.Name, Targets: targets})
	if err != nil {
		return err
	}
	// PutTargets answers 200 even when it refuses a target.
	var out putTargetsOutput
	_ = json.Unmarshal(body, &out)
	if out.FailedEntryCount == 0 || len(out.FailedEntries) == 0 {
		return nil
	}
	failed := out.FailedEntries[0]
	src := r.Source
	for _, t := range r.Targets {
		if t.ID == failed.TargetID {
			src = t.Source
		}
	}
	return &APIError{File: a.file, Line: src.Line, Field: src.Field, Resource: "target " + quote(failed.TargetID) + " of " + what,
		Operation: "PutTargets", Status: http.StatusOK, Code: failed.ErrorCode,
		Message: failed.ErrorMessage + fmt.Sprintf(" (%d of %d targets refused)", out.FailedEntryCount, len(r.Targets))}
}

type createV2BusInput struct {
	Name                     string `json:"Name"`
	Description              string `json:"Description,omitempty"`
	RetentionPeriodInSeconds int64  `json:"RetentionPeriodInSeconds,omitempty"`
}

func (a *applier) v2Bus(eb *EventBridge, b V2Bus) error {
	what := "v2 bus " + quote(b.Name)
	body, err := a.call(eb, b.Source, what, targetV2+"CreateEventBus",
		createV2BusInput{Name: b.Name, Description: b.Description, RetentionPeriodInSeconds: b.RetentionPeriodInSeconds})
	if err != nil {
		return err
	}
	var out struct {
		EventBusArn string `json:"EventBusArn"`
	}
	_ = json.Unmarshal(body, &out)
	busRef := out.EventBusArn
	if busRef == "" {
		busRef = b.Name // the API takes a bus's name where it takes its ARN
	}
	for _, s := range b.Subscribers {
		in := maps.Clone(s.Members)
		in["EventBusArn"] = mustJSON(busRef)
		if _, err := a.call(eb, s.Source, "subscriber "+quote(s.Name)+" of "+what, targetV2+"CreateSubscriber", in); err != nil {
			return err
		}
	}
	return nil
}
