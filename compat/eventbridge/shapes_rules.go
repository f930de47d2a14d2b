package eventbridge

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/eventbridge/awsjson"
)

type putRuleInput struct {
	Name               *string       `json:"Name"`
	EventBusName       *string       `json:"EventBusName"`
	EventPattern       *string       `json:"EventPattern"`
	ScheduleExpression *string       `json:"ScheduleExpression"`
	State              *string       `json:"State"`
	Description        *string       `json:"Description"`
	RoleArn            *string       `json:"RoleArn"`
	Tags               []awsjson.Tag `json:"Tags"`
}

type putRuleOutput struct {
	RuleArn string `json:"RuleArn"`
}

type ruleRefInput struct {
	Name         *string `json:"Name"`
	EventBusName *string `json:"EventBusName"`
	Force        bool    `json:"Force"`
}

type ruleItem struct {
	Name               string  `json:"Name"`
	Arn                string  `json:"Arn"`
	EventPattern       *string `json:"EventPattern,omitempty"`
	ScheduleExpression *string `json:"ScheduleExpression,omitempty"`
	State              string  `json:"State"`
	Description        *string `json:"Description,omitempty"`
	RoleArn            *string `json:"RoleArn,omitempty"`
	ManagedBy          *string `json:"ManagedBy,omitempty"`
	EventBusName       string  `json:"EventBusName"`
}

type describeRuleOutput struct {
	ruleItem
	CreatedBy string `json:"CreatedBy"`
}

type listRulesInput struct {
	pageInput
	NamePrefix   *string `json:"NamePrefix"`
	EventBusName *string `json:"EventBusName"`
}

type listRulesOutput struct {
	Rules     []ruleItem `json:"Rules"`
	NextToken *string    `json:"NextToken,omitempty"`
}

// targetShape is a rule target exactly as PutTargets received it, so that
// ListTargetsByRule returns only the members that were set. Parameters
// GridBridge does not act on are kept as raw JSON.
type targetShape struct {
	Id                          *string                   `json:"Id,omitempty"`
	Arn                         *string                   `json:"Arn,omitempty"`
	RoleArn                     *string                   `json:"RoleArn,omitempty"`
	Input                       *string                   `json:"Input,omitempty"`
	InputPath                   *string                   `json:"InputPath,omitempty"`
	InputTransformer            *awsjson.InputTransformer `json:"InputTransformer,omitempty"`
	RetryPolicy                 *awsjson.RetryPolicy      `json:"RetryPolicy,omitempty"`
	DeadLetterConfig            *awsjson.DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	SqsParameters               *awsjson.SQSParameters    `json:"SqsParameters,omitempty"`
	HttpParameters              *httpParameters           `json:"HttpParameters,omitempty"`
	KinesisParameters           json.RawMessage           `json:"KinesisParameters,omitempty"`
	RunCommandParameters        json.RawMessage           `json:"RunCommandParameters,omitempty"`
	EcsParameters               json.RawMessage           `json:"EcsParameters,omitempty"`
	BatchParameters             json.RawMessage           `json:"BatchParameters,omitempty"`
	RedshiftDataParameters      json.RawMessage           `json:"RedshiftDataParameters,omitempty"`
	SageMakerPipelineParameters json.RawMessage           `json:"SageMakerPipelineParameters,omitempty"`
	AppSyncParameters           json.RawMessage           `json:"AppSyncParameters,omitempty"`
}

// httpParameters shape an API destination or API Gateway request.
type httpParameters struct {
	PathParameterValues   []string          `json:"PathParameterValues,omitempty"`
	HeaderParameters      map[string]string `json:"HeaderParameters,omitempty"`
	QueryStringParameters map[string]string `json:"QueryStringParameters,omitempty"`
}

type putTargetsInput struct {
	Rule         *string        `json:"Rule"`
	EventBusName *string        `json:"EventBusName"`
	Targets      []*targetShape `json:"Targets"`
}

// failedEntry is one entry of PutTargets' and RemoveTargets' FailedEntries.
type failedEntry struct {
	TargetId     string `json:"TargetId"`
	ErrorCode    string `json:"ErrorCode"`
	ErrorMessage string `json:"ErrorMessage"`
}

type targetsResult struct {
	FailedEntryCount int           `json:"FailedEntryCount"`
	FailedEntries    []failedEntry `json:"FailedEntries"`
}

type removeTargetsInput struct {
	Rule         *string   `json:"Rule"`
	EventBusName *string   `json:"EventBusName"`
	Ids          []*string `json:"Ids"`
	Force        bool      `json:"Force"`
}

type listTargetsByRuleInput struct {
	pageInput
	Rule         *string `json:"Rule"`
	EventBusName *string `json:"EventBusName"`
}

type listTargetsByRuleOutput struct {
	Targets   []*targetShape `json:"Targets"`
	NextToken *string        `json:"NextToken,omitempty"`
}

type listRuleNamesByTargetInput struct {
	pageInput
	TargetArn    *string `json:"TargetArn"`
	EventBusName *string `json:"EventBusName"`
}

type listRuleNamesByTargetOutput struct {
	RuleNames []string `json:"RuleNames"`
	NextToken *string  `json:"NextToken,omitempty"`
}
