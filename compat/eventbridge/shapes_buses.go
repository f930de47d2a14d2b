package eventbridge

import "github.com/gridbridge/gridbridge/compat/eventbridge/awsjson"

type createEventBusInput struct {
	Name             *string                   `json:"Name"`
	EventSourceName  *string                   `json:"EventSourceName"`
	Description      *string                   `json:"Description"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig"`
	LogConfig        *logConfig                `json:"LogConfig"`
	Tags             []awsjson.Tag             `json:"Tags"`
}

type createEventBusOutput struct {
	EventBusArn      string                    `json:"EventBusArn"`
	Description      *string                   `json:"Description,omitempty"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier,omitempty"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	LogConfig        *logConfig                `json:"LogConfig,omitempty"`
}

type updateEventBusInput struct {
	Name             *string                   `json:"Name"`
	Description      *string                   `json:"Description"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig"`
	LogConfig        *logConfig                `json:"LogConfig"`
}

type updateEventBusOutput struct {
	Arn              string                    `json:"Arn"`
	Name             string                    `json:"Name"`
	Description      *string                   `json:"Description,omitempty"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier,omitempty"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	LogConfig        *logConfig                `json:"LogConfig,omitempty"`
}

type nameInput struct {
	Name *string `json:"Name"`
}

type describeEventBusOutput struct {
	Name             string                    `json:"Name"`
	Arn              string                    `json:"Arn"`
	Description      *string                   `json:"Description,omitempty"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier,omitempty"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	Policy           *string                   `json:"Policy,omitempty"`
	LogConfig        *logConfig                `json:"LogConfig,omitempty"`
	CreationTime     *awsjson.Timestamp        `json:"CreationTime,omitempty"`
	LastModifiedTime *awsjson.Timestamp        `json:"LastModifiedTime,omitempty"`
}

type listEventBusesInput struct {
	pageInput
	NamePrefix *string `json:"NamePrefix"`
}

type eventBusItem struct {
	Name             string             `json:"Name"`
	Arn              string             `json:"Arn"`
	Description      *string            `json:"Description,omitempty"`
	Policy           *string            `json:"Policy,omitempty"`
	CreationTime     *awsjson.Timestamp `json:"CreationTime,omitempty"`
	LastModifiedTime *awsjson.Timestamp `json:"LastModifiedTime,omitempty"`
}

type listEventBusesOutput struct {
	EventBuses []eventBusItem `json:"EventBuses"`
	NextToken  *string        `json:"NextToken,omitempty"`
}

type putPermissionInput struct {
	EventBusName *string         `json:"EventBusName"`
	Action       *string         `json:"Action"`
	Principal    *string         `json:"Principal"`
	StatementId  *string         `json:"StatementId"`
	Condition    *permissionCond `json:"Condition"`
	Policy       *string         `json:"Policy"`
}

type permissionCond struct {
	Type  *string `json:"Type"`
	Key   *string `json:"Key"`
	Value *string `json:"Value"`
}

type removePermissionInput struct {
	EventBusName         *string `json:"EventBusName"`
	StatementId          *string `json:"StatementId"`
	RemoveAllPermissions bool    `json:"RemoveAllPermissions"`
}
