package awsjson

// The members an EventBridge rule's target and a Scheduler schedule's
// target share, in both models' order: two groups, because EventBridge puts
// InputPath and InputTransformer between them.

// TargetDelivery is how a target is delivered to: its retry limits, the
// queue failed events go to, and an SQS target's message group.
type TargetDelivery struct {
	RetryPolicy      *RetryPolicy      `json:"RetryPolicy,omitempty"`
	DeadLetterConfig *DeadLetterConfig `json:"DeadLetterConfig,omitempty"`
	SqsParameters    *SQSParameters    `json:"SqsParameters,omitempty"`
}

// MessageGroup is the message group an SQS target sends with, "" for none
// (a FIFO queue needs one).
func (d *TargetDelivery) MessageGroup() string {
	if d.SqsParameters == nil || d.SqsParameters.MessageGroupId == nil {
		return ""
	}
	return *d.SqsParameters.MessageGroupId
}

// DeadLetterArn is the ARN of the queue failed events go to, "" for none.
func (d *TargetDelivery) DeadLetterArn() string {
	if d.DeadLetterConfig == nil || d.DeadLetterConfig.Arn == nil {
		return ""
	}
	return *d.DeadLetterConfig.Arn
}

// TargetInvocation is what a target invokes: the resource, the role it
// assumes, and a constant input.
type TargetInvocation struct {
	Arn     *string `json:"Arn,omitempty"`
	RoleArn *string `json:"RoleArn,omitempty"`
	Input   *string `json:"Input,omitempty"`
}
