// Package resourcemanager serves the Azure Resource Manager calls that tools
// make before they touch an Event Grid resource: the subscriptions and
// tenants lists, resource groups (create, read, list, update tags, delete)
// and resource-provider reads. It is what armresources (Go),
// @azure/arm-resources (JS) and azure.mgmt.resource (Python) call.
//
// GridBridge accepts any subscription id: a subscription "exists" once
// named. Deleting a resource group does not delete the Event Grid resources
// filed under it (they live in their own faces, which do not require the
// group to exist, as they never have).
package resourcemanager

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/entra"
)

// Well-known ids: the subscription the testkit and the suites use, and the
// one tenant the emulator's directory has.
const (
	DefaultSubscriptionID = "00000000-0000-0000-0000-000000000000"
	TenantID              = "00000000-0000-0000-0000-000000000000"
)

// Service holds resource groups. All state is per Service.
type Service struct {
	table *arm.Table

	mu     sync.Mutex
	groups map[string]*group // key: lower(subscription)/lower(name)
	subs   map[string]string // lower(id) -> id as first named
}

// New returns an empty service.
func New() *Service {
	s := &Service{groups: map[string]*group{}, subs: map[string]string{}}
	s.table = arm.NewTable(arm.Options{}, s.endpoints()...)
	return s
}

// Path templates (compat/azure/arm matches their literals in any case).
const (
	azureSubscription = "/subscriptions/{subscriptionId}"
	resourceGroupPath = azureSubscription + "/resourcegroups/{resourceGroup}"
	providerPath      = azureSubscription + "/providers/{namespace}"
)

// endpoints is every path and method served.
func (s *Service) endpoints() []arm.Endpoint {
	at := s.inSubscription
	rows := []arm.Endpoint{
		arm.List("/subscriptions", s.listSubscriptions),
		arm.List("/tenants", listTenants),
		arm.List(azureSubscription+"/locations", at(listLocations)),
		arm.List(azureSubscription+"/resourcegroups", at(s.listGroups)),
		arm.List(azureSubscription+"/providers", at(listProviders)),
	}
	for _, res := range []struct {
		path string
		arm.Resource
	}{
		{"/providers/{namespace}", arm.Resource{Get: tenantProvider}},
		{azureSubscription, arm.Resource{Get: at(s.getSubscription)}},
		{resourceGroupPath, arm.Resource{Get: at(s.getGroup), Put: at(s.putGroup), Patch: at(s.patchGroup), Delete: at(s.deleteGroup)}},
		// Every provider is registered; register and unregister change nothing.
		{providerPath, arm.Resource{Get: at(getProvider), Actions: []arm.Action{
			{Name: "register", Handle: at(getProvider)}, {Name: "unregister", Handle: at(getProvider)}}}},
	} {
		rows = append(rows, res.At(res.path)...)
	}
	// checkExistence: 204 when the group exists, 404 when not, no body.
	return append(rows, arm.Endpoint{Method: http.MethodHead, Path: resourceGroupPath, Handle: at(s.checkGroup)})
}

// inSubscription records the subscription a request names (so the
// subscriptions list shows every one a client has used) before h answers.
func (s *Service) inSubscription(h arm.Handler) arm.Handler {
	return func(r *arm.Request) (arm.Response, *arm.Error) {
		s.named(r.Var("subscriptionId"))
		return h(r)
	}
}

// Reset forgets every resource group and subscription named so far.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups = map[string]*group{}
	s.subs = map[string]string{}
}

// Register mounts the service; it claims only the paths it serves, and
// never a provider path of Microsoft.EventGrid, which the Event Grid face
// answers: faces with more specific ARM paths may be registered before or
// after it.
func (s *Service) Register(r *mux.Router) {
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool {
		return s.table.Matches(req) && !eventGridProvider(req.URL.Path)
	}).Handler(entra.OnPlane(entra.ARMPlane(), s.table))
}

// RegisterInspection mounts nothing: resource groups and subscriptions are
// plain ARM reads, visible through the ARM API itself.
func (s *Service) RegisterInspection(*mux.Router) {}

// eventGridProvider reports whether path names the Microsoft.EventGrid
// resource provider (…/providers/Microsoft.EventGrid…).
func eventGridProvider(path string) bool {
	segs := strings.FieldsFunc(path, func(c rune) bool { return c == '/' })
	for i := 0; i+1 < len(segs); i++ {
		if strings.EqualFold(segs[i], "providers") && strings.EqualFold(segs[i+1], "Microsoft.EventGrid") {
			return true
		}
	}
	return false
}
