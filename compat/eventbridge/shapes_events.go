package eventbridge

import "github.com/gridbridge/gridbridge/compat/aws/awsjson"

type putEventsEntry struct {
	Time         *awsjson.Timestamp `json:"Time"`
	Source       *string            `json:"Source"`
	Resources    []string           `json:"Resources"`
	DetailType   *string            `json:"DetailType"`
	Detail       *string            `json:"Detail"`
	EventBusName *string            `json:"EventBusName"`
	TraceHeader  *string            `json:"TraceHeader"`
}

type putEventsInput struct {
	Entries    []*putEventsEntry `json:"Entries"`
	EndpointId *string           `json:"EndpointId"`
}

type putEventsResultEntry struct {
	EventId      *string `json:"EventId,omitempty"`
	ErrorCode    *string `json:"ErrorCode,omitempty"`
	ErrorMessage *string `json:"ErrorMessage,omitempty"`
}

type putEventsOutput struct {
	FailedEntryCount int                    `json:"FailedEntryCount"`
	Entries          []putEventsResultEntry `json:"Entries"`
}

type testEventPatternInput struct {
	EventPattern *string `json:"EventPattern"`
	Event        *string `json:"Event"`
}

type testEventPatternOutput struct {
	Result bool `json:"Result"`
}

type tagResourceInput struct {
	ResourceARN *string       `json:"ResourceARN"`
	Tags        []awsjson.Tag `json:"Tags"`
	TagKeys     []*string     `json:"TagKeys"`
}

type listTagsOutput struct {
	Tags []awsjson.Tag `json:"Tags"`
}
