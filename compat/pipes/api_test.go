package pipes_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

const (
	queueArn = "arn:aws:sqs:us-east-1:123456789012:src"
	lambda   = "arn:aws:lambda:us-east-1:123456789012:function:handle"
)

func TestCreateDescribeListDelete(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	out := h.create(pipessdk.CreatePipeInput{
		Name: aws.String("p1"), Source: aws.String(queueArn), Target: aws.String(lambda),
		Description: aws.String("orders to the handler"), Tags: map[string]string{"team": "shop"},
		TargetParameters: &types.PipeTargetParameters{InputTemplate: aws.String(`{"id": <$.messageId>}`)},
	})
	if aws.ToString(out.Arn) != "arn:aws:pipes:us-east-1:123456789012:pipe/p1" || !out.CreationTime.Equal(facetest.AWSStart) {
		t.Fatalf("CreatePipe answered %+v", out)
	}
	d := h.describe("p1")
	if d.CurrentState != types.PipeStateRunning || d.DesiredState != types.RequestedPipeStateDescribeResponseRunning ||
		aws.ToString(d.Description) != "orders to the handler" || d.Tags["team"] != "shop" || aws.ToString(d.RoleArn) != role {
		t.Fatalf("DescribePipe = %+v", d)
	}
	// AWS's defaults for an SQS source.
	if q := d.SourceParameters.SqsQueueParameters; q == nil || aws.ToInt32(q.BatchSize) != 10 || aws.ToInt32(q.MaximumBatchingWindowInSeconds) != 0 {
		t.Fatalf("SqsQueueParameters = %+v", d.SourceParameters)
	}
	if aws.ToString(d.TargetParameters.InputTemplate) != `{"id": <$.messageId>}` {
		t.Fatalf("TargetParameters = %+v", d.TargetParameters)
	}

	_, err := h.client.CreatePipe(c, &pipessdk.CreatePipeInput{Name: aws.String("p1"), Source: aws.String(queueArn), Target: aws.String(lambda), RoleArn: aws.String(role)})
	var conflict *types.ConflictException
	if !errors.As(err, &conflict) || aws.ToString(conflict.ResourceId) != "p1" || aws.ToString(conflict.ResourceType) != "pipe" {
		t.Fatalf("a second CreatePipe of p1: %v", err)
	}

	for _, n := range []string{"p2", "q1", "p3"} {
		h.create(pipessdk.CreatePipeInput{Name: aws.String(n), Source: aws.String(queueArn), Target: aws.String(lambda), DesiredState: types.RequestedPipeStateStopped})
	}
	names := func(in pipessdk.ListPipesInput) []string {
		var out []string
		pager := pipessdk.NewListPipesPaginator(h.client, &in)
		for pager.HasMorePages() {
			page, err := pager.NextPage(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range page.Pipes {
				out = append(out, aws.ToString(p.Name))
			}
		}
		return out
	}
	if got := strings.Join(names(pipessdk.ListPipesInput{Limit: aws.Int32(1)}), ","); got != "p1,p2,p3,q1" {
		t.Fatalf("ListPipes paged one by one: %s", got)
	}
	if got := strings.Join(names(pipessdk.ListPipesInput{NamePrefix: aws.String("p"), CurrentState: types.PipeStateStopped}), ","); got != "p2,p3" {
		t.Fatalf("ListPipes p*, STOPPED: %s", got)
	}
	if got := names(pipessdk.ListPipesInput{SourcePrefix: aws.String("arn:aws:sqs:eu-")}); len(got) != 0 {
		t.Fatalf("ListPipes by another source prefix: %v", got)
	}
	if got := names(pipessdk.ListPipesInput{TargetPrefix: aws.String("arn:aws:lambda:"), DesiredState: types.RequestedPipeStateRunning}); strings.Join(got, ",") != "p1" {
		t.Fatalf("ListPipes by target prefix, RUNNING: %v", got)
	}

	del, err := h.client.DeletePipe(c, &pipessdk.DeletePipeInput{Name: aws.String("p1")})
	if err != nil || del.CurrentState != types.PipeStateDeleting || del.DesiredState != types.RequestedPipeStateDescribeResponseDeleted {
		t.Fatalf("DeletePipe = %+v, %v", del, err)
	}
	_, err = h.client.DescribePipe(c, &pipessdk.DescribePipeInput{Name: aws.String("p1")})
	var nf *types.NotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("DescribePipe of a deleted pipe: %v", err)
	}
}

func TestValidationFollowsTheModel(t *testing.T) {
	h := startTest(t)
	base := func() pipessdk.CreatePipeInput {
		return pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(queueArn), Target: aws.String(lambda), RoleArn: aws.String(role)}
	}
	cases := []struct {
		name string
		edit func(in *pipessdk.CreatePipeInput)
		want string
	}{
		{"batch size 0", func(in *pipessdk.CreatePipeInput) { in.SourceParameters = sqsSource(0, 0) },
			"1 validation error detected: Value '0' at 'sourceParameters.sqsQueueParameters.batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"batch size and window too large", func(in *pipessdk.CreatePipeInput) { in.SourceParameters = sqsSource(10001, 301) },
			"2 validation errors detected: Value '10001' at 'sourceParameters.sqsQueueParameters.batchSize' failed to satisfy constraint: Member must have value less than or equal to 10000; " +
				"Value '301' at 'sourceParameters.sqsQueueParameters.maximumBatchingWindowInSeconds' failed to satisfy constraint: Member must have value less than or equal to 300"},
		{"role", func(in *pipessdk.CreatePipeInput) { in.RoleArn = aws.String("role") },
			`1 validation error detected: Value 'role' at 'roleArn' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role/?[a-zA-Z0-9+=,.@\-_/]+`},
		{"six filters", func(in *pipessdk.CreatePipeInput) {
			in.SourceParameters = &types.PipeSourceParameters{FilterCriteria: &types.FilterCriteria{Filters: make([]types.Filter, 6)}}
		}, "1 validation error detected: Value null at 'sourceParameters.filterCriteria.filters' failed to satisfy constraint: Member must have length between 0 and 5"},
		{"bad pattern", func(in *pipessdk.CreatePipeInput) {
			in.SourceParameters = &types.PipeSourceParameters{FilterCriteria: &types.FilterCriteria{Filters: []types.Filter{{Pattern: aws.String(`{"body":"x"}`)}}}}
		}, `Invalid filter pattern definition in FilterCriteria.Filters[0]: Event pattern is not valid. Reason: "body" must be an object or an array`},
		{"fifo target without group", func(in *pipessdk.CreatePipeInput) {
			in.Target = aws.String("arn:aws:sqs:us-east-1:123456789012:out.fifo")
		},
			"TargetParameters.SqsQueueParameters.MessageGroupId is required for the FIFO queue arn:aws:sqs:us-east-1:123456789012:out.fifo."},
		{"batch larger than the target takes", func(in *pipessdk.CreatePipeInput) {
			in.Target, in.SourceParameters = aws.String("arn:aws:sqs:us-east-1:123456789012:out"), sqsSource(11, 1)
		}, "The batch size of the source (11) is larger than the target arn:aws:sqs:us-east-1:123456789012:out takes in one invocation (10)."},
		{"bus of another account", func(in *pipessdk.CreatePipeInput) {
			in.Target = aws.String("arn:aws:events:us-east-1:210987654321:event-bus/x")
		},
			"The event bus arn:aws:events:us-east-1:210987654321:event-bus/x must be in the pipe's account (123456789012) and Region (us-east-1)."},
		{"enrichment of a queue", func(in *pipessdk.CreatePipeInput) { in.Enrichment = aws.String(queueArn) },
			"Enrichment " + queueArn + " is not a resource EventBridge Pipes can enrich with: use an API destination, an API Gateway REST API, a Lambda function or a Step Functions state machine."},
		{"source parameters of another source", func(in *pipessdk.CreatePipeInput) {
			in.SourceParameters = &types.PipeSourceParameters{KinesisStreamParameters: &types.PipeSourceKinesisStreamParameters{StartingPosition: types.KinesisStreamStartPositionLatest}}
		}, "SourceParameters.KinesisStreamParameters cannot be used with a Amazon SQS queue source."},
	}
	for _, tc := range cases {
		in := base()
		tc.edit(&in)
		_, err := h.client.CreatePipe(ctx(t), &in)
		if err == nil {
			t.Errorf("%s: created", tc.name)
			continue
		}
		var ve *types.ValidationException
		if !errors.As(err, &ve) || ve.ErrorMessage() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// The first case's fieldList names the member.
	in := base()
	in.SourceParameters = sqsSource(0, 0)
	_, err := h.client.CreatePipe(ctx(t), &in)
	var ve *types.ValidationException
	if !errors.As(err, &ve) || len(ve.FieldList) != 1 || aws.ToString(ve.FieldList[0].Name) != "sourceParameters.sqsQueueParameters.batchSize" {
		t.Fatalf("fieldList of %v", err)
	}
}

// Raw requests the SDK would refuse before sending: the server names what
// is missing, in REST-JSON's error shape.
func TestMissingMembersAndBadBodies(t *testing.T) {
	h := startTest(t)
	post := func(path, body string) (int, string, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, h.Server.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp := facetest.Do(t, h.Server.Client(), req)
		var out map[string]any
		_ = json.Unmarshal(resp.Body, &out)
		return resp.Status, resp.Header.Get("X-Amzn-ErrorType"), out
	}
	status, code, body := post("/v1/pipes/p", `{}`)
	if status != 400 || code != "ValidationException" ||
		body["Message"] != "3 validation errors detected: Value null at 'source' failed to satisfy constraint: Member must not be null; Value null at 'target' failed to satisfy constraint: Member must not be null; Value null at 'roleArn' failed to satisfy constraint: Member must not be null" {
		t.Fatalf("an empty CreatePipe: %d %s %v", status, code, body)
	}
	for _, tc := range []struct{ path, body string }{
		{"/v1/pipes/p", `{"Source":5}`},
		{"/v1/pipes/p", `[`},
		{"/v1/pipes/" + strings.Repeat("n", 65), `{}`},
		{"/v1/pipes/bad%20name", `{}`},
		{"/v1/pipes/p", `{"Source":"` + queueArn + `","Target":"` + lambda + `","RoleArn":"` + role + `","Tags":{}}`},
		{"/v1/pipes/p", `{"Source":"` + queueArn + `","Target":"` + lambda + `","RoleArn":"` + role + `","LogConfiguration":{"Level":"LOUD"}}`},
		{"/v1/pipes/p", `{"Source":"https://example.com","Target":"` + lambda + `","RoleArn":"` + role + `"}`},
		{"/tags/arn:aws:pipes:us-east-1:123456789012:pipe%2Fnone", `{"tags":{"a":"b"}}`},
	} {
		status, code, body := post(tc.path, tc.body)
		if status < 400 || status >= 500 || code == "" || body["Message"] == "" {
			t.Errorf("POST %s %s: %d %s %v", tc.path, tc.body, status, code, body)
		}
	}
}

func TestTags(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	arn := h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(queueArn), Target: aws.String(lambda), Tags: map[string]string{"a": "1"}}).Arn
	if _, err := h.client.TagResource(c, &pipessdk.TagResourceInput{ResourceArn: arn, Tags: map[string]string{"b": "2", "a": "3"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UntagResource(c, &pipessdk.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"b", "missing"}}); err != nil {
		t.Fatal(err)
	}
	out, err := h.client.ListTagsForResource(c, &pipessdk.ListTagsForResourceInput{ResourceArn: arn})
	if err != nil || len(out.Tags) != 1 || out.Tags["a"] != "3" {
		t.Fatalf("ListTagsForResource = %v, %v", out, err)
	}
	_, err = h.client.ListTagsForResource(c, &pipessdk.ListTagsForResourceInput{ResourceArn: aws.String("arn:aws:pipes:us-east-1:123456789012:pipe/none")})
	var nf *types.NotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("tags of no pipe: %v", err)
	}
	many := map[string]string{}
	for i := range 50 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	_, err = h.client.TagResource(c, &pipessdk.TagResourceInput{ResourceArn: arn, Tags: many})
	apiError(t, err, "ValidationException", "A pipe can have at most 50 tags; it has 1 and the request adds 50.")
}

// A source GridBridge does not read is accepted as AWS accepts it, and the
// pipe rests in CREATE_FAILED, saying why; starting it fails the same way.
func TestUnreadSourcesFailToStart(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	h.create(pipessdk.CreatePipeInput{
		Name: aws.String("stream"), Source: aws.String("arn:aws:kinesis:us-east-1:123456789012:stream/orders"), Target: aws.String(lambda),
		SourceParameters: &types.PipeSourceParameters{KinesisStreamParameters: &types.PipeSourceKinesisStreamParameters{StartingPosition: types.KinesisStreamStartPositionLatest}},
	})
	d := h.describe("stream")
	want := "GridBridge runs pipes whose source is an Amazon SQS queue; it accepts a Kinesis stream source as AWS does, but does not read it."
	if d.CurrentState != types.PipeStateCreateFailed || aws.ToString(d.StateReason) != want {
		t.Fatalf("a Kinesis pipe is %s: %s", d.CurrentState, aws.ToString(d.StateReason))
	}
	if d.SourceParameters.KinesisStreamParameters == nil || d.SourceParameters.KinesisStreamParameters.StartingPosition != types.KinesisStreamStartPositionLatest {
		t.Fatalf("the Kinesis parameters were not kept: %+v", d.SourceParameters)
	}
	if _, err := h.client.StopPipe(c, &pipessdk.StopPipeInput{Name: aws.String("stream")}); err != nil {
		t.Fatal(err)
	}
	if d := h.describe("stream"); d.CurrentState != types.PipeStateStopped || d.StateReason != nil {
		t.Fatalf("stopped: %s %v", d.CurrentState, d.StateReason)
	}
	start, err := h.client.StartPipe(c, &pipessdk.StartPipeInput{Name: aws.String("stream")})
	if err != nil || start.CurrentState != types.PipeStateStarting {
		t.Fatalf("StartPipe = %+v, %v", start, err)
	}
	if d := h.describe("stream"); d.CurrentState != types.PipeStateStartFailed || aws.ToString(d.StateReason) != want {
		t.Fatalf("started: %s %s", d.CurrentState, aws.ToString(d.StateReason))
	}
}
