package awsjson

// Wire shapes that EventBridge, EventBridge's second API (eventsv2) and
// Scheduler declare alike in their models: one Go type each, so a member
// added or renamed in one model cannot drift from the others. Members are
// pointers so that "absent" and "zero" stay apart, and a response leaves
// out what is not set.

// Tag is a resource tag.
type Tag struct {
	Key   *string `json:"Key,omitempty"`
	Value *string `json:"Value,omitempty"`
}

// DeadLetterConfig names an SQS queue by ARN (a target's DeadLetterConfig,
// a subscriber's OnFailureConfiguration).
type DeadLetterConfig struct {
	Arn *string `json:"Arn,omitempty"`
}

// SQSParameters carry the FIFO message group of an SQS target.
type SQSParameters struct {
	MessageGroupId *string `json:"MessageGroupId,omitempty"`
}

// RetryPolicy is a target's retry limits.
type RetryPolicy struct {
	MaximumRetryAttempts     *int32 `json:"MaximumRetryAttempts,omitempty"`
	MaximumEventAgeInSeconds *int32 `json:"MaximumEventAgeInSeconds,omitempty"`
}

// InputTransformer is a target's template and the paths that fill it.
type InputTransformer struct {
	InputPathsMap map[string]string `json:"InputPathsMap,omitempty"`
	InputTemplate *string           `json:"InputTemplate,omitempty"`
}
