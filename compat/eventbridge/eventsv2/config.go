package eventsv2

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
)

// Limits and defaults of a subscriber.
const (
	// RetryPolicy (EB-2).
	minRetryAttempts     = 0
	maxRetryAttempts     = 185
	defaultRetryAttempts = 5
	minEventAgeSeconds   = 60
	maxEventAgeSeconds   = 86_400
	defaultEventAgeSecs  = 300

	// InvokeConfiguration. The seed names neither range; these are
	// GridBridge's.
	minInvocationTimeoutSeconds     = 1
	maxInvocationTimeoutSeconds     = 300
	defaultInvocationTimeoutSeconds = 30
	minBatchSize                    = 1
	maxBatchSize                    = 10
	defaultBatchSize                = 1

	maxFilters        = 10
	maxPatternLength  = 4096
	maxTargetArnLen   = 1600
	maxDescriptionLen = 512
	maxInputPathLen   = 256
	maxTemplateLen    = 8192
	maxPathsMapSize   = 100
)

// Starting positions and filter scopes (EB-D1).
const (
	StartingLatest      = "LATEST"
	StartingPointInTime = "POINT_IN_TIME"
	PointTypeTimestamp  = "TIMESTAMP"
	ScopeEvent          = "EVENT"
	ScopeSystemMetadata = "SYSTEM_METADATA"
)

// subscriberConfig is a subscriber's validated settings. It is never
// modified: an update builds a new one, so a delivery in flight keeps a
// consistent view.
type subscriberConfig struct {
	description      string
	startingPosition string
	window           *replayWindow // POINT_IN_TIME only
	filters          []compiledFilter
	invoke           invokeSettings
	maxRetries       int
	maxAge           time.Duration
	deadLetterArn    string // "" means none: give-ups are dropped (EB-1)
}

// fifo reports whether the subscriber keeps EventGroupId order (EB-4): its
// target or its dead-letter queue is a FIFO queue.
func (c *subscriberConfig) fifo() bool {
	return isFIFOQueueARN(c.invoke.targetArn) || isFIFOQueueARN(c.deadLetterArn)
}

// replayWindow bounds which ingestion times a POINT_IN_TIME subscriber
// delivers. Both ends are inclusive and compared to the second: a dead-letter
// record's timestamps are whole seconds, and EB-12 builds the window from
// them.
type replayWindow struct {
	start time.Time
	end   time.Time
	open  bool // no EndPoint: the subscriber goes on with live events
}

func (w *replayWindow) contains(ingested time.Time) bool {
	t := ingested.Truncate(time.Second)
	if t.Before(w.start.Truncate(time.Second)) {
		return false
	}
	return w.open || !t.After(w.end.Truncate(time.Second))
}

// compiledFilter is one entry of FilterConfiguration.
type compiledFilter struct {
	scope   string
	source  string
	pattern *pattern.Pattern
}

// invokeSettings is InvokeConfiguration with defaults filled.
type invokeSettings struct {
	targetArn   string
	roleArn     string
	timeout     time.Duration
	maxBatch    int
	input       string // a JSONPath; "" delivers the whole event
	transformer *transform.Transformer
}

// describe writes the configuration back in wire form.
func (c *subscriberConfig) describe(sub *subscriber) subscriberShape {
	out := subscriberShape{
		SubscriberArn:    sub.arn,
		Name:             sub.name,
		EventBusArn:      sub.bus.arn,
		Description:      c.description,
		StartingPosition: c.startingPosition,
		subscriberSettings: subscriberSettings{
			InvokeConfiguration: &invokeConfigurationShape{
				TargetArn:                ptr(c.invoke.targetArn),
				InvocationTimeoutSeconds: ptr(int32(c.invoke.timeout / time.Second)),
				MaxBatchSize:             ptr(int32(c.invoke.maxBatch)),
			},
			RetryPolicy: &retryPolicyShape{
				MaxRetryAttempts:     ptr(int32(c.maxRetries)),
				MaxEventAgeInSeconds: ptr(int32(c.maxAge / time.Second)),
			},
		},
		wireTimes: newWireTimes(sub.created, sub.modified),
	}
	inv := out.InvokeConfiguration
	if c.invoke.roleArn != "" {
		inv.RoleArn = ptr(c.invoke.roleArn)
	}
	if c.invoke.input != "" {
		inv.Input = ptr(c.invoke.input)
	}
	if t := c.invoke.transformer; t != nil {
		inv.Transformer = &awsjson.InputTransformer{InputPathsMap: t.PathsMap, InputTemplate: ptr(t.Template)}
	}
	if c.window != nil {
		p := &pointInTimeShape{PointType: ptr(PointTypeTimestamp), StartingPoint: newWireTime(c.window.start)}
		if !c.window.open {
			p.EndPoint = newWireTime(c.window.end)
		}
		out.PointInTimeConfiguration = p
	}
	if len(c.filters) > 0 {
		fc := &filterConfigurationShape{Filters: make([]filterShape, len(c.filters))}
		for i, f := range c.filters {
			fc.Filters[i] = filterShape{Scope: ptr(f.scope), Pattern: ptr(f.source)}
		}
		out.FilterConfiguration = fc
	}
	if c.deadLetterArn != "" {
		out.OnFailureConfiguration = &awsjson.DeadLetterConfig{Arn: ptr(c.deadLetterArn)}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
