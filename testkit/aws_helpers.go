package testkit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	schedtypes "github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// Role is the IAM role ARN the testkit's AWS helpers pass where AWS
// requires one (rule targets on other buses, schedule targets): the
// emulator keeps roles as written and never assumes them.
const Role = "arn:aws:iam::" + AWSAccount + ":role/gridbridge"

// CreateBus creates a custom event bus and returns its ARN.
func (e *Emulator) CreateBus(name string) string {
	e.t.Helper()
	out, err := e.EventBridge().CreateEventBus(context.Background(), &eventbridge.CreateEventBusInput{Name: aws.String(name)})
	if err != nil {
		e.fatalf("creating event bus %s: %v", name, err)
	}
	return aws.ToString(out.EventBusArn)
}

// CreateRule creates a rule on bus ("" or "default": the default bus)
// matching pattern, with targets, and returns the rule's ARN:
//
//	q := emu.CreateQueue("billing")
//	emu.CreateRule("", "placed", `{"detail-type":["OrderPlaced"]}`, testkit.SQSTarget("billing", q.ARN))
func (e *Emulator) CreateRule(bus, name, pattern string, targets ...ebtypes.Target) string {
	e.t.Helper()
	ctx := context.Background()
	eb := e.EventBridge()
	in := &eventbridge.PutRuleInput{Name: aws.String(name), EventPattern: aws.String(pattern)}
	if bus != "" {
		in.EventBusName = aws.String(bus)
	}
	out, err := eb.PutRule(ctx, in)
	if err != nil {
		e.fatalf("creating rule %s: %v", name, err)
	}
	if len(targets) > 0 {
		res, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String(name), EventBusName: in.EventBusName, Targets: targets})
		if err == nil && res.FailedEntryCount > 0 {
			err = fmt.Errorf("%s: %s", aws.ToString(res.FailedEntries[0].ErrorCode), aws.ToString(res.FailedEntries[0].ErrorMessage))
		}
		if err != nil {
			e.fatalf("adding targets to rule %s: %v", name, err)
		}
	}
	return aws.ToString(out.RuleArn)
}

// SQSTarget is a rule target sending to the queue queueARN.
func SQSTarget(id, queueARN string) ebtypes.Target {
	return ebtypes.Target{Id: aws.String(id), Arn: aws.String(queueARN)}
}

// BusTarget is a rule target sending to another event bus.
func BusTarget(id, busARN string) ebtypes.Target {
	return ebtypes.Target{Id: aws.String(id), Arn: aws.String(busARN), RoleArn: aws.String(Role)}
}

// APIDestinationTarget is a rule target calling an API destination
// (CreateAPIDestination).
func APIDestinationTarget(id, apiDestinationARN string) ebtypes.Target {
	return ebtypes.Target{Id: aws.String(id), Arn: aws.String(apiDestinationARN)}
}

// CreateAPIDestination creates an API destination POSTing to endpoint,
// through a connection of its own with an API key, and returns its ARN.
func (e *Emulator) CreateAPIDestination(name, endpoint string) string {
	e.t.Helper()
	ctx := context.Background()
	eb := e.EventBridge()
	conn, err := eb.CreateConnection(ctx, &eventbridge.CreateConnectionInput{
		Name: aws.String(name), AuthorizationType: ebtypes.ConnectionAuthorizationTypeApiKey,
		AuthParameters: &ebtypes.CreateConnectionAuthRequestParameters{ApiKeyAuthParameters: &ebtypes.CreateConnectionApiKeyAuthRequestParameters{
			ApiKeyName: aws.String("x-api-key"), ApiKeyValue: aws.String("gridbridge"),
		}},
	})
	if err != nil {
		e.fatalf("creating connection %s: %v", name, err)
	}
	out, err := eb.CreateApiDestination(ctx, &eventbridge.CreateApiDestinationInput{
		Name: aws.String(name), ConnectionArn: conn.ConnectionArn,
		InvocationEndpoint: aws.String(endpoint), HttpMethod: ebtypes.ApiDestinationHttpMethodPost,
	})
	if err != nil {
		e.fatalf("creating API destination %s: %v", name, err)
	}
	return aws.ToString(out.ApiDestinationArn)
}

// Queue is an SQS queue of the emulator's own SQS.
type Queue struct {
	Name, URL, ARN string
}

// QueueOption sets an attribute of a queue CreateQueue creates.
type QueueOption func(attributes map[string]string)

// WithDeadLetterQueue moves a message to dlq after maxReceiveCount
// receives (the queue's RedrivePolicy).
func WithDeadLetterQueue(dlq Queue, maxReceiveCount int) QueueOption {
	return func(a map[string]string) {
		a["RedrivePolicy"] = fmt.Sprintf(`{"deadLetterTargetArn":%q,"maxReceiveCount":"%d"}`, dlq.ARN, maxReceiveCount)
	}
}

// WithVisibilityTimeout sets how long a received message stays hidden
// (30 s by default), in whole seconds.
func WithVisibilityTimeout(d time.Duration) QueueOption {
	return func(a map[string]string) { a["VisibilityTimeout"] = strconv.Itoa(int(d / time.Second)) }
}

// WithQueueAttribute sets any other queue attribute by its SQS name.
func WithQueueAttribute(name, value string) QueueOption {
	return func(a map[string]string) { a[name] = value }
}

// CreateQueue creates a queue in the emulator's own SQS and returns its
// name, URL and ARN:
//
//	dlq := emu.CreateQueue("orders-dlq")
//	q := emu.CreateQueue("orders", testkit.WithDeadLetterQueue(dlq, 3))
func (e *Emulator) CreateQueue(name string, opts ...QueueOption) Queue {
	e.t.Helper()
	ctx := context.Background()
	attrs := map[string]string{}
	for _, o := range opts {
		o(attrs)
	}
	client := e.SQS()
	out, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		e.fatalf("creating queue %s: %v", name, err)
	}
	got, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: out.QueueUrl,
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	if err != nil {
		e.fatalf("reading queue %s's ARN: %v", name, err)
	}
	return Queue{Name: name, URL: aws.ToString(out.QueueUrl), ARN: got.Attributes[string(sqstypes.QueueAttributeNameQueueArn)]}
}

// WaitForSQSMessages receives from queueURL until it has n distinct
// messages and returns them, long polling (no sleeps), with every
// attribute. The messages stay in flight for the queue's visibility
// timeout; delete them as a consumer would.
//
// When a receive comes back short while the queue holds messages in
// flight that this call did not receive — taken by a consumer that failed,
// or by a client that dropped the connection while reading the answer —
// and the clock is virtual, it advances the clock once by the queue's
// visibility timeout, after which those messages are visible again, as
// they would be in time on a real clock. That advance fires whatever else
// is due on the way (retries, schedules), and makes the messages this call
// already received visible too: they are received again and kept once,
// with their newest receipt handle. It fails the test after DefaultWait
// with how many arrived.
func (e *Emulator) WaitForSQSMessages(queueURL string, n int) []sqstypes.Message {
	e.t.Helper()
	ctx := context.Background()
	client := e.SQS()
	deadline := time.Now().Add(e.wait)
	var out []sqstypes.Message
	index := map[string]int{}
	advanced := false
	for len(out) < n && time.Now().Before(deadline) {
		got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(queueURL), MaxNumberOfMessages: int32(min(10, n-len(out))), WaitTimeSeconds: 1,
			MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
			MessageAttributeNames:       []string{"All"},
		})
		if err != nil {
			e.fatalf("receiving %d messages from %s: %d arrived, then %v", n, queueURL, len(out), err)
		}
		for _, m := range got.Messages {
			if i, ok := index[aws.ToString(m.MessageId)]; ok {
				out[i] = m
				continue
			}
			index[aws.ToString(m.MessageId)] = len(out)
			out = append(out, m)
		}
		if len(out) >= n || advanced || e.info.Clock != "virtual" {
			continue
		}
		inFlight, visibility := e.queueInFlight(queueURL)
		if inFlight > len(out) {
			e.Advance(visibility)
			advanced = true
		}
	}
	if len(out) < n {
		e.fatalf("waited %v for %d messages on %s; %d arrived", e.wait, n, queueURL, len(out))
	}
	return out
}

// queueInFlight reads how many of a queue's messages are in flight and its
// visibility timeout.
func (e *Emulator) queueInFlight(queueURL string) (int, time.Duration) {
	e.t.Helper()
	attrs, err := e.SQS().GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{QueueUrl: aws.String(queueURL),
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible, sqstypes.QueueAttributeNameVisibilityTimeout}})
	if err != nil {
		e.fatalf("reading %s's attributes: %v", queueURL, err)
	}
	inFlight, _ := strconv.Atoi(attrs.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible)])
	secs, _ := strconv.Atoi(attrs.Attributes[string(sqstypes.QueueAttributeNameVisibilityTimeout)])
	return inFlight, time.Duration(secs) * time.Second
}

// WaitForTargetDeliveries waits until a rule's target has taken at least
// n deliveries (attempts that succeeded) and returns them; bus "" is any
// bus.
func (e *Emulator) WaitForTargetDeliveries(bus, rule, target string, n int) []Entry {
	e.t.Helper()
	return e.waitFor(KindAttempt, Filter{Bus: bus, Rule: rule, Target: target, Outcome: "Success"}, n)
}

// ScheduleTarget is a schedule's target: the ARN it invokes (a queue, a
// Lambda function, a bus, …) with input as its payload.
func ScheduleTarget(targetARN, input string) schedtypes.Target {
	t := schedtypes.Target{Arn: aws.String(targetARN), RoleArn: aws.String(Role)}
	if input != "" {
		t.Input = aws.String(input)
	}
	return t
}

// CreateSchedule creates a schedule in the default group with expression
// ("rate(1 minute)", "at(2026-01-01T00:05:00)", "cron(0 9 * * ? *)") and
// no flexible window, and returns its ARN:
//
//	q := emu.CreateQueue("ticks")
//	emu.CreateSchedule("tick", "rate(1 minute)", testkit.ScheduleTarget(q.ARN, `{"tick":true}`))
func (e *Emulator) CreateSchedule(name, expression string, target schedtypes.Target) string {
	e.t.Helper()
	out, err := e.Scheduler().CreateSchedule(context.Background(), &scheduler.CreateScheduleInput{
		Name: aws.String(name), ScheduleExpression: aws.String(expression),
		FlexibleTimeWindow: &schedtypes.FlexibleTimeWindow{Mode: schedtypes.FlexibleTimeWindowModeOff},
		Target:             &target,
	})
	if err != nil {
		e.fatalf("creating schedule %s: %v", name, err)
	}
	return aws.ToString(out.ScheduleArn)
}

// WaitForScheduleFirings waits until a schedule (group "" is any group)
// has invoked its target successfully at least n times and returns those
// invocations.
func (e *Emulator) WaitForScheduleFirings(group, schedule string, n int) []Entry {
	e.t.Helper()
	f := ScheduleFilter(group, schedule)
	f.Outcome = "Success"
	return e.waitFor(KindAttempt, f, n)
}
