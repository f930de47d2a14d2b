package eventbridge

import "github.com/gridbridge/gridbridge/compat/eventbridge/awsjson"

// Wire shapes shared by several operations. Member names are the model's,
// exactly: the SDKs match them case-sensitively and drop anything else.

// logConfig is an event bus's logging configuration.
type logConfig struct {
	IncludeDetail *string `json:"IncludeDetail,omitempty"`
	Level         *string `json:"Level,omitempty"`
}

// timestamp renders an instant as the wire's epoch seconds.
var timestamp = awsjson.NewTimestamp

// Paging members of every List* operation.
type pageInput struct {
	NextToken *string `json:"NextToken"`
	Limit     *int32  `json:"Limit"`
}
