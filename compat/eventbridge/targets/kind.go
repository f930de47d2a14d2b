package targets

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
)

// Kind is how GridBridge reaches a target.
type Kind int

const (
	// Captured targets (Lambda, SNS, Step Functions, Kinesis, ...) are not
	// called: the attempt succeeds and the journal records what was sent.
	Captured Kind = iota
	SQS
	APIDestination
	EventBus
)

// capturedServices are the AWS services EventBridge rules can target that
// GridBridge captures.
var capturedServices = map[string]bool{
	"lambda": true, "sns": true, "states": true, "kinesis": true, "firehose": true,
	"logs": true, "ecs": true, "batch": true, "ssm": true, "codebuild": true,
	"codepipeline": true, "redshift": true, "redshift-serverless": true, "sagemaker": true,
	"appsync": true, "execute-api": true, "inspector": true, "ec2": true, "events": true,
	"incidents": true, "ssm-incidents": true,
}

// KindOf classifies a target ARN. ok is false for an ARN that is malformed
// (the caller answers "Provided Arn is not in correct format") or names a
// service EventBridge cannot target.
func KindOf(targetArn string) (k Kind, wellFormed, supported bool) {
	a, err := arn.Parse(targetArn)
	if err != nil || a.Service == "" {
		return Captured, false, false
	}
	switch {
	case a.Service == "sqs":
		return SQS, true, true
	case a.Service == "events" && strings.HasPrefix(a.Resource, "api-destination/"):
		return APIDestination, true, true
	case a.Service == "events" && strings.HasPrefix(a.Resource, "event-bus/"):
		return EventBus, true, true
	}
	return Captured, true, capturedServices[a.Service]
}
