package eventgrid

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
)

// armHooks is the face's basic topics as the ARM handler (basicarm) sees
// them: what a stored or removed resource does to delivery routes, timers
// and storage watchers.
type armHooks basicTopics

func (h *armHooks) svc() *basicTopics { return (*basicTopics)(h) }

func (h *armHooks) Now() time.Time { return h.clock.Now() }
func (h *armHooks) NewID() string  { return uuid.NewString() }
func (h *armHooks) NewKey() string { return arm.NewKey() }
func (h *armHooks) TopicEndpoint(t *resource.Topic) string {
	return h.svc().topicEndpoint(t)
}

func (h *armHooks) Provision(ctx context.Context, t *resource.Topic, sub, prev *resource.EventSubscription) *arm.Error {
	return h.svc().provision(ctx, t, sub, prev)
}

// SubscriptionStored puts the delivery route of a provisioned subscription
// (or takes it away while validation is pending) and arms its timers.
func (h *armHooks) SubscriptionStored(t *resource.Topic, sub, _ *resource.EventSubscription) {
	s := h.svc()
	if sub.ProvisioningState == resource.StateSucceeded {
		s.cfg.Engine.PutRoute(s.route(t, sub))
	} else {
		s.cfg.Engine.RemoveRoute(routeID(t, sub), "EventSubscriptionNotProvisioned")
	}
	s.armExpiry(t, sub)
	s.armValidationWindow(t, sub)
}

// SubscriptionsRemoved removes the routes of deleted subscriptions; events
// they still held are journalled as dropped with the reason (D-DROP).
func (h *armHooks) SubscriptionsRemoved(t *resource.Topic, subs []*resource.EventSubscription, reason string) {
	s := h.svc()
	for _, sub := range subs {
		s.cfg.Engine.RemoveRoute(routeID(t, sub), reason)
		s.forget(t, sub)
	}
}
