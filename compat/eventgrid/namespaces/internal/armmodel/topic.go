package armmodel

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// Topic is a namespace topic as stored and returned. It has no location or
// tags.
type Topic struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Properties TopicProperties `json:"properties"`
	SystemData *SystemData     `json:"systemData,omitempty"`
}

// TopicProperties are a topic's settings.
type TopicProperties struct {
	ProvisioningState    string `json:"provisioningState"`
	PublisherType        string `json:"publisherType"`
	InputSchema          string `json:"inputSchema"`
	EventRetentionInDays int    `json:"eventRetentionInDays"`
}

// Retention is how long the topic keeps an event: it caps every
// subscription's time to live.
func (t Topic) Retention() time.Duration {
	return time.Duration(t.Properties.EventRetentionInDays) * 24 * time.Hour
}

// DefaultRetentionDays is eventRetentionInDays when none is given [DOC: 1..7,
// default 7].
const DefaultRetentionDays = 7

type topicBody struct {
	Properties *struct {
		PublisherType        *string `json:"publisherType"`
		InputSchema          *string `json:"inputSchema"`
		EventRetentionInDays *int    `json:"eventRetentionInDays"`
	} `json:"properties"`
}

// NewTopic reads a PUT body; the caller sets ID, Name and SystemData.
func NewTopic(body []byte) (Topic, *arm.Error) {
	t := Topic{Type: TypeTopic, Properties: TopicProperties{
		ProvisioningState: ProvisioningSucceeded, PublisherType: "Custom",
		InputSchema: "CloudEventSchemaV1_0", EventRetentionInDays: DefaultRetentionDays,
	}}
	if err := t.Patch(body); err != nil {
		return Topic{}, err
	}
	return t, nil
}

// Patch merges a PUT or PATCH body into t. Only eventRetentionInDays is
// updatable in the API, but the other two have a single value each, so
// accepting them again is harmless.
func (t *Topic) Patch(body []byte) *arm.Error {
	var req topicBody
	if err := decode(body, &req); err != nil {
		return err
	}
	p := req.Properties
	if p == nil {
		return nil
	}
	c := *t
	if p.PublisherType != nil {
		v, ok := canonical(*p.PublisherType, "Custom")
		if !ok {
			return arm.BadRequest("The publisherType '%s' is not supported: the only value is Custom.", *p.PublisherType)
		}
		c.Properties.PublisherType = v
	}
	if p.InputSchema != nil {
		v, ok := canonical(*p.InputSchema, "CloudEventSchemaV1_0")
		if !ok {
			return arm.BadRequest("The inputSchema '%s' is not supported: namespace topics accept CloudEventSchemaV1_0 only.", *p.InputSchema)
		}
		c.Properties.InputSchema = v
	}
	if d := p.EventRetentionInDays; d != nil {
		if *d < 1 || *d > 7 {
			return arm.BadRequest("The eventRetentionInDays value %d is out of range: it must be between 1 and 7.", *d)
		}
		c.Properties.EventRetentionInDays = *d
	}
	*t = c
	return nil
}
