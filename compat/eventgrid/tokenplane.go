package eventgrid

import (
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
)

// TokenPlane says which plane r is for by its path: ARM paths start with
// /subscriptions, /tenants or /providers; the Event Grid data plane (basic
// topics' /topics/<t>/api/events, domains' /domains/<d>/api/events) with
// /topics/ or /domains/, and namespace data planes
// (…/topics/<t>:publish, …:receive) with namespaces.DataPlanePrefix. Other requests (EventBridge, the inspection
// API, the authority itself) carry no Entra token.
func TokenPlane(r *http.Request) *entra.Plane {
	p := strings.ToLower(r.URL.Path)
	switch {
	case p == "/subscriptions" || p == "/tenants" || strings.HasPrefix(p, "/subscriptions/") ||
		strings.HasPrefix(p, "/tenants/") || strings.HasPrefix(p, "/providers/") || p == "/providers":
		// An ARM token is refused by a topic's data plane and the reverse,
		// as Azure does.
		return &entra.Plane{Name: "Azure Resource Manager", RequireToken: true,
			Audiences: []string{entra.AudienceARM, "https://management.core.windows.net"}}
	case strings.HasPrefix(p, "/topics/") || strings.HasPrefix(p, "/domains/") || strings.HasPrefix(p, strings.ToLower(namespaces.DataPlanePrefix)):
		return &entra.Plane{Name: "Event Grid", Audiences: []string{entra.AudienceEventGrid}}
	}
	return nil
}
