package namespaces

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/webhook"
)

// handshakeTimeout bounds the validation request in real time: it runs
// inside the ARM request that creates the subscription.
const handshakeTimeout = 10 * time.Second

// validatePush runs the CloudEvents abuse-protection handshake (an OPTIONS
// request) against the webhook a push subscription's body names. Azure
// requires it of namespace webhooks: when it fails, creating or updating
// the subscription fails. The X-GridBridge-Skip-Validation header (used by
// topology files for applications that start later) skips it.
func (s *Service) validatePush(r *http.Request, body []byte) *arm.Error {
	url := pushWebhookURL(body)
	if url == "" || arm.SkipValidation(r) {
		return nil
	}
	client := s.cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(r.Context(), handshakeTimeout)
	defer cancel()
	if err := webhook.ValidateCloudEvents(ctx, webhook.NoRedirects(client), url, baseURL(url)); err != nil {
		return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeURLValidation, Message: err.Error()}
	}
	return nil
}

// pushWebhookURL is the endpointUrl of a Push delivery to a WebHook in an
// event-subscription body, or "" when the body names none.
func pushWebhookURL(body []byte) string {
	var b struct {
		Properties struct {
			DeliveryConfiguration struct {
				DeliveryMode string `json:"deliveryMode"`
				Push         *struct {
					Destination *struct {
						EndpointType string `json:"endpointType"`
						Properties   struct {
							EndpointURL string `json:"endpointUrl"`
						} `json:"properties"`
					} `json:"destination"`
				} `json:"push"`
			} `json:"deliveryConfiguration"`
		} `json:"properties"`
	}
	if json.Unmarshal(body, &b) != nil {
		return "" // the ARM decoder reports the bad body
	}
	dc := b.Properties.DeliveryConfiguration
	if !strings.EqualFold(dc.DeliveryMode, "Push") || dc.Push == nil || dc.Push.Destination == nil ||
		!strings.EqualFold(dc.Push.Destination.EndpointType, "WebHook") {
		return ""
	}
	return dc.Push.Destination.Properties.EndpointURL
}

// baseURL is url without its query, which may carry secrets: what errors show.
func baseURL(url string) string {
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		return url[:i]
	}
	return url
}
