package eventsv2

import (
	"time"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// LogTypeDeliveryAttempt names EB-8's per-attempt log record.
const LogTypeDeliveryAttempt = "EVENT_DELIVERY_ATTEMPT"

// DeliveryAttempt is one EVENT_DELIVERY_ATTEMPT log record (EB-8): an
// attempt, its outcome and the request that was sent. For generic error
// codes this is where the facts are.
type DeliveryAttempt struct {
	LogType       string                  `json:"logType"`
	Time          time.Time               `json:"time"`
	SubscriberArn string                  `json:"subscriberArn"`
	TargetArn     string                  `json:"targetArn"`
	Attempt       int                     `json:"attempt"`
	EventIDs      []string                `json:"eventIds"`
	Outcome       string                  `json:"outcome"`
	Status        int                     `json:"status,omitempty"`
	Message       string                  `json:"message,omitempty"`
	Request       *engine.RecordedRequest `json:"request,omitempty"`
}

// DeliveryAttempts returns the EVENT_DELIVERY_ATTEMPT records the journal
// still holds for the subscriber with this ARN, oldest first. An attempt a
// fault rule failed carries no request: nothing was sent.
func (s *Service) DeliveryAttempts(subscriberArn string) []DeliveryAttempt {
	entries := s.engine.Journal().Query(engine.Filter{
		Kind:   engine.KindAttempt,
		Labels: map[string]string{"subscriberArn": subscriberArn},
	})
	out := make([]DeliveryAttempt, len(entries))
	for i, e := range entries {
		out[i] = DeliveryAttempt{
			LogType: LogTypeDeliveryAttempt, Time: e.Time, SubscriberArn: subscriberArn,
			TargetArn: e.Destination, Attempt: e.Attempt, EventIDs: e.EventIDs,
			Outcome: e.Outcome, Status: e.Status, Message: e.Message, Request: e.Request,
		}
	}
	return out
}
