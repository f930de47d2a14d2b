package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ValidationEventType is the event type of the validation handshake.
const ValidationEventType = "Microsoft.EventGrid.SubscriptionValidationEvent"

// AbuseProtectionOrigin is the origin Event Grid announces in the
// CloudEvents OPTIONS handshake.
const AbuseProtectionOrigin = "eventgrid.azure.net"

// Validation is the request of an Event Grid schema handshake.
type Validation struct {
	URL              string
	SubscriptionName string
	TopicID          string
	EventID          string
	Code             string
	// ValidationURL is where the endpoint's owner can validate by hand.
	ValidationURL string
	Time          time.Time
}

// Result of an Event Grid schema handshake.
type Result int

const (
	// Validated: the endpoint echoed the code.
	Validated Result = iota + 1
	// ManualPending: the endpoint answered 200 without the code; a GET of
	// the validation URL may still validate it.
	ManualPending
)

// HandshakeError is a failed handshake, worded as the service words it.
type HandshakeError struct {
	URL    string
	Method string
	Reason string // e.g. "response code 404", "response code Unknown"
}

// Error words the failure as the service does, its "troublehooting" typo
// included, so tests that match the real message match this one.
func (e *HandshakeError) Error() string {
	return fmt.Sprintf("Webhook validation handshake failed for %s. Http %s request failed with %s. For troublehooting, visit https://aka.ms/esvalidation.",
		e.URL, e.Method, e.Reason)
}

// ValidateEventGrid posts the SubscriptionValidationEvent (W-EG-3.3).
// Only a 200 counts; with the code echoed in validationResponse (key in
// any casing) the endpoint is validated, without it a manual validation
// is pending. baseURL is the URL shown in errors (no query, no secrets).
func ValidateEventGrid(ctx context.Context, client *http.Client, v Validation, baseURL string) (Result, error) {
	body, _ := json.Marshal([]any{map[string]any{
		"id": v.EventID, "topic": v.TopicID, "subject": "",
		"data":      map[string]string{"validationCode": v.Code, "validationUrl": v.ValidationURL},
		"eventType": ValidationEventType, "eventTime": v.Time.UTC().Format(time.RFC3339Nano),
		"metadataVersion": "1", "dataVersion": "1",
	}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.URL, bytes.NewReader(body))
	if err != nil {
		return 0, &HandshakeError{URL: baseURL, Method: "POST", Reason: "an invalid URL"}
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("aeg-event-type", "SubscriptionValidation")
	req.Header.Set("aeg-subscription-name", strings.ToUpper(v.SubscriptionName))
	req.Header.Set("aeg-delivery-count", "0")
	req.Header.Set("aeg-data-version", "1")
	req.Header.Set("aeg-metadata-version", "1")
	resp, err := client.Do(req)
	if err != nil {
		return 0, &HandshakeError{URL: baseURL, Method: "POST", Reason: "response code Unknown (" + err.Error() + ")"}
	}
	answer := readLimited(resp)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, &HandshakeError{URL: baseURL, Method: "POST", Reason: fmt.Sprintf("response code %d", resp.StatusCode)}
	}
	if echoedCode(answer) == v.Code {
		return Validated, nil
	}
	return ManualPending, nil
}

// echoedCode reads validationResponse from an answer, the key in any casing.
func echoedCode(answer []byte) string {
	var m map[string]any
	if json.Unmarshal(answer, &m) != nil {
		return ""
	}
	for k, v := range m {
		if s, ok := v.(string); ok && strings.EqualFold(k, "validationResponse") {
			return s
		}
	}
	return ""
}

// ValidateCloudEvents runs the CloudEvents abuse-protection handshake
// (W-EG-3.4): an OPTIONS request announcing the origin, answered
// with a 2xx whose WebHook-Allowed-Origin is that origin or "*".
func ValidateCloudEvents(ctx context.Context, client *http.Client, url, baseURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, url, nil)
	if err != nil {
		return &HandshakeError{URL: baseURL, Method: "OPTIONS", Reason: "an invalid URL"}
	}
	req.Header.Set("WebHook-Request-Origin", AbuseProtectionOrigin)
	resp, err := client.Do(req)
	if err != nil {
		return &HandshakeError{URL: baseURL, Method: "OPTIONS", Reason: "response code Unknown (" + err.Error() + ")"}
	}
	readLimited(resp)
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &HandshakeError{URL: baseURL, Method: "OPTIONS", Reason: fmt.Sprintf("response code %d", resp.StatusCode)}
	}
	allowed := strings.TrimSpace(resp.Header.Get("WebHook-Allowed-Origin"))
	if allowed != "*" && !strings.EqualFold(allowed, AbuseProtectionOrigin) {
		return &HandshakeError{URL: baseURL, Method: "OPTIONS",
			Reason: fmt.Sprintf("a WebHook-Allowed-Origin of %q, which does not allow %s", allowed, AbuseProtectionOrigin)}
	}
	return nil
}
