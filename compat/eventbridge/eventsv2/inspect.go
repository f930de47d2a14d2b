package eventsv2

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// RegisterInspection mounts bus v2's part of the inspection API on r, the
// emulator's /_emulator subrouter: subscriber metrics and attempt logs.
// Every endpoint is documented in the README's inspection API table.
func (s *Service) RegisterInspection(r *mux.Router) {
	r.HandleFunc("/eventbridge/subscribers", s.handleSubscribers).Methods(http.MethodGet)
	r.HandleFunc("/eventbridge/delivery-attempts", s.handleDeliveryAttempts).Methods(http.MethodGet)
}

// handleSubscribers reports every subscriber's counters (EB-D4):
// EventsDropped, OnFailureDestinationFailed, deliveries, retries.
func (s *Service) handleSubscribers(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, map[string]any{"subscribers": s.Metrics()})
}

// handleDeliveryAttempts lists a subscriber's EVENT_DELIVERY_ATTEMPT log
// records (EB-8): ?subscriber=<subscriber ARN>.
func (s *Service) handleDeliveryAttempts(w http.ResponseWriter, r *http.Request) {
	arn := r.URL.Query().Get("subscriber")
	if arn == "" {
		httpjson.Error(w, http.StatusBadRequest, "give the subscriber ARN: ?subscriber=arn:aws:events:<region>:<account>:subscriber/<name>/<id>")
		return
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"attempts": s.DeliveryAttempts(arn)})
}
