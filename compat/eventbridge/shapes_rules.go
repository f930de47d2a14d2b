package eventbridge

import (
	"encoding/json"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
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
	Id *string `json:"Id,omitempty"`
	awsjson.TargetInvocation
	InputPath        *string                   `json:"InputPath,omitempty"`
	InputTransformer *awsjson.InputTransformer `json:"InputTransformer,omitempty"`
	awsjson.TargetDelivery
	HttpParameters              *httpParameters `json:"HttpParameters,omitempty"`
	KinesisParameters           json.RawMessage `json:"KinesisParameters,omitempty"`
	RunCommandParameters        json.RawMessage `json:"RunCommandParameters,omitempty"`
	EcsParameters               json.RawMessage `json:"EcsParameters,omitempty"`
	BatchParameters             json.RawMessage `json:"BatchParameters,omitempty"`
	RedshiftDataParameters      json.RawMessage `json:"RedshiftDataParameters,omitempty"`
	SageMakerPipelineParameters json.RawMessage `json:"SageMakerPipelineParameters,omitempty"`
	AppSyncParameters           json.RawMessage `json:"AppSyncParameters,omitempty"`
}

// httpParameters shape an API destination or API Gateway request.
type httpParameters struct {
	PathParameterValues   []string          `json:"PathParameterValues,omitempty"`
	HeaderParameters      map[string]string `json:"HeaderParameters,omitempty"`
	QueryStringParameters map[string]string `json:"QueryStringParameters,omitempty"`
}

// targetsRule names the rule whose targets PutTargets, RemoveTargets and
// ListTargetsByRule act on.
type targetsRule struct {
	Rule         *string `json:"Rule"`
	EventBusName *string `json:"EventBusName"`
}

type putTargetsInput struct {
	targetsRule
	Targets []*targetShape `json:"Targets"`
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
	targetsRule
	Ids   []*string `json:"Ids"`
	Force bool      `json:"Force"`
}

type listTargetsByRuleInput struct {
	pageInput
	targetsRule
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
