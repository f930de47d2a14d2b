package eventgrid

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// TopicView is a basic topic as GET /_emulator/eventgrid/topics lists it,
// for the dashboard: what exists, even before any event flows. Keys are left
// out, and a webhook shows only its base URL (ARM's endpointBaseUrl): the
// query may carry a secret.
type TopicView struct {
	Name          string             `json:"name"`
	ID            string             `json:"id"`
	InputSchema   string             `json:"inputSchema"`
	CreatedAt     time.Time          `json:"createdAt"`
	Subscriptions []SubscriptionInfo `json:"subscriptions"`
}

// SubscriptionInfo is one event subscription of a TopicView.
type SubscriptionInfo struct {
	Name              string `json:"name"`
	ProvisioningState string `json:"provisioningState"`
	EndpointType      string `json:"endpointType,omitempty"`
	EndpointBaseURL   string `json:"endpointBaseUrl,omitempty"`
	DeadLetter        bool   `json:"deadLetter"`
}

func (f *Face) handleTopics(w http.ResponseWriter, _ *http.Request) {
	out := []TopicView{}
	for _, t := range f.basic.store.Topics() {
		v := TopicView{Name: t.Name, ID: t.ID, InputSchema: t.InputSchema, CreatedAt: t.CreatedAt.UTC(), Subscriptions: []SubscriptionInfo{}}
		for _, sub := range f.basic.store.Subscriptions(t.ID) {
			info := SubscriptionInfo{Name: sub.Name, ProvisioningState: sub.ProvisioningState, DeadLetter: sub.DeadLetterDestination != nil}
			if d := sub.Destination; d != nil {
				info.EndpointType = d.EndpointType
				if u, err := url.Parse(d.EndpointURL); err == nil && d.EndpointURL != "" {
					u.RawQuery, u.Fragment, u.User = "", "", nil
					info.EndpointBaseURL = u.String()
				}
			}
			v.Subscriptions = append(v.Subscriptions, info)
		}
		out = append(out, v)
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"topics": out})
}
