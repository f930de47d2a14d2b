package facetest

import (
	"context"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// AWSConfig points any aws-sdk-go-v2 client (NewFromConfig) at endpoint,
// signing as accessKey in region (GridBridge reads a twelve-digit access key
// id as the account it acts for), one attempt per call. A nil client leaves
// the SDK's default HTTP client.
func AWSConfig(endpoint, accessKey, region string, client *http.Client) aws.Config {
	cfg := aws.Config{
		BaseEndpoint:     aws.String(endpoint),
		Region:           region,
		Credentials:      credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		RetryMaxAttempts: 1,
	}
	if client != nil {
		cfg.HTTPClient = client
	}
	return cfg
}

// SQSQueue creates queue name with attrs through client, deletes it when
// the test ends (queues of a real SQS server outlive the test otherwise),
// and returns its URL and ARN.
func SQSQueue(t testing.TB, client *sqs.Client, name string, attrs map[string]string) (url, arn string) {
	t.Helper()
	c := Context(t)
	out, err := client.CreateQueue(c, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		t.Fatalf("creating SQS queue %s: %v", name, err)
	}
	t.Cleanup(func() { _, _ = client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: out.QueueUrl}) })
	a, err := client.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{
		QueueUrl: out.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	if err != nil {
		t.Fatalf("reading the ARN of SQS queue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl), a.Attributes[string(sqstypes.QueueAttributeNameQueueArn)]
}
