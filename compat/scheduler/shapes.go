package scheduler

import "github.com/gridbridge/gridbridge/compat/aws/awsjson"

// The wire shapes of Scheduler's REST-JSON API. Timestamps are epoch
// seconds, as restJson1 writes them.

type flexibleTimeWindow struct {
	Mode                   string `json:"Mode,omitempty"`
	MaximumWindowInMinutes *int32 `json:"MaximumWindowInMinutes,omitempty"`
}

type eventBridgeParameters struct {
	DetailType *string `json:"DetailType,omitempty"`
	Source     *string `json:"Source,omitempty"`
}

// targetShape keeps the parameters GridBridge does not act on (ECS,
// Kinesis, SageMaker) as they came, so GetSchedule gives them back.
type targetShape struct {
	awsjson.TargetInvocation
	awsjson.TargetDelivery
	EventBridgeParameters       *eventBridgeParameters `json:"EventBridgeParameters,omitempty"`
	EcsParameters               any                    `json:"EcsParameters,omitempty"`
	KinesisParameters           any                    `json:"KinesisParameters,omitempty"`
	SageMakerPipelineParameters any                    `json:"SageMakerPipelineParameters,omitempty"`
}

// scheduleInput is the body of CreateSchedule and UpdateSchedule.
type scheduleInput struct {
	ActionAfterCompletion      string              `json:"ActionAfterCompletion,omitempty"`
	ClientToken                *string             `json:"ClientToken,omitempty"`
	Description                *string             `json:"Description,omitempty"`
	EndDate                    *awsjson.Timestamp  `json:"EndDate,omitempty"`
	FlexibleTimeWindow         *flexibleTimeWindow `json:"FlexibleTimeWindow,omitempty"`
	GroupName                  *string             `json:"GroupName,omitempty"`
	KmsKeyArn                  *string             `json:"KmsKeyArn,omitempty"`
	ScheduleExpression         *string             `json:"ScheduleExpression,omitempty"`
	ScheduleExpressionTimezone *string             `json:"ScheduleExpressionTimezone,omitempty"`
	StartDate                  *awsjson.Timestamp  `json:"StartDate,omitempty"`
	State                      string              `json:"State,omitempty"`
	Target                     *targetShape        `json:"Target,omitempty"`
}

type scheduleOutput struct {
	ActionAfterCompletion      string              `json:"ActionAfterCompletion"`
	Arn                        string              `json:"Arn"`
	CreationDate               awsjson.Timestamp   `json:"CreationDate"`
	Description                *string             `json:"Description,omitempty"`
	EndDate                    *awsjson.Timestamp  `json:"EndDate,omitempty"`
	FlexibleTimeWindow         *flexibleTimeWindow `json:"FlexibleTimeWindow"`
	GroupName                  string              `json:"GroupName"`
	KmsKeyArn                  *string             `json:"KmsKeyArn,omitempty"`
	LastModificationDate       awsjson.Timestamp   `json:"LastModificationDate"`
	Name                       string              `json:"Name"`
	ScheduleExpression         string              `json:"ScheduleExpression"`
	ScheduleExpressionTimezone string              `json:"ScheduleExpressionTimezone"`
	StartDate                  *awsjson.Timestamp  `json:"StartDate,omitempty"`
	State                      string              `json:"State"`
	Target                     *targetShape        `json:"Target"`
}

type scheduleSummary struct {
	Arn                  string            `json:"Arn"`
	CreationDate         awsjson.Timestamp `json:"CreationDate"`
	GroupName            string            `json:"GroupName"`
	LastModificationDate awsjson.Timestamp `json:"LastModificationDate"`
	Name                 string            `json:"Name"`
	State                string            `json:"State"`
	Target               struct {
		Arn string `json:"Arn"`
	} `json:"Target"`
}

type groupOutput struct {
	Arn                  string            `json:"Arn"`
	CreationDate         awsjson.Timestamp `json:"CreationDate"`
	LastModificationDate awsjson.Timestamp `json:"LastModificationDate"`
	Name                 string            `json:"Name"`
	State                string            `json:"State"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
