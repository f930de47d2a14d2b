// Package orderservice is a small order service that announces every placed
// order on both clouds: as an Orders.Placed event on an Azure Event Grid
// topic and on an Amazon EventBridge bus. It is the example of how to test
// such a service against GridBridge: its configuration holds only endpoints
// and keys, so the tests point it at the emulator without changing its code.
package orderservice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

// What the service publishes.
const (
	EventType = "Orders.Placed" // Event Grid eventType and EventBridge detail-type
	Source    = "shop.orders"   // EventBridge source
)

// Config is where the service publishes.
type Config struct {
	// TopicEndpoint and TopicKey are the Event Grid topic's publish URL and
	// one of its access keys (ARM: properties.endpoint and listKeys).
	TopicEndpoint, TopicKey string
	// HTTPClient sends the Event Grid requests; nil means the SDK's default.
	// Tests give one that trusts the emulator's certificate authority.
	HTTPClient *http.Client

	// EventBus is the EventBridge bus's name or ARN.
	EventBus string
	// AWS reaches EventBridge: config.LoadDefaultConfig in production, the
	// emulator's endpoint and test credentials in tests.
	AWS aws.Config
}

// Service places orders.
type Service struct {
	topic *azeventgrid.Client
	bus   *eventbridge.Client
	name  string
}

// New returns a Service publishing where cfg says.
func New(cfg Config) (*Service, error) {
	if cfg.TopicEndpoint == "" || cfg.TopicKey == "" || cfg.EventBus == "" {
		return nil, errors.New("orderservice: TopicEndpoint, TopicKey and EventBus are required")
	}
	var opts azeventgrid.ClientOptions
	if cfg.HTTPClient != nil {
		opts.ClientOptions = policy.ClientOptions{Transport: cfg.HTTPClient}
	}
	topic, err := azeventgrid.NewClientWithSharedKeyCredential(cfg.TopicEndpoint, azcore.NewKeyCredential(cfg.TopicKey), &opts)
	if err != nil {
		return nil, fmt.Errorf("orderservice: Event Grid client: %w", err)
	}
	return &Service{topic: topic, bus: eventbridge.NewFromConfig(cfg.AWS), name: cfg.EventBus}, nil
}

// Order is what a customer ordered.
type Order struct {
	ID       string `json:"id"`
	Customer string `json:"customer"`
	// TotalCents is the order's total, in cents.
	TotalCents int `json:"totalCents"`
}

// PlaceOrder accepts an order and announces it on both clouds. The order's
// ID is the Event Grid event's id, so subscribers can deduplicate.
func (s *Service) PlaceOrder(ctx context.Context, order Order) error {
	if order.ID == "" || order.TotalCents <= 0 {
		return fmt.Errorf("orderservice: order %q needs an ID and a positive total", order.ID)
	}
	// … store the order …
	if err := s.publishToEventGrid(ctx, order); err != nil {
		return err
	}
	return s.publishToEventBridge(ctx, order)
}

func (s *Service) publishToEventGrid(ctx context.Context, order Order) error {
	now := time.Now().UTC()
	_, err := s.topic.PublishEvents(ctx, []azeventgrid.Event{{
		ID:          &order.ID,
		EventType:   to.Ptr(EventType),
		Subject:     to.Ptr("orders/" + order.ID),
		DataVersion: to.Ptr("1.0"),
		EventTime:   &now,
		Data:        order,
	}}, nil)
	if err != nil {
		return fmt.Errorf("orderservice: publishing order %s to Event Grid: %w", order.ID, err)
	}
	return nil
}

func (s *Service) publishToEventBridge(ctx context.Context, order Order) error {
	detail, err := json.Marshal(order)
	if err != nil {
		return err
	}
	out, err := s.bus.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []types.PutEventsRequestEntry{{
		EventBusName: aws.String(s.name),
		Source:       aws.String(Source),
		DetailType:   aws.String(EventType),
		Detail:       aws.String(string(detail)),
	}}})
	if err != nil {
		return fmt.Errorf("orderservice: publishing order %s to EventBridge: %w", order.ID, err)
	}
	// PutEvents answers 200 even when an entry is refused.
	if out.FailedEntryCount > 0 {
		e := out.Entries[0]
		return fmt.Errorf("orderservice: EventBridge refused order %s: %s: %s",
			order.ID, aws.ToString(e.ErrorCode), aws.ToString(e.ErrorMessage))
	}
	return nil
}
