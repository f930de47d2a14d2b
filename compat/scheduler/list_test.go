package scheduler_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	schedsdk "github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/scheduler/types"
)

// ListSchedules pages in name order from where the last page ended: a
// schedule deleted or made between pages shifts nothing already listed, a
// name made again after deletion is listed once, and filters page too.
func TestListSchedulesPagesFromACursor(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	for _, n := range []string{"e", "c", "a", "d", "b"} {
		h.create(n, schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue)})
	}
	h.create("b2", schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue), State: types.ScheduleStateDisabled})
	page := func(in schedsdk.ListSchedulesInput) ([]string, *string) {
		t.Helper()
		out, err := h.client.ListSchedules(c, &in)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range out.Schedules {
			names = append(names, *s.Name)
		}
		return names, out.NextToken
	}
	first, tok := page(schedsdk.ListSchedulesInput{MaxResults: aws.Int32(2)})
	if !slices.Equal(first, []string{"a", "b"}) || tok == nil {
		t.Fatalf("first page %v, token %v", first, tok)
	}
	// Between pages: delete a listed one and one to come, make one before
	// the cursor, one after it, and delete and remake one to come.
	for _, n := range []string{"a", "d", "e"} {
		if _, err := h.client.DeleteSchedule(c, &schedsdk.DeleteScheduleInput{Name: aws.String(n)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"a0", "cc", "e"} {
		h.create(n, schedsdk.CreateScheduleInput{ScheduleExpression: aws.String("rate(1 hour)"), Target: sqsTarget(queue)})
	}
	var rest []string
	for tok != nil {
		var names []string
		names, tok = page(schedsdk.ListSchedulesInput{MaxResults: aws.Int32(2), NextToken: tok})
		rest = append(rest, names...)
	}
	if strings.Join(rest, ",") != "b2,c,cc,e" {
		t.Fatalf("after the first page: %v, want b2,c,cc,e", rest)
	}

	// A state filter and a prefix page as well, with no empty last page.
	var enabled []string
	for tok, more := (*string)(nil), true; more; more = tok != nil {
		var names []string
		names, tok = page(schedsdk.ListSchedulesInput{MaxResults: aws.Int32(1), NamePrefix: aws.String("b"), NextToken: tok, State: types.ScheduleStateEnabled})
		if len(names) == 0 {
			t.Fatal("an empty page")
		}
		enabled = append(enabled, names...)
	}
	if !slices.Equal(enabled, []string{"b"}) {
		t.Fatalf("enabled b*: %v", enabled)
	}

	for _, bad := range []string{"nope", "b2Zmc2V0OjI", "YWZ0ZXI6ZGVmYXVsdA"} { // not base64 of a cursor; "offset:2"; "after:default"
		_, err := h.client.ListSchedules(c, &schedsdk.ListSchedulesInput{NextToken: aws.String(bad)})
		apiError(t, err, "ValidationException", "The NextToken is not valid.")
	}
}
