package scheduler_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Bad input gets a 4xx in Scheduler's shape, never a 5xx or a panic.
func TestGarbageGetsClientErrors(t *testing.T) {
	h := startTest(t)
	bodies := []string{``, `null`, `[]`, `{`, `{"Target":"x"}`, `{"ScheduleExpression":5}`, `{"StartDate":"tomorrow"}`,
		`{"FlexibleTimeWindow":{"Mode":"FLEXIBLE","MaximumWindowInMinutes":-1},"ScheduleExpression":"rate(1 minute)","Target":{"Arn":"arn:aws:sqs:us-east-1:123456789012:q","RoleArn":"` + role + `"}}`,
		`{"Tags":[{"Key":null}]}`, `{"Tags":"x"}`}
	paths := []struct{ method, path string }{
		{http.MethodPost, "/schedules/x"}, {http.MethodPut, "/schedules/x"}, {http.MethodGet, "/schedules/x?groupName=" + strings.Repeat("g", 65)},
		{http.MethodDelete, "/schedules/x"}, {http.MethodGet, "/schedules?MaxResults=0"}, {http.MethodGet, "/schedules?NextToken=%%%"},
		{http.MethodGet, "/schedules?State=SOMETIMES"}, {http.MethodPost, "/schedule-groups/" + strings.Repeat("n", 65)},
		{http.MethodDelete, "/schedule-groups/default"}, {http.MethodPost, "/tags/not-an-arn"},
		{http.MethodDelete, "/tags/arn:aws:scheduler:us-east-1:123456789012:schedule-group%2Fdefault"},
	}
	for _, p := range paths {
		for _, body := range bodies {
			req, _ := http.NewRequest(p.method, h.Server.URL+p.path, strings.NewReader(body))
			resp, err := h.Server.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode < 400 && p.method != http.MethodGet || resp.StatusCode >= 500 {
				t.Errorf("%s %s %q: HTTP %d", p.method, p.path, body, resp.StatusCode)
			}
			if resp.StatusCode >= 400 && resp.Header.Get("X-Amzn-ErrorType") == "" {
				t.Errorf("%s %s %q: HTTP %d without X-Amzn-ErrorType", p.method, p.path, body, resp.StatusCode)
			}
		}
	}
}

// A member of the wrong JSON type is named in the error, in the API's words:
// encoding/json's own text ("cannot unmarshal number 1e300 into Go struct
// field scheduleInput.StartDate of type awsjson.Timestamp") names the
// emulator's Go types instead.
func TestWrongMemberTypesNameTheMember(t *testing.T) {
	h := startTest(t)
	cases := []struct{ body, member string }{
		{`{"ScheduleExpression":5}`, "ScheduleExpression"},
		{`{"StartDate":1e300}`, "StartDate"},
		{`{"StartDate":"tomorrow"}`, "StartDate"},
		{`{"Target":{"RetryPolicy":{"MaximumRetryAttempts":"many"}}}`, "Target.RetryPolicy.MaximumRetryAttempts"},
		{`{"FlexibleTimeWindow":[]}`, "FlexibleTimeWindow"},
	}
	for _, c := range cases {
		resp, err := h.Server.Client().Post(h.Server.URL+"/schedules/x", "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		msg := string(b)
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("X-Amzn-ErrorType") != "ValidationException" {
			t.Errorf("%s: HTTP %d %s %s, want 400 ValidationException", c.body, resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"), msg)
		}
		for _, goWord := range []string{"Go ", "struct", "scheduleInput", "awsjson", "unmarshal"} {
			if strings.Contains(msg, goWord) {
				t.Errorf("%s: message %s shows the emulator's Go types (%q)", c.body, msg, goWord)
			}
		}
		if !strings.Contains(msg, c.member) {
			t.Errorf("%s: message %s does not name %s", c.body, msg, c.member)
		}
	}
}
