package eventbridge

import "github.com/gridbridge/gridbridge/compat/aws/awsjson"

// busSettings are the settings of an event bus that CreateEventBus and
// UpdateEventBus take and give back. In a request, omitempty changes
// nothing: an absent member stays nil.
type busSettings struct {
	Description      *string                   `json:"Description,omitempty"`
	KmsKeyIdentifier *string                   `json:"KmsKeyIdentifier,omitempty"`
	DeadLetterConfig *awsjson.DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	LogConfig        *logConfig                `json:"LogConfig,omitempty"`
}

type createEventBusInput struct {
	Name            *string `json:"Name"`
	EventSourceName *string `json:"EventSourceName"`
	busSettings
	Tags []awsjson.Tag `json:"Tags"`
}

type createEventBusOutput struct {
	EventBusArn string `json:"EventBusArn"`
	busSettings
}

type updateEventBusInput struct {
	Name *string `json:"Name"`
	busSettings
}

type updateEventBusOutput struct {
	Arn  string `json:"Arn"`
	Name string `json:"Name"`
	busSettings
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
	timestamps
}

type listEventBusesInput struct {
	pageInput
	NamePrefix *string `json:"NamePrefix"`
}

type eventBusItem struct {
	Name        string  `json:"Name"`
	Arn         string  `json:"Arn"`
	Description *string `json:"Description,omitempty"`
	Policy      *string `json:"Policy,omitempty"`
	timestamps
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
