package pipes

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// The wire shapes of the Pipes REST-JSON API, members named as the model
// names them. Members GridBridge does not act on (the parameters of
// sources and targets it does not run, log destinations) are kept as
// given, so DescribePipe gives them back. Timestamps are epoch seconds.

// pipeInput is the body of CreatePipe and UpdatePipe (Source and Tags are
// CreatePipe's only).
type pipeInput struct {
	Description          *string               `json:"Description,omitempty"`
	DesiredState         *string               `json:"DesiredState,omitempty"`
	Source               *string               `json:"Source,omitempty"`
	SourceParameters     *sourceParameters     `json:"SourceParameters,omitempty"`
	Enrichment           *string               `json:"Enrichment,omitempty"`
	EnrichmentParameters *enrichmentParameters `json:"EnrichmentParameters,omitempty"`
	Target               *string               `json:"Target,omitempty"`
	TargetParameters     *targetParameters     `json:"TargetParameters,omitempty"`
	RoleArn              *string               `json:"RoleArn,omitempty"`
	Tags                 map[string]string     `json:"Tags,omitempty"`
	LogConfiguration     json.RawMessage       `json:"LogConfiguration,omitempty"`
	KmsKeyIdentifier     *string               `json:"KmsKeyIdentifier,omitempty"`
}

type sourceParameters struct {
	FilterCriteria                  *filterCriteria     `json:"FilterCriteria,omitempty"`
	SqsQueueParameters              *sqsQueueParameters `json:"SqsQueueParameters,omitempty"`
	KinesisStreamParameters         json.RawMessage     `json:"KinesisStreamParameters,omitempty"`
	DynamoDBStreamParameters        json.RawMessage     `json:"DynamoDBStreamParameters,omitempty"`
	ActiveMQBrokerParameters        json.RawMessage     `json:"ActiveMQBrokerParameters,omitempty"`
	RabbitMQBrokerParameters        json.RawMessage     `json:"RabbitMQBrokerParameters,omitempty"`
	ManagedStreamingKafkaParameters json.RawMessage     `json:"ManagedStreamingKafkaParameters,omitempty"`
	SelfManagedKafkaParameters      json.RawMessage     `json:"SelfManagedKafkaParameters,omitempty"`
}

type filterCriteria struct {
	Filters []filter `json:"Filters"`
}

type filter struct {
	Pattern *string `json:"Pattern,omitempty"`
}

type sqsQueueParameters struct {
	BatchSize                      *int32 `json:"BatchSize,omitempty"`
	MaximumBatchingWindowInSeconds *int32 `json:"MaximumBatchingWindowInSeconds,omitempty"`
}

type enrichmentParameters struct {
	InputTemplate  *string         `json:"InputTemplate,omitempty"`
	HttpParameters *httpParameters `json:"HttpParameters,omitempty"`
}

type httpParameters struct {
	PathParameterValues   []string          `json:"PathParameterValues,omitempty"`
	HeaderParameters      map[string]string `json:"HeaderParameters,omitempty"`
	QueryStringParameters map[string]string `json:"QueryStringParameters,omitempty"`
}

type targetParameters struct {
	InputTemplate                      *string               `json:"InputTemplate,omitempty"`
	LambdaFunctionParameters           *invocationParameters `json:"LambdaFunctionParameters,omitempty"`
	StepFunctionStateMachineParameters *invocationParameters `json:"StepFunctionStateMachineParameters,omitempty"`
	KinesisStreamParameters            json.RawMessage       `json:"KinesisStreamParameters,omitempty"`
	EcsTaskParameters                  json.RawMessage       `json:"EcsTaskParameters,omitempty"`
	BatchJobParameters                 json.RawMessage       `json:"BatchJobParameters,omitempty"`
	SqsQueueParameters                 *targetSQSParameters  `json:"SqsQueueParameters,omitempty"`
	HttpParameters                     *httpParameters       `json:"HttpParameters,omitempty"`
	RedshiftDataParameters             json.RawMessage       `json:"RedshiftDataParameters,omitempty"`
	SageMakerPipelineParameters        json.RawMessage       `json:"SageMakerPipelineParameters,omitempty"`
	EventBridgeEventBusParameters      *busParameters        `json:"EventBridgeEventBusParameters,omitempty"`
	CloudWatchLogsParameters           json.RawMessage       `json:"CloudWatchLogsParameters,omitempty"`
	TimestreamParameters               json.RawMessage       `json:"TimestreamParameters,omitempty"`
}

type invocationParameters struct {
	InvocationType *string `json:"InvocationType,omitempty"`
}

type targetSQSParameters struct {
	MessageGroupId         *string `json:"MessageGroupId,omitempty"`
	MessageDeduplicationId *string `json:"MessageDeduplicationId,omitempty"`
}

type busParameters struct {
	EndpointId *string  `json:"EndpointId,omitempty"`
	DetailType *string  `json:"DetailType,omitempty"`
	Source     *string  `json:"Source,omitempty"`
	Resources  []string `json:"Resources,omitempty"`
	Time       *string  `json:"Time,omitempty"`
}

// stateOutput is the answer of CreatePipe, UpdatePipe, StartPipe,
// StopPipe and DeletePipe: the pipe and its states.
type stateOutput struct {
	Arn              string            `json:"Arn"`
	Name             string            `json:"Name"`
	DesiredState     string            `json:"DesiredState"`
	CurrentState     string            `json:"CurrentState"`
	CreationTime     awsjson.Timestamp `json:"CreationTime"`
	LastModifiedTime awsjson.Timestamp `json:"LastModifiedTime"`
}

// describeOutput is DescribePipe's answer.
type describeOutput struct {
	Arn                  string                `json:"Arn"`
	Name                 string                `json:"Name"`
	Description          *string               `json:"Description,omitempty"`
	DesiredState         string                `json:"DesiredState"`
	CurrentState         string                `json:"CurrentState"`
	StateReason          *string               `json:"StateReason,omitempty"`
	Source               string                `json:"Source"`
	SourceParameters     *sourceParameters     `json:"SourceParameters,omitempty"`
	Enrichment           *string               `json:"Enrichment,omitempty"`
	EnrichmentParameters *enrichmentParameters `json:"EnrichmentParameters,omitempty"`
	Target               string                `json:"Target"`
	TargetParameters     *targetParameters     `json:"TargetParameters,omitempty"`
	RoleArn              string                `json:"RoleArn"`
	Tags                 map[string]string     `json:"Tags"`
	CreationTime         awsjson.Timestamp     `json:"CreationTime"`
	LastModifiedTime     awsjson.Timestamp     `json:"LastModifiedTime"`
	LogConfiguration     json.RawMessage       `json:"LogConfiguration,omitempty"`
	KmsKeyIdentifier     *string               `json:"KmsKeyIdentifier,omitempty"`
}

// summary is one pipe of ListPipes.
type summary struct {
	Name             string            `json:"Name"`
	Arn              string            `json:"Arn"`
	DesiredState     string            `json:"DesiredState"`
	CurrentState     string            `json:"CurrentState"`
	StateReason      *string           `json:"StateReason,omitempty"`
	CreationTime     awsjson.Timestamp `json:"CreationTime"`
	LastModifiedTime awsjson.Timestamp `json:"LastModifiedTime"`
	Source           string            `json:"Source"`
	Target           string            `json:"Target"`
	Enrichment       *string           `json:"Enrichment,omitempty"`
}
