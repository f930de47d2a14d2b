package compatsuite

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
)

// runAWSCLISQS drives `aws sqs` through a queue's life against the binary
// that serves SQS itself. Each step is a row "aws-cli › sqs <command>".
func runAWSCLISQS(t *testing.T, emu *emulator) []row {
	name := fmt.Sprintf("compat-cli-%d", time.Now().UnixNano())
	var c *cli
	var url, receipt string
	steps := []cliStep{
		{"sqs create-queue", func(t *testing.T) {
			var out struct{ QueueUrl string }
			c.json(t, &out, "sqs", "create-queue", "--queue-name", name, "--attributes", "VisibilityTimeout=30")
			equal(t, "QueueUrl", out.QueueUrl, emu.sqsAPI+"/"+awsAccount+"/"+name)
			url = out.QueueUrl
		}},
		{"sqs get-queue-url", func(t *testing.T) {
			var out struct{ QueueUrl string }
			c.json(t, &out, "sqs", "get-queue-url", "--queue-name", name)
			equal(t, "QueueUrl", out.QueueUrl, url)
			c.fails(t, "AWS.SimpleQueueService.NonExistentQueue", "sqs", "get-queue-url", "--queue-name", "compat-cli-missing")
		}},
		{"sqs list-queues", func(t *testing.T) {
			var out struct{ QueueUrls []string }
			c.json(t, &out, "sqs", "list-queues", "--queue-name-prefix", name)
			if len(out.QueueUrls) != 1 || out.QueueUrls[0] != url {
				t.Errorf("QueueUrls = %v, want [%s]", out.QueueUrls, url)
			}
		}},
		{"sqs get-queue-attributes", func(t *testing.T) {
			var out struct{ Attributes map[string]string }
			c.json(t, &out, "sqs", "get-queue-attributes", "--queue-url", url, "--attribute-names", "All")
			equal(t, "VisibilityTimeout", out.Attributes["VisibilityTimeout"], "30")
			equal(t, "QueueArn", out.Attributes["QueueArn"], "arn:aws:sqs:"+awsRegion+":"+awsAccount+":"+name)
		}},
		{"sqs send-message", func(t *testing.T) {
			var out struct{ MessageId, MD5OfMessageBody string }
			c.json(t, &out, "sqs", "send-message", "--queue-url", url, "--message-body", `{"order":1}`,
				"--message-attributes", `{"kind":{"DataType":"String","StringValue":"order"}}`)
			sum := md5.Sum([]byte(`{"order":1}`))
			equal(t, "MD5OfMessageBody", out.MD5OfMessageBody, hex.EncodeToString(sum[:]))
			if out.MessageId == "" {
				t.Error("no MessageId")
			}
		}},
		{"sqs receive-message", func(t *testing.T) {
			var out struct {
				Messages []struct {
					Body, ReceiptHandle string
					MessageAttributes   map[string]struct{ StringValue string }
				}
			}
			c.json(t, &out, "sqs", "receive-message", "--queue-url", url, "--wait-time-seconds", "5", "--message-attribute-names", "All")
			if len(out.Messages) != 1 || out.Messages[0].Body != `{"order":1}` || out.Messages[0].MessageAttributes["kind"].StringValue != "order" {
				t.Fatalf("Messages = %+v", out.Messages)
			}
			receipt = out.Messages[0].ReceiptHandle
		}},
		{"sqs delete-message", func(t *testing.T) {
			c.json(t, nil, "sqs", "delete-message", "--queue-url", url, "--receipt-handle", receipt)
			var out struct{ Attributes map[string]string }
			c.json(t, &out, "sqs", "get-queue-attributes", "--queue-url", url, "--attribute-names", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")
			equal(t, "ApproximateNumberOfMessages", out.Attributes["ApproximateNumberOfMessages"], "0")
			equal(t, "ApproximateNumberOfMessagesNotVisible", out.Attributes["ApproximateNumberOfMessagesNotVisible"], "0")
		}},
		{"sqs delete-queue", func(t *testing.T) {
			c.json(t, nil, "sqs", "delete-queue", "--queue-url", url)
			c.fails(t, "AWS.SimpleQueueService.NonExistentQueue", "sqs", "get-queue-url", "--queue-name", name)
		}},
	}
	if !emu.sqsServed {
		return cliRows(steps, statusNotYet)
	}
	c = &cli{bin: testenv.AWSCLI(t), env: awsEnv(t), emu: &emulator{http: emu.sqsAPI}}
	return runCLISteps(t, steps)
}
