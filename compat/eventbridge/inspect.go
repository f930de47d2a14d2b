package eventbridge

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// RegisterInspection mounts EventBridge's part of the inspection API on r,
// the emulator's /_emulator subrouter: bus-v2 subscriber metrics and attempt
// logs, and the in-memory SQS default. Every endpoint is documented in the
// README's inspection API table.
func (f *Face) RegisterInspection(r *mux.Router) {
	r.HandleFunc("/eventbridge/subscribers", f.handleSubscribers).Methods(http.MethodGet)
	r.HandleFunc("/eventbridge/delivery-attempts", f.handleDeliveryAttempts).Methods(http.MethodGet)
	r.HandleFunc("/sqs", f.handleSQSQueues).Methods(http.MethodGet)
	r.HandleFunc("/sqs/messages", f.handleSQSMessages).Methods(http.MethodGet)
}

// handleSubscribers reports every bus-v2 subscriber's counters (EB-D4):
// EventsDropped, OnFailureDestinationFailed, deliveries, retries.
func (f *Face) handleSubscribers(w http.ResponseWriter, _ *http.Request) {
	httpjson.Write(w, http.StatusOK, map[string]any{"subscribers": f.v2.Metrics()})
}

// handleDeliveryAttempts lists a bus-v2 subscriber's EVENT_DELIVERY_ATTEMPT
// log records (EB-8): ?subscriber=<subscriber ARN>.
func (f *Face) handleDeliveryAttempts(w http.ResponseWriter, r *http.Request) {
	arn := r.URL.Query().Get("subscriber")
	if arn == "" {
		httpjson.Error(w, http.StatusBadRequest, "give the subscriber ARN: ?subscriber=arn:aws:events:<region>:<account>:subscriber/<name>/<id>")
		return
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"attempts": f.v2.DeliveryAttempts(arn)})
}

// SQSMessageView is one message of the in-memory SQS default, as
// GET /_emulator/sqs/messages shows it.
type SQSMessageView struct {
	Body            json.RawMessage    `json:"body"`
	Attributes      []engine.Attribute `json:"attributes,omitempty"`
	MessageGroupID  string             `json:"messageGroupId,omitempty"`
	DeduplicationID string             `json:"deduplicationId,omitempty"`
}

// memorySQSOrConflict answers 409 when SQS is a real server: its messages
// are read with the SQS SDK there, not here.
func (f *Face) memorySQSOrConflict(w http.ResponseWriter) bool {
	if f.memorySQS == nil {
		httpjson.Error(w, http.StatusConflict, "SQS targets and dead-letter queues go to %s; read them with the SQS SDK", f.sqsEndpoint)
		return false
	}
	return true
}

func (f *Face) handleSQSQueues(w http.ResponseWriter, _ *http.Request) {
	if !f.memorySQSOrConflict(w) {
		return
	}
	type queue struct {
		ARN      string `json:"arn"`
		Messages int    `json:"messages"`
	}
	out := []queue{}
	for _, arn := range f.memorySQS.Queues() {
		out = append(out, queue{ARN: arn, Messages: len(f.memorySQS.Messages(arn))})
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"queues": out})
}

// handleSQSMessages lists ?queue=<arn>'s messages, oldest first, without
// removing them.
func (f *Face) handleSQSMessages(w http.ResponseWriter, r *http.Request) {
	if !f.memorySQSOrConflict(w) {
		return
	}
	arn := r.URL.Query().Get("queue")
	if arn == "" {
		httpjson.Error(w, http.StatusBadRequest, "give the queue ARN: ?queue=arn:aws:sqs:<region>:<account>:<name>")
		return
	}
	out := []SQSMessageView{}
	for _, m := range f.memorySQS.Messages(arn) {
		out = append(out, SQSMessageView{Body: engine.InlineBody(m.Body), Attributes: m.Attributes,
			MessageGroupID: m.MessageGroupID, DeduplicationID: m.DeduplicationID})
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"messages": out})
}
