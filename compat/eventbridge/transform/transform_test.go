package transform

import (
	"errors"
	"testing"
	"time"
)

// envelope is the event of the AWS-recorded input transformer tests.
const envelope = `{"version":"0","id":"e1","detail-type":"core.update-account-command","source":"core.update-account-command","account":"111111111111","time":"2024-05-13T12:27:07Z","region":"us-east-1","resources":[],"detail":{"command":"update-account","payload":{"acc_id":"0a787ecb-4015","sf_id":"baz"},"userId":"0a787ecb-4015","level":["HIGH"],"states":["ACTIVE","INACTIVE"],"ok":true,"n":300.0,"quote":"a\"b"}}`

func render(t *testing.T, s Spec) (string, error) {
	t.Helper()
	out, err := s.Render(Event{
		Envelope: []byte(envelope), RuleArn: "arn:aws:events:us-east-1:111111111111:rule/bus1/r1", RuleName: "r1",
		IngestionTime: time.Date(2024, 5, 13, 12, 27, 7, 123e6, time.UTC),
	})
	return string(out), err
}

func ptr(s string) *string { return &s }

func TestInputAndInputPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"whole event", Spec{}, envelope},
		{"constant", Spec{Input: ptr(`{"x": 1}`)}, `{"x": 1}`},
		{"detail", Spec{InputPath: ptr("$.detail.payload")}, `{"acc_id":"0a787ecb-4015","sf_id":"baz"}`},
		// A string result keeps its JSON quotes [AWS-validated].
		{"leaf string", Spec{InputPath: ptr("$.detail.payload.sf_id")}, `"baz"`},
		{"number text kept", Spec{InputPath: ptr("$.detail.n")}, `300.0`},
		{"dash key", Spec{InputPath: ptr("$.detail-type")}, `"core.update-account-command"`},
		{"root", Spec{InputPath: ptr("$")}, envelope},
		{"index", Spec{InputPath: ptr("$.detail.states[1]")}, `"INACTIVE"`},
		{"bracket name", Spec{InputPath: ptr("$['detail']['command']")}, `"update-account"`},
	}
	for _, c := range cases {
		got, err := render(t, c.spec)
		if err != nil || got != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	if _, err := render(t, Spec{InputPath: ptr("$.detail.nothing")}); !errors.Is(err, ErrNoValue) {
		t.Errorf("missing path: err = %v, want ErrNoValue", err)
	}
}

func TestInputTransformerQuoting(t *testing.T) {
	t.Parallel()
	paths := map[string]string{
		"detail-type": "$.detail-type", "timestamp": "$.time", "command": "$.detail.command",
		"missing": "$.detail.notinmessage", "userId": "$.detail.userId", "payload": "$.detail.payload",
		"level": "$.detail.level", "states": "$.detail.states", "ok": "$.detail.ok", "n": "$.detail.n",
		"quote": "$.detail.quote",
	}
	cases := []struct {
		name, template, want string
	}{
		// String templates [AWS-validated]: the quotes are part of the body.
		{"string template", `"Event of <detail-type> type, at time <timestamp>, info extracted from detail <command>"`,
			`"Event of core.update-account-command type, at time 2024-05-13T12:27:07Z, info extracted from detail update-account"`},
		{"string template, missing value", `"info extracted from detail <missing>"`, `"info extracted from detail "`},
		{"special starting characters", `"{[/Check with special starting characters for event of <detail-type> type"`,
			`"{[/Check with special starting characters for event of core.update-account-command type"`},
		{"string template object", `"payload <payload>"`, `"payload {acc_id:0a787ecb-4015,sf_id:baz}"`},
		{"string template lists", `"level <level> states <states> ok <ok>"`, `"level [HIGH] states [ACTIVE,INACTIVE] ok true"`},
		{"escaped quotes", `"instance \"<userId>\" is in <command>"`, `"instance \"0a787ecb-4015\" is in update-account"`},
		{"several lines", "\"a <command>\"\n\"b <userId>\"", "\"a update-account\"\n\"b 0a787ecb-4015\""},
		{"plain text", `user <userId> ran <command>`, `user 0a787ecb-4015 ran update-account`},
		// JSON templates.
		{"unquoted string is quoted", `{"id": <userId>}`, `{"id": "0a787ecb-4015"}`},
		{"quoted string is bare", `{"path": "users-service/users/<userId>"}`, `{"path": "users-service/users/0a787ecb-4015"}`},
		{"repeated", `{"p": "users/<userId>/second/<userId>"}`, `{"p": "users/0a787ecb-4015/second/0a787ecb-4015"}`},
		{"object, list, bool, number", `{"o": <payload>, "l": <level>, "b": <ok>, "n": <n>}`,
			`{"o": {"acc_id":"0a787ecb-4015","sf_id":"baz"}, "l": ["HIGH"], "b": true, "n": 300.0}`},
		{"missing unquoted", `{"detailType": <detail-type>, "command": <missing>}`, `{"detailType": "core.update-account-command", "command": ""}`},
		{"missing quoted", `{"command": "<missing>"}`, `{"command": ""}`},
		{"array template", `[9, <command>, true]`, `[9, "update-account", true]`},
		{"predefined in string", `"<aws.events.rule-name> triggered on <aws.events.rule-arn> at <aws.events.event.ingestion-time>"`,
			`"r1 triggered on arn:aws:events:us-east-1:111111111111:rule/bus1/r1 at 2024-05-13T12:27:07.123Z"`},
		{"predefined in JSON", `{"rule": <aws.events.rule-name>, "event": <aws.events.event>}`,
			`{"rule": "r1", "event": {"id":"e1","account":"111111111111","detailType":"core.update-account-command","time":"2024-05-13T12:27:07Z","source":"core.update-account-command","region":"us-east-1","resources":[],"version":"0"}}`},
		{"whole event json", `{"e": <aws.events.event.json>}`, `{"e": ` + envelope + `}`},
		{"unknown angle text kept", `{"html": "<b>x</b> <command>"}`, `{"html": "<b>x</b> update-account"}`},
	}
	for _, c := range cases {
		got, err := render(t, Spec{Transformer: &Transformer{PathsMap: paths, Template: c.template}})
		if err != nil || got != c.want {
			t.Errorf("%s:\n got  %s (%v)\n want %s", c.name, got, err, c.want)
		}
	}
	// Substitutions that break the JSON deliver nothing [AWS-validated].
	for _, tpl := range []string{`{"payload": "<payload>"}`, `{"l": "<level>"}`, `{"q": "<quote>"}`} {
		if got, err := render(t, Spec{Transformer: &Transformer{PathsMap: paths, Template: tpl}}); !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("%s: got %s, %v; want ErrInvalidJSON", tpl, got, err)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	both := Spec{Input: ptr("{}"), InputPath: ptr("$.detail")}
	if err := Validate(both, "t1"); err == nil || err.Error() != "Only one of Input, InputPath, or InputTransformer must be provided for target t1." {
		t.Errorf("two inputs: %v", err)
	}
	bad := Spec{Transformer: &Transformer{PathsMap: map[string]string{"a": "$.a"}, Template: `{"a": <a>, "b": <notdefinedkey>}`}}
	if err := Validate(bad, "t1"); err == nil || err.Error() != "InputTemplate for target t1 contains invalid placeholder notdefinedkey." {
		t.Errorf("undefined placeholder: %v", err)
	}
	good := Spec{Transformer: &Transformer{Template: `"<aws.events.rule-name> <aws.events.event.ingestion-time>"`}}
	if err := Validate(good, "t1"); err != nil {
		t.Errorf("predefined placeholders: %v", err)
	}
}
