package pipes

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
)

// sourceKind is what a pipe reads. GridBridge runs SQS sources; the
// others are accepted as AWS accepts them and fail to start (see doc.go).
type sourceKind int

const (
	sourceSQS sourceKind = iota
	sourceKinesis
	sourceDynamoDB
	sourceMQ
	sourceMSK
	sourceSelfManagedKafka
)

// sourceParams names each kind's member of SourceParameters, and the
// service it reads, as StateReason and validation messages say them.
var sourceNames = map[sourceKind]struct{ member, service string }{
	sourceSQS:              {"SqsQueueParameters", "Amazon SQS queue"},
	sourceKinesis:          {"KinesisStreamParameters", "Kinesis stream"},
	sourceDynamoDB:         {"DynamoDBStreamParameters", "DynamoDB stream"},
	sourceMQ:               {"ActiveMQBrokerParameters or RabbitMQBrokerParameters", "Amazon MQ broker"},
	sourceMSK:              {"ManagedStreamingKafkaParameters", "Amazon MSK cluster"},
	sourceSelfManagedKafka: {"SelfManagedKafkaParameters", "self-managed Apache Kafka cluster"},
}

// sourceKindOf classifies a source ARN or smk:// URL; ok is false for a
// resource no pipe can read.
func sourceKindOf(source string) (sourceKind, bool) {
	if strings.HasPrefix(source, "smk://") {
		return sourceSelfManagedKafka, true
	}
	a, err := arn.Parse(source)
	if err != nil {
		return 0, false
	}
	switch {
	case a.Service == "sqs" && !strings.Contains(a.Resource, "/"):
		return sourceSQS, true
	case a.Service == "kinesis" && strings.HasPrefix(a.Resource, "stream/"):
		return sourceKinesis, true
	case a.Service == "dynamodb" && strings.Contains(a.Resource, "/stream/"):
		return sourceDynamoDB, true
	case a.Service == "mq" && strings.HasPrefix(a.Resource, "broker:"):
		return sourceMQ, true
	case a.Service == "kafka" && strings.HasPrefix(a.Resource, "cluster/"):
		return sourceMSK, true
	}
	return 0, false
}

// stepKind is what an enrichment or target invokes, and how GridBridge
// reaches it.
type stepKind int

const (
	// stepCaptured is a service GridBridge does not call: the invocation
	// succeeds unless a fault rule says otherwise, and the journal keeps
	// what it was sent. An enrichment stand-in answers with its input.
	stepCaptured stepKind = iota
	stepAPIDestination
	stepEventBus
	stepSQS
	// stepLambda and stepStepFunctions are captured too, and can report a
	// partial batch failure (a fault rule naming events).
	stepLambda
	stepStepFunctions
	// stepAPIGateway is a captured REST API, invoked once per event.
	stepAPIGateway
)

// enrichmentKindOf classifies an enrichment ARN: API destinations, API
// Gateway, Lambda and Step Functions (Express workflows) enrich.
func enrichmentKindOf(a arn.ARN) (stepKind, bool) {
	switch {
	case a.Service == "events" && strings.HasPrefix(a.Resource, "api-destination/"):
		return stepAPIDestination, true
	case a.Service == "execute-api":
		return stepAPIGateway, true
	case a.Service == "lambda" && strings.HasPrefix(a.Resource, "function:"):
		return stepLambda, true
	case a.Service == "states" && strings.HasPrefix(a.Resource, "stateMachine:"):
		return stepStepFunctions, true
	}
	return 0, false
}

// capturedTargets are the other services a pipe can target: captured.
var capturedTargets = map[string]bool{
	"sns": true, "kinesis": true, "firehose": true, "logs": true, "ecs": true, "batch": true,
	"redshift": true, "sagemaker": true, "inspector": true, "timestream": true,
}

// targetKindOf classifies a target ARN.
func targetKindOf(a arn.ARN) (stepKind, bool) {
	switch {
	case a.Service == "events" && strings.HasPrefix(a.Resource, "event-bus/"):
		return stepEventBus, true
	case a.Service == "sqs":
		return stepSQS, true
	case a.Service == "events" && strings.HasPrefix(a.Resource, "api-destination/"):
		return stepAPIDestination, true
	case a.Service == "execute-api":
		return stepAPIGateway, true
	case a.Service == "lambda" && strings.HasPrefix(a.Resource, "function:"):
		return stepLambda, true
	case a.Service == "states" && strings.HasPrefix(a.Resource, "stateMachine:"):
		return stepStepFunctions, true
	}
	return stepCaptured, capturedTargets[a.Service]
}

// maxTargetBatch is the largest batch a target takes in one invocation
// (AWS's table of batchable targets); 0 means no limit (Lambda, Step
// Functions), 1 a target invoked once per event.
func maxTargetBatch(k stepKind, a arn.ARN) int {
	switch k {
	case stepLambda, stepStepFunctions:
		return 0
	case stepEventBus, stepSQS:
		return 10
	case stepAPIDestination, stepAPIGateway:
		return 1
	}
	switch a.Service {
	case "sns":
		return 10
	case "kinesis", "firehose":
		return 500
	case "logs":
		return 10000
	}
	return 1
}

// batchesToOne reports whether a step is invoked once per event (API
// destinations, API Gateway and the targets without a batch API), rather
// than once per batch.
func batchesToOne(k stepKind, a arn.ARN) bool { return maxTargetBatch(k, a) == 1 }
