package eventsv2

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// The request and response bodies, member for member as
// v2model's service-2.json declares them (model_test.go checks it). Request
// members are pointers so that "absent" and "zero" stay apart; responses
// leave out what is not set.

// wireTime is a timestamp member. The AWS CLI sends epoch seconds (that is
// what a JSON-protocol model's timestamp shape serialises to), and every
// response carries epoch seconds; an RFC 3339 string is accepted as well, for
// requests written by hand.
type wireTime struct{ awsjson.Timestamp }

func newWireTime(t time.Time) *wireTime {
	if t.IsZero() {
		return nil
	}
	return &wireTime{awsjson.Timestamp{Time: t.UTC()}}
}

// UnmarshalJSON accepts epoch seconds or an RFC 3339 string.
func (t *wireTime) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		parsed, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
		if err != nil {
			return &json.UnmarshalTypeError{Value: "string " + s, Type: reflect.TypeOf(t).Elem()}
		}
		t.Time = parsed.UTC()
		return nil
	}
	return t.Timestamp.UnmarshalJSON(b)
}

// wireTimes are when a bus or a subscriber was created and last changed.
type wireTimes struct {
	CreationTime     *wireTime `json:"CreationTime,omitempty"`
	LastModifiedTime *wireTime `json:"LastModifiedTime,omitempty"`
}

func newWireTimes(created, modified time.Time) wireTimes {
	return wireTimes{CreationTime: newWireTime(created), LastModifiedTime: newWireTime(modified)}
}

// ---- event buses

type createEventBusInput struct {
	Name                     *string `json:"Name"`
	Description              *string `json:"Description"`
	RetentionPeriodInSeconds *int64  `json:"RetentionPeriodInSeconds"`
}

// nameInput is the input of DescribeEventBus, DeleteEventBus,
// DescribeSubscriber and DeleteSubscriber: a name or an ARN.
type nameInput struct {
	Name *string `json:"Name"`
}

// pageInput are the paging members of ListEventBuses and ListSubscribers.
type pageInput struct {
	NamePrefix *string `json:"NamePrefix"`
	NextToken  *string `json:"NextToken"`
	MaxResults *int32  `json:"MaxResults"`
}

type listEventBusesInput struct {
	pageInput
}

type eventBusShape struct {
	EventBusArn              string `json:"EventBusArn,omitempty"`
	Name                     string `json:"Name,omitempty"`
	Description              string `json:"Description,omitempty"`
	RetentionPeriodInSeconds int64  `json:"RetentionPeriodInSeconds,omitempty"`
	wireTimes
}

type listEventBusesOutput struct {
	EventBuses []eventBusShape `json:"EventBuses"`
	NextToken  string          `json:"NextToken,omitempty"`
}

// emptyOutput answers operations without output members.
type emptyOutput struct{}

// ---- PutEvents

type putEventsInput struct {
	Entries []putEventsEntry `json:"Entries"`
}

type putEventsEntry struct {
	EventBusArn     *string   `json:"EventBusArn"`
	Source          *string   `json:"Source"`
	DetailType      *string   `json:"DetailType"`
	Detail          *string   `json:"Detail"`
	Time            *wireTime `json:"Time"`
	Resources       []string  `json:"Resources"`
	EventGroupId    *string   `json:"EventGroupId"`
	DeduplicationId *string   `json:"DeduplicationId"`
	TraceHeader     *string   `json:"TraceHeader"`
}

type putEventsOutput struct {
	FailedEntryCount int               `json:"FailedEntryCount"`
	Entries          []putEventsResult `json:"Entries"`
}

type putEventsResult struct {
	EventId      string `json:"EventId,omitempty"`
	ErrorCode    string `json:"ErrorCode,omitempty"`
	ErrorMessage string `json:"ErrorMessage,omitempty"`
}

// ---- subscribers

// subscriberSettings are the members CreateSubscriber and UpdateSubscriber
// set and a subscriber's description gives back. In a request omitempty
// changes nothing: an absent member stays nil.
type subscriberSettings struct {
	FilterConfiguration    *filterConfigurationShape `json:"FilterConfiguration,omitempty"`
	InvokeConfiguration    *invokeConfigurationShape `json:"InvokeConfiguration,omitempty"`
	RetryPolicy            *retryPolicyShape         `json:"RetryPolicy,omitempty"`
	OnFailureConfiguration *awsjson.DeadLetterConfig `json:"OnFailureConfiguration,omitempty"`
}

type createSubscriberInput struct {
	Name                     *string           `json:"Name"`
	EventBusArn              *string           `json:"EventBusArn"`
	Description              *string           `json:"Description"`
	StartingPosition         *string           `json:"StartingPosition"`
	PointInTimeConfiguration *pointInTimeShape `json:"PointInTimeConfiguration"`
	subscriberSettings
}

type updateSubscriberInput struct {
	Name        *string `json:"Name"`
	Description *string `json:"Description"`
	subscriberSettings
}

type listSubscribersInput struct {
	EventBusArn *string `json:"EventBusArn"`
	pageInput
}

type listSubscribersOutput struct {
	Subscribers []subscriberShape `json:"Subscribers"`
	NextToken   string            `json:"NextToken,omitempty"`
}

// subscriberShape describes a subscriber with every setting in effect,
// defaults included.
type subscriberShape struct {
	SubscriberArn            string            `json:"SubscriberArn,omitempty"`
	Name                     string            `json:"Name,omitempty"`
	EventBusArn              string            `json:"EventBusArn,omitempty"`
	Description              string            `json:"Description,omitempty"`
	StartingPosition         string            `json:"StartingPosition,omitempty"`
	PointInTimeConfiguration *pointInTimeShape `json:"PointInTimeConfiguration,omitempty"`
	subscriberSettings
	wireTimes
}

type pointInTimeShape struct {
	PointType     *string   `json:"PointType,omitempty"`
	StartingPoint *wireTime `json:"StartingPoint,omitempty"`
	EndPoint      *wireTime `json:"EndPoint,omitempty"`
}

type filterConfigurationShape struct {
	Filters []filterShape `json:"Filters"`
}

type filterShape struct {
	Scope   *string `json:"Scope,omitempty"`
	Pattern *string `json:"Pattern,omitempty"`
}

type invokeConfigurationShape struct {
	TargetArn                *string                   `json:"TargetArn,omitempty"`
	RoleArn                  *string                   `json:"RoleArn,omitempty"`
	InvocationTimeoutSeconds *int32                    `json:"InvocationTimeoutSeconds,omitempty"`
	MaxBatchSize             *int32                    `json:"MaxBatchSize,omitempty"`
	Input                    *string                   `json:"Input,omitempty"`
	Transformer              *awsjson.InputTransformer `json:"Transformer,omitempty"`
}

type retryPolicyShape struct {
	MaxRetryAttempts     *int32 `json:"MaxRetryAttempts,omitempty"`
	MaxEventAgeInSeconds *int32 `json:"MaxEventAgeInSeconds,omitempty"`
}
