package emulator

import (
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
)

// tokenPlane says which plane r is for by its path: ARM paths start with
// /subscriptions, /tenants or /providers; the Event Grid data plane (basic
// topics' /topics/<t>/api/events) with /topics/, and namespace data planes
// (…/topics/<t>:publish, …:receive) with namespaces.DataPlanePrefix. Other requests (EventBridge, the inspection
// API, the authority itself) carry no Entra token.
func tokenPlane(r *http.Request) *entra.Plane {
	p := strings.ToLower(r.URL.Path)
	switch {
	case p == "/subscriptions" || p == "/tenants" || strings.HasPrefix(p, "/subscriptions/") ||
		strings.HasPrefix(p, "/tenants/") || strings.HasPrefix(p, "/providers/") || p == "/providers":
		// An ARM token is refused by a topic's data plane and the reverse,
		// as Azure does.
		return &entra.Plane{Name: "Azure Resource Manager", RequireToken: true,
			Audiences: []string{entra.AudienceARM, "https://management.core.windows.net"}}
	case strings.HasPrefix(p, "/topics/") || strings.HasPrefix(p, namespaces.DataPlanePrefix):
		return &entra.Plane{Name: "Event Grid", Audiences: []string{entra.AudienceEventGrid}}
	}
	return nil
}

// Authority is the emulator's offline Entra ID authority (its token
// endpoint is on both listeners; the SDKs insist on the HTTPS one).
func (s *Server) Authority() *entra.Authority { return s.entra }
