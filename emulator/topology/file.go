package topology

import "encoding/json"

// File is a parsed, validated topology file: what Apply creates.
type File struct {
	// Name is the file's name as given to Load or Parse, used in messages.
	Name        string
	EventGrid   *EventGrid
	EventBridge *EventBridge
}

// Source is where the file declares a resource, so that a failure while
// applying it points back at the file.
type Source struct {
	Line  int
	Field string // e.g. "eventgrid.topics[0]"
}

// EventGrid is the eventgrid section: basic topics and namespaces, all in
// one Azure subscription, resource group and location.
type EventGrid struct {
	SubscriptionID string
	ResourceGroup  string
	Location       string
	Topics         []Topic
	Domains        []Domain
	SystemTopics   []SystemTopic
	Namespaces     []Namespace
}

// Domain is an Event Grid domain: a topic's settings, its own event
// subscriptions (on every domain topic) and its domain topics.
type Domain struct {
	Topic
	// AutoCreateTopics and AutoDeleteTopics are
	// autoCreateTopicWithFirstSubscription and
	// autoDeleteTopicWithLastSubscription; nil keeps Azure's default (true).
	AutoCreateTopics, AutoDeleteTopics *bool
	Topics                             []DomainTopic
}

// DomainTopic is a topic of a domain and its event subscriptions.
type DomainTopic struct {
	Source
	Name          string
	Subscriptions []EventSubscription
}

// SystemTopic is a storage account's system topic: its blob events
// (BlobCreated, BlobDeleted) go to its event subscriptions.
type SystemTopic struct {
	Source
	Name string
	// Account is the storage account, one of the emulator's --azure-storage
	// accounts (e.g. devstoreaccount1).
	Account       string
	Subscriptions []EventSubscription
}

// Keys are access keys fixed by the file; an empty one is generated.
type Keys struct {
	Key1, Key2 string
}

func (k Keys) fixed() bool { return k.Key1 != "" || k.Key2 != "" }

// Topic is an Event Grid basic (custom) topic.
type Topic struct {
	Source
	Name string
	// InputSchema is ARM's spelling: EventGridSchema, CloudEventSchemaV1_0
	// or CustomEventSchema.
	InputSchema        string
	InputSchemaMapping json.RawMessage
	Keys               Keys
	Subscriptions      []EventSubscription
}

// EventSubscription is an event subscription of a basic topic.
type EventSubscription struct {
	Source
	Name string
	// Webhook is the endpoint URL of a WebHook destination; otherwise
	// Destination holds the ARM destination object as written.
	Webhook             string
	Destination         json.RawMessage
	EventDeliverySchema string
	Filter              json.RawMessage
	RetryPolicy         *RetryPolicy
	DeadLetter          *DeadLetter
	// SkipValidation creates a WebHook subscription without the validation
	// handshake, for an endpoint that is not up yet when GridBridge starts.
	SkipValidation bool
}

// RetryPolicy is an event subscription's retry policy; a zero member
// keeps Azure's default.
type RetryPolicy struct {
	MaxDeliveryAttempts      int64
	EventTimeToLiveInMinutes int64
}

// DeadLetter is a blob container for an event subscription's dead letters.
type DeadLetter struct {
	Account   string // the storage account, e.g. devstoreaccount1 (Azurite)
	Container string
}

// Namespace is an Event Grid namespace.
type Namespace struct {
	Source
	Name   string
	Keys   Keys
	Topics []NamespaceTopic
}

// NamespaceTopic is a topic of a namespace.
type NamespaceTopic struct {
	Source
	Name                 string
	EventRetentionInDays int64 // 0 keeps the default
	Keys                 Keys
	Subscriptions        []NamespaceSubscription
}

// NamespaceSubscription is an event subscription of a namespace topic.
type NamespaceSubscription struct {
	Source
	Name string
	// DeliveryConfiguration is the ARM deliveryConfiguration object: built
	// from the file's webhook, queue and push fields, or as written.
	DeliveryConfiguration json.RawMessage
	EventDeliverySchema   string
	FiltersConfiguration  json.RawMessage
	// SkipValidation creates a push subscription without the webhook
	// handshake, for an application that starts after the emulator.
	SkipValidation bool
}

// EventBridge is the eventbridge section: classic buses with their rules
// and targets, and event buses v2 with their subscribers, all in one
// account and region.
type EventBridge struct {
	Region  string
	Account string
	Buses   []Bus
	V2Buses []V2Bus
	// ScheduleGroups are EventBridge Scheduler's groups and schedules.
	ScheduleGroups []ScheduleGroup
	// Pipes are EventBridge Pipes' pipes.
	Pipes []Pipe
}

// Bus is a classic event bus; "default" exists already and is not created.
type Bus struct {
	Source
	Name        string
	Description string
	Rules       []Rule
}

// Rule is a rule of a classic bus.
type Rule struct {
	Source
	Name               string
	Description        string
	State              string
	EventPattern       string // JSON text
	ScheduleExpression string
	RoleArn            string
	Targets            []Target
}

// Target is a target of a rule.
type Target struct {
	Source
	ID  string
	Arn string
	// Members are the target's members as the PutTargets API names them,
	// Id and Arn included, ready to send.
	Members map[string]json.RawMessage
}

// V2Bus is an event bus v2.
type V2Bus struct {
	Source
	Name                     string
	Description              string
	RetentionPeriodInSeconds int64 // 0 keeps the default
	Subscribers              []Subscriber
}

// Subscriber is a subscriber of an event bus v2.
type Subscriber struct {
	Source
	Name string
	// Members are the CreateSubscriber members as the API names them, Name
	// included; Apply adds EventBusArn.
	Members map[string]json.RawMessage
}

// ScheduleGroup is an EventBridge Scheduler schedule group; "default"
// exists already and is not created.
type ScheduleGroup struct {
	Source
	Name      string
	Tags      json.RawMessage // a JSON object of text, or nil
	Schedules []Schedule
}

// Schedule is a schedule of a group.
type Schedule struct {
	Source
	Name string
	// Members are the CreateSchedule members as the API names them,
	// without Name; Apply adds GroupName.
	Members map[string]json.RawMessage
}

// Pipe is an EventBridge pipe.
type Pipe struct {
	Source
	Name string
	// Members are the CreatePipe members as the API names them, without
	// Name (the request's path).
	Members map[string]json.RawMessage
}
