package eventbridge

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// Wire shapes shared by several operations. Member names are the model's,
// exactly: the SDKs match them case-sensitively and drop anything else.

// logConfig is an event bus's logging configuration.
type logConfig struct {
	IncludeDetail *string `json:"IncludeDetail,omitempty"`
	Level         *string `json:"Level,omitempty"`
}

// timestamp renders an instant as the wire's epoch seconds.
var timestamp = awsjson.NewTimestamp

// timestamps are when a resource was created and last changed, as its
// Describe* and List* answers show them.
type timestamps struct {
	CreationTime     *awsjson.Timestamp `json:"CreationTime,omitempty"`
	LastModifiedTime *awsjson.Timestamp `json:"LastModifiedTime,omitempty"`
}

func timesOf(created, modified time.Time) timestamps {
	return timestamps{CreationTime: timestamp(created), LastModifiedTime: timestamp(modified)}
}

// stateWithReason is an archive's or a replay's state and why it is in it.
type stateWithReason struct {
	State       string  `json:"State"`
	StateReason *string `json:"StateReason,omitempty"`
}

// Paging members of every List* operation.
type pageInput struct {
	NextToken *string `json:"NextToken"`
	Limit     *int32  `json:"Limit"`
}
