package eventgrid

import (
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Reason journalled for events held by a subscription that expired.
const reasonSubscriptionExpired = "EventSubscriptionExpired"

func expiryKey(t *resource.Topic, sub *resource.EventSubscription) string {
	return "expiry:" + routeID(t, sub)
}

func windowKey(t *resource.Topic, sub *resource.EventSubscription) string {
	return "validation:" + routeID(t, sub)
}

// setTimer replaces the timer under key (nil arm: just stop it). Timers run
// on the emulator clock, so a test sees expiry by advancing it.
func (s *basicTopics) setTimer(key string, arm func() engine.Timer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.timers[key]; ok {
		old.Stop()
		delete(s.timers, key)
	}
	if arm != nil {
		s.timers[key] = arm()
	}
}

// armExpiry deletes the subscription when expirationTimeUtc passes on the
// emulator clock. Every store re-arms it, so the timer that fires is the
// latest; it still checks the stored value, which a concurrent update may
// have changed.
func (s *basicTopics) armExpiry(t *resource.Topic, sub *resource.EventSubscription) {
	if sub.ExpirationTimeUTC == nil {
		s.setTimer(expiryKey(t, sub), nil)
		return
	}
	wait := sub.ExpirationTimeUTC.Sub(s.clock.Now())
	s.setTimer(expiryKey(t, sub), func() engine.Timer {
		return s.clock.AfterFunc(wait, func() {
			cur := s.store.Subscription(sub.TopicID, sub.Name)
			if cur == nil || cur.ExpirationTimeUTC == nil || cur.ExpirationTimeUTC.After(s.clock.Now()) {
				return
			}
			if gone := s.store.DeleteSubscription(sub.TopicID, sub.Name, cur); gone != nil {
				(*armHooks)(s).SubscriptionsRemoved(t, []*resource.EventSubscription{gone}, reasonSubscriptionExpired)
			}
		})
	})
}

// armValidationWindow fails a subscription whose manual validation did not
// come within five minutes of cloud time (W-EG-3.3).
func (s *basicTopics) armValidationWindow(t *resource.Topic, sub *resource.EventSubscription) {
	if sub.ProvisioningState != resource.StateAwaitingManualAction {
		s.setTimer(windowKey(t, sub), nil)
		return
	}
	s.setTimer(windowKey(t, sub), func() engine.Timer {
		return s.clock.AfterFunc(manualValidationWindow, func() {
			cur := s.store.Subscription(sub.TopicID, sub.Name)
			if cur == nil || cur.ValidationCode != sub.ValidationCode || cur.ProvisioningState != resource.StateAwaitingManualAction {
				return
			}
			failed := *cur
			failed.ProvisioningState = resource.StateFailed
			s.store.PutSubscription(&failed, cur)
		})
	})
}

// forget stops a removed subscription's timers.
func (s *basicTopics) forget(t *resource.Topic, sub *resource.EventSubscription) {
	s.setTimer(expiryKey(t, sub), nil)
	s.setTimer(windowKey(t, sub), nil)
}
