package sqs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sqssdk "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/sqs"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

func TestSinkWritesCreateTheQueueTheAPIShows(t *testing.T) {
	h := startTest(t)
	arn := "arn:aws:sqs:us-east-1:" + account + ":targets.fifo"
	for _, id := range []string{"e1", "e1", "e2"} { // e1 twice: a retried send is a duplicate
		if err := h.store.Send(context.Background(), sqssend.Message{QueueArn: arn, Body: []byte(`{"id":"` + id + `"}`),
			DeduplicationID: id, Attributes: []engine.Attribute{{Name: "ERROR_CODE", Type: "String", Value: "x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	url, err := h.client.GetQueueUrl(ctx(t), &sqssdk.GetQueueUrlInput{QueueName: aws.String("targets.fifo")})
	if err != nil {
		t.Fatalf("the written queue is not visible to the API: %v", err)
	}
	tags, err := h.client.ListQueueTags(ctx(t), &sqssdk.ListQueueTagsInput{QueueUrl: url.QueueUrl})
	if err != nil || tags.Tags[sqs.AutoCreatedTag] != "true" {
		t.Fatalf("tags %v, %v", tags, err)
	}
	msgs := h.receive(aws.ToString(url.QueueUrl), 10)
	if len(msgs) != 2 || msgs[0].Attributes["MessageGroupId"] != "dead-letters" || aws.ToString(msgs[0].MessageAttributes["ERROR_CODE"].StringValue) != "x" {
		t.Fatalf("received %+v", msgs)
	}
	if got := h.store.Messages(arn); len(got) != 2 || got[0].DeduplicationID != "e1" {
		t.Fatalf("Messages = %+v", got)
	}
	if got, err := h.store.WaitFor(ctx(t), arn, 2); err != nil || len(got) != 2 {
		t.Fatalf("WaitFor = %d, %v", len(got), err)
	}
	for _, bad := range []string{
		"arn:aws:sqs:us-east-1:bad", "arn:aws:sqs:us-east-1:" + account + ":q:extra", "arn:aws:sqs:us-east-1:" + account + ":q:a:b",
		"arn:aws:sns:us-east-1:" + account + ":q", "arn::sqs:us-east-1:" + account + ":q", "arn:aws:sqs::" + account + ":q",
	} {
		if err := h.store.Send(context.Background(), sqssend.Message{QueueArn: bad, Body: []byte("x")}); !errors.Is(err, engine.ErrDestinationNotFound) {
			t.Errorf("bad ARN %q: %v", bad, err)
		}
	}
}

func TestWaitForWaitsForAQueueNotYetCreated(t *testing.T) {
	h := startTest(t)
	arn := "arn:aws:sqs:us-east-1:" + account + ":later"
	done := make(chan int, 1)
	go func() {
		got, _ := h.store.WaitFor(ctx(t), arn, 1)
		done <- len(got)
	}()
	if err := h.store.Send(context.Background(), sqssend.Message{QueueArn: arn, Body: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if n := <-done; n != 1 {
		t.Fatalf("WaitFor returned %d messages", n)
	}
}
