package eventgrid

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/basicarm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/compat/eventgrid/webhook"
)

// provision decides a subscription's provisioning state. A WebHook is
// validated when it is new, when its URL or its handshake kind changed,
// or when it was not validated yet; the handshake runs now, in the ARM
// request, in real time (W-EG-3.3, W-EG-3.4). Other destinations need
// no handshake.
func (s *basicTopics) provision(ctx context.Context, t *resource.Topic, sub, prev *resource.EventSubscription) *arm.Error {
	sub.ProvisioningState = resource.StateSucceeded
	target := sub.WebHookURL()
	if target == "" || basicarm.SkipValidation(ctx) {
		return nil
	}
	cloudEvents := sub.DeliverySchema(t.InputSchema) == egevent.CloudEventSchemaV10
	if prev != nil && prev.ProvisioningState == resource.StateSucceeded && prev.WebHookURL() == target &&
		(prev.DeliverySchema(t.InputSchema) == egevent.CloudEventSchemaV10) == cloudEvents {
		sub.ValidationCode, sub.ValidationToken = prev.ValidationCode, prev.ValidationToken
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, validationTimeout)
	defer cancel()
	base := resource.BaseURL(target)
	if cloudEvents {
		if err := webhook.ValidateCloudEvents(ctx, s.client, target, base); err != nil {
			return handshakeFailed(err)
		}
		return nil
	}
	code, token := uuid.NewString(), randomToken()
	now := s.clock.Now()
	result, err := webhook.ValidateEventGrid(ctx, s.client, webhook.Validation{
		URL: target, SubscriptionName: sub.Name, TopicID: t.ID, EventID: uuid.NewString(),
		Code: code, ValidationURL: s.validationURL(sub.Name, code, token, now), Time: now,
	}, base)
	if err != nil {
		return handshakeFailed(err)
	}
	sub.ValidationCode, sub.ValidationToken = code, token
	if result == webhook.ManualPending {
		sub.ProvisioningState = resource.StateAwaitingManualAction
	}
	return nil
}

// handshakeFailed is the 400 the service answers when an endpoint fails
// validation: the subscription is not created (or not changed).
func handshakeFailed(err error) *arm.Error {
	var he *webhook.HandshakeError
	msg := err.Error()
	if errors.As(err, &he) {
		msg = he.Error()
	}
	return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeURLValidation, Message: msg}
}

// validationURL is where an endpoint's owner validates by hand, shaped like
// the service's (…/eventsubscriptions/{name}/validate?id=…&t=…&apiVersion=…&token=…)
// but served by GridBridge's TLS listener.
func (s *basicTopics) validationURL(name, code, token string, now time.Time) string {
	q := url.Values{}
	q.Set("id", code)
	q.Set("t", now.UTC().Format(time.RFC3339Nano))
	q.Set("apiVersion", "2018-05-01-preview")
	q.Set("token", token)
	return s.publicBase() + "/eventsubscriptions/" + url.PathEscape(name) + "/validate?" + q.Encode()
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

// serveManualValidation completes a manual validation: a GET (or POST) of
// the validationUrl within the window makes the subscription Succeeded
// and starts its deliveries.
func (s *basicTopics) serveManualValidation(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	t, cur := s.awaitingValidation(mux.Vars(r)["name"], q.Get("id"), q.Get("token"))
	if cur == nil {
		http.Error(w, "The validation request is unknown, was already used, or has expired.", http.StatusNotFound)
		return
	}
	done := *cur
	done.ProvisioningState = resource.StateSucceeded
	if !s.store.PutSubscription(&done, cur) {
		http.Error(w, "The event subscription changed while it was being validated; open the URL again.", http.StatusConflict)
		return
	}
	(*armHooks)(s).SubscriptionStored(t, &done, cur)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("Webhook successfully validated as a subscription endpoint."))
}

// awaitingValidation finds the subscription named name that waits for a
// manual validation with this code and token.
func (s *basicTopics) awaitingValidation(name, code, token string) (*resource.Topic, *resource.EventSubscription) {
	if code == "" || token == "" {
		return nil, nil
	}
	for _, t := range s.store.Topics() {
		sub := s.store.Subscription(t.ID, name)
		if sub != nil && sub.ProvisioningState == resource.StateAwaitingManualAction &&
			sub.ValidationCode == code && sub.ValidationToken == token {
			return t, sub
		}
	}
	return nil, nil
}
