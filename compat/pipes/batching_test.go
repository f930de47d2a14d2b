package pipes_test

import (
	"crypto/md5"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	pipessdk "github.com/aws/aws-sdk-go-v2/service/pipes"
	"github.com/aws/aws-sdk-go-v2/service/pipes/types"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// targetAttempts returns the journal's attempts of pipe name's target.
func (h *harness) targetAttempts(name string) []engine.Entry {
	return h.Entries(engine.Filter{Kind: engine.KindAttempt, Labels: map[string]string{"pipe": name, "step": "target"}})
}

// A batch leaves when its window closes, counted from its first message,
// or at once when it is full.
func TestBatchLeavesWhenTheWindowClosesOrItIsFull(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", map[string]string{"VisibilityTimeout": "600"})
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn), SourceParameters: sqsSource(3, 60)})

	h.send(srcURL, `{"n":1}`)
	h.advance(20 * time.Second)
	h.send(srcURL, `{"n":2}`)
	h.advance(39 * time.Second)
	if n := len(h.targetAttempts("p")); n != 0 {
		t.Fatalf("the batch left before its window closed (%d attempts)", n)
	}
	if m := h.metrics("p"); m.Batching != 2 {
		t.Fatalf("batching %d, want 2", m.Batching)
	}
	h.advance(time.Second)
	at := h.targetAttempts("p")
	if len(at) != 1 || !at[0].Time.Equal(h.Start.Add(time.Minute)) || len(at[0].EventIDs) != 2 {
		t.Fatalf("the window's batch: %+v", at)
	}
	if got := h.bodies(outArn); len(got) != 2 {
		t.Fatalf("the target holds %v", got)
	}

	// Three messages fill a batch: it leaves at once.
	h.send(srcURL, `{"n":3}`, `{"n":4}`, `{"n":5}`)
	h.Clock.Settle()
	if at := h.targetAttempts("p"); len(at) != 2 || !at[1].Time.Equal(h.Start.Add(time.Minute)) || len(at[1].EventIDs) != 3 {
		t.Fatalf("the full batch: %+v", at)
	}
	if got := h.bodies(srcArn); len(got) != 0 {
		t.Fatalf("the source still holds %v", got)
	}
	m := h.metrics("p")
	if m.Received != 5 || m.Delivered != 5 || m.Invocations != 2 {
		t.Fatalf("metrics %+v", m)
	}
}

// A delayed message is taken the instant its delay ends.
func TestDelayedMessageIsTakenWhenItBecomesVisible(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in", nil)
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn)})
	if _, err := h.sqs.SendMessage(ctx(t), &sqssdk.SendMessageInput{QueueUrl: aws.String(srcURL), MessageBody: aws.String("later"), DelaySeconds: 90}); err != nil {
		t.Fatal(err)
	}
	h.advance(89 * time.Second)
	if got := h.bodies(outArn); len(got) != 0 {
		t.Fatalf("delivered before the delay ended: %v", got)
	}
	h.advance(time.Second)
	got := h.bodies(outArn)
	if len(got) != 1 {
		t.Fatalf("not delivered when the delay ended: %v", got)
	}
	var ev struct {
		Body       string            `json:"body"`
		Attributes map[string]string `json:"attributes"`
		Source     string            `json:"eventSource"`
		SourceArn  string            `json:"eventSourceARN"`
		Region     string            `json:"awsRegion"`
		MD5        string            `json:"md5OfBody"`
	}
	if err := json.Unmarshal([]byte(got[0]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Body != "later" || ev.Source != "aws:sqs" || ev.SourceArn != srcArn || ev.Region != region ||
		ev.Attributes["ApproximateReceiveCount"] != "1" || ev.MD5 != fmt.Sprintf("%x", md5.Sum([]byte("later"))) {
		t.Fatalf("the SQS target received %s", got[0])
	}
}

// A FIFO source keeps each group's order through a FIFO target, whose
// group and deduplication ids come from the source message by JSON path.
func TestFIFOSourceToFIFOTargetKeepsOrder(t *testing.T) {
	h := startTest(t)
	srcURL, srcArn := h.queue("in.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
	_, outArn := h.queue("out.fifo", map[string]string{"FifoQueue": "true"})
	h.create(pipessdk.CreatePipeInput{
		Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(outArn), SourceParameters: sqsSource(2, 0),
		TargetParameters: &types.PipeTargetParameters{
			InputTemplate: aws.String(`{"n": <$.body.n>, "group": "<$.attributes.MessageGroupId>"}`),
			SqsQueueParameters: &types.PipeTargetSqsQueueParameters{
				MessageGroupId: aws.String("$.attributes.MessageGroupId"), MessageDeduplicationId: aws.String("$.messageId"),
			},
		},
	})
	for i, g := range []string{"a", "b", "a", "a", "b"} {
		if _, err := h.sqs.SendMessage(ctx(t), &sqssdk.SendMessageInput{
			QueueUrl: aws.String(srcURL), MessageBody: aws.String(`{"n":` + string(rune('1'+i)) + `}`), MessageGroupId: aws.String(g),
		}); err != nil {
			t.Fatal(err)
		}
	}
	h.Clock.Settle()
	msgs := h.store.Messages(outArn)
	var order []string
	for _, m := range msgs {
		order = append(order, m.MessageGroupID+":"+string(m.Body))
	}
	want := []string{`a:{"n": 1, "group": "a"}`, `b:{"n": 2, "group": "b"}`, `a:{"n": 3, "group": "a"}`, `a:{"n": 4, "group": "a"}`, `b:{"n": 5, "group": "b"}`}
	if len(order) != len(want) {
		t.Fatalf("the target holds %v", order)
	}
	groups := map[string][]string{}
	for _, o := range order {
		groups[o[:1]] = append(groups[o[:1]], o)
	}
	for _, w := range want {
		g := groups[w[:1]]
		if len(g) == 0 || g[0] != w {
			t.Fatalf("group order broken: %v", order)
		}
		groups[w[:1]] = g[1:]
	}
}

// Stopping a pipe leaves the source alone; starting it again reads what
// arrived meanwhile. An update changes the target of the running pipe.
func TestStopStartAndUpdate(t *testing.T) {
	h := startTest(t)
	c := ctx(t)
	srcURL, srcArn := h.queue("in", nil)
	_, out1 := h.queue("out1", nil)
	_, out2 := h.queue("out2", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String(srcArn), Target: aws.String(out1)})
	stop, err := h.client.StopPipe(c, &pipessdk.StopPipeInput{Name: aws.String("p")})
	if err != nil || stop.CurrentState != types.PipeStateStopping || stop.DesiredState != types.RequestedPipeStateStopped {
		t.Fatalf("StopPipe = %+v, %v", stop, err)
	}
	h.send(srcURL, "one")
	h.Clock.Settle()
	if got := h.bodies(srcArn); len(got) != 1 {
		t.Fatalf("a stopped pipe read its source: %v", got)
	}
	if _, err := h.client.StartPipe(c, &pipessdk.StartPipeInput{Name: aws.String("p")}); err != nil {
		t.Fatal(err)
	}
	h.Clock.Settle()
	if got := h.bodies(out1); len(got) != 1 {
		t.Fatalf("the started pipe delivered %v", got)
	}
	up, err := h.client.UpdatePipe(c, &pipessdk.UpdatePipeInput{Name: aws.String("p"), RoleArn: aws.String(role), Target: aws.String(out2),
		TargetParameters: &types.PipeTargetParameters{InputTemplate: aws.String("<$.body>!")}})
	if err != nil || up.CurrentState != types.PipeStateUpdating {
		t.Fatalf("UpdatePipe = %+v, %v", up, err)
	}
	h.send(srcURL, "two")
	h.Clock.Settle()
	if got := h.bodies(out2); len(got) != 1 || got[0] != "two!" {
		t.Fatalf("the updated pipe delivered %v", got)
	}
	d := h.describe("p")
	if aws.ToString(d.Target) != out2 || d.CurrentState != types.PipeStateRunning || !d.LastModifiedTime.Equal(h.Start) {
		t.Fatalf("DescribePipe after the update: %+v", d)
	}
}

// A pipe whose source queue does not exist yet reads it once it is
// created.
func TestSourceQueueCreatedAfterThePipe(t *testing.T) {
	h := startTest(t)
	_, outArn := h.queue("out", nil)
	h.create(pipessdk.CreatePipeInput{Name: aws.String("p"), Source: aws.String("arn:aws:sqs:us-east-1:123456789012:later"), Target: aws.String(outArn)})
	// The first poll is clock work, run on the engine's workers: wait for it.
	h.Clock.Settle()
	polls := h.entries("p", engine.KindPoll)
	if len(polls) != 1 || polls[0].Outcome != "QueueDoesNotExist" {
		t.Fatalf("polls %+v", polls)
	}
	url, _ := h.queue("later", nil)
	h.send(url, "hello")
	h.Clock.Settle()
	if got := h.bodies(outArn); len(got) != 1 {
		t.Fatalf("the target holds %v", got)
	}
}
