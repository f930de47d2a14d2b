package retry

import (
	"sync"
	"time"
)

// Hold states as the engine's inspection API shows them for a route.
const (
	HoldProbation       = "Probation"
	HoldDelayedDelivery = "DelayedDelivery"
)

// ProbationDuration is how long a failure with this EG-24 outcome puts the
// subscription on probation (EG-18); 0 for outcomes that cause none.
// BadRequest and PayloadTooLarge are about one event, not the destination,
// so they cause none.
func ProbationDuration(outcome string) time.Duration {
	switch outcome {
	case OutcomeBusy, OutcomeTimedOut:
		return 10 * time.Second
	case OutcomeSocketError:
		return 30 * time.Second
	case OutcomeNotFound, OutcomeResolutionError, OutcomeDisabled, OutcomeFull,
		OutcomeUnauthorized, OutcomeForbidden:
		return 5 * time.Minute
	case OutcomeInvalidAzureFunctionDestination:
		return 10 * time.Minute
	default:
		return 0
	}
}

// Delayed delivery (EG-17). The seed gives one example ("if the first 10
// events published to an endpoint fail") and a bound ("up to hours in some
// cases"); the rest is GridBridge's decision, kept in these constants:
//   - the streak counts events (batches), not attempts: a batch counts once,
//     when its first attempt fails; a success reported through
//     Policy.Observe ends the streak;
//   - from the DelayedDeliveryThreshold-th failing event on, every failure
//     holds all deliveries and retries of the subscription for
//     DelayedDeliveryBase, doubled for every further DelayedDeliveryThreshold
//     failing events, up to DelayedDeliveryMax.
const (
	DelayedDeliveryThreshold = 10
	DelayedDeliveryBase      = time.Minute
	DelayedDeliveryMax       = 2 * time.Hour
)

// DelayedDeliveryHold is how long deliveries are held after a failure when
// failingEvents events have failed in a row (0 below the threshold).
func DelayedDeliveryHold(failingEvents int) time.Duration {
	if failingEvents < DelayedDeliveryThreshold {
		return 0
	}
	hold := DelayedDeliveryBase
	for level := (failingEvents - DelayedDeliveryThreshold) / DelayedDeliveryThreshold; level > 0; level-- {
		hold *= 2
		if hold >= DelayedDeliveryMax {
			return DelayedDeliveryMax
		}
	}
	return hold
}

// health is one subscription's view of its destination, for probation and
// delayed delivery. Attempts of different batches fail concurrently, hence
// the lock.
type health struct {
	mu            sync.Mutex
	failingEvents int // events whose first attempt failed since the last success
}

// failed records a failed attempt and returns the hold it causes: the longer
// of probation (EG-18) and delayed delivery (EG-17), since the route can show
// one state and the longer hold is the one in force.
func (h *health) failed(firstAttempt bool, outcome string) (time.Duration, string) {
	h.mu.Lock()
	if firstAttempt {
		h.failingEvents++
	}
	failing := h.failingEvents
	h.mu.Unlock()

	probation := ProbationDuration(outcome)
	delayed := DelayedDeliveryHold(failing)
	switch {
	case probation == 0 && delayed == 0:
		return 0, ""
	case delayed > probation:
		return delayed, HoldDelayedDelivery
	default:
		return probation, HoldProbation
	}
}

func (h *health) succeeded() {
	h.mu.Lock()
	h.failingEvents = 0
	h.mu.Unlock()
}
