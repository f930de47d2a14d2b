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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// Well-known ids: the subscription the testkit and the suites use, and the
// one tenant the emulator's directory has.
const (
	DefaultSubscriptionID = "00000000-0000-0000-0000-000000000000"
	TenantID              = "00000000-0000-0000-0000-000000000000"
)

// Service holds resource groups. All state is per Service.
type Service struct {
	mu     sync.Mutex
	groups map[string]*group // key: lower(subscription)/lower(name)
	subs   map[string]string // lower(id) -> id as first named
}

type group struct {
	Subscription string
	Name         string
	Location     string
	Tags         map[string]string
	ManagedBy    string
}

// New returns an empty service.
func New() *Service {
	return &Service{groups: map[string]*group{}, subs: map[string]string{}}
}

// Reset forgets every resource group and subscription named so far.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups = map[string]*group{}
	s.subs = map[string]string{}
}

// Register mounts the service; it matches only the paths it serves, so
// faces with more specific ARM paths may be registered before or after it.
func (s *Service) Register(r *mux.Router) {
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool { _, ok := parse(req); return ok }).Handler(entra.OnPlane(entra.ARMPlane(), s))
}

// RegisterInspection mounts nothing: resource groups and subscriptions are
// plain ARM reads, visible through the ARM API itself.
func (s *Service) RegisterInspection(*mux.Router) {}

// kind of path.
type kind int

const (
	subscriptions kind = iota + 1
	subscription
	locations
	tenants
	groups
	oneGroup
	providers
	provider
	tenantProvider
)

type target struct {
	kind                  kind
	sub, name, ns, action string
}

// parse reads the path, matching fixed segments case-insensitively as ARM
// does. Microsoft.EventGrid's provider paths are left to the Event Grid face.
func parse(r *http.Request) (target, bool) {
	var seg []string
	for _, p := range strings.Split(r.URL.EscapedPath(), "/") {
		if p != "" {
			u, err := url.PathUnescape(p)
			if err != nil {
				return target{}, false
			}
			seg = append(seg, u)
		}
	}
	is := strings.EqualFold
	n := len(seg)
	switch {
	case n == 1 && is(seg[0], "subscriptions"):
		return target{kind: subscriptions}, true
	case n == 1 && is(seg[0], "tenants"):
		return target{kind: tenants}, true
	case n == 2 && is(seg[0], "providers") && !is(seg[1], "Microsoft.EventGrid"):
		return target{kind: tenantProvider, ns: seg[1]}, true
	case n < 2 || !is(seg[0], "subscriptions"):
		return target{}, false
	}
	t := target{sub: seg[1]}
	switch {
	case n == 2:
		t.kind = subscription
	case n == 3 && is(seg[2], "locations"):
		t.kind = locations
	case n == 3 && is(seg[2], "resourcegroups"):
		t.kind = groups
	case n == 4 && is(seg[2], "resourcegroups"):
		t.kind, t.name = oneGroup, seg[3]
	case n == 3 && is(seg[2], "providers"):
		t.kind = providers
	case (n == 4 || n == 5) && is(seg[2], "providers") && !is(seg[3], "Microsoft.EventGrid"):
		t.kind, t.ns = provider, seg[3]
		if n == 5 {
			if !is(seg[4], "register") && !is(seg[4], "unregister") {
				return target{}, false
			}
			t.action = strings.ToLower(seg[4])
		}
	default:
		return target{}, false
	}
	return t, true
}

func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t, _ := parse(r)
	if t.sub != "" {
		s.named(t.sub)
	}
	get := func(f func()) {
		if r.Method != http.MethodGet {
			methodNotAllowed(w, r)
			return
		}
		f()
	}
	switch t.kind {
	case subscriptions:
		get(func() { writeJSON(w, http.StatusOK, map[string]any{"value": s.subscriptionList()}) })
	case subscription:
		get(func() { writeJSON(w, http.StatusOK, subscriptionJSON(s.named(t.sub))) })
	case locations:
		get(func() { writeJSON(w, http.StatusOK, map[string]any{"value": locationList(t.sub)}) })
	case tenants:
		get(func() { writeJSON(w, http.StatusOK, map[string]any{"value": []any{tenantJSON()}}) })
	case groups:
		get(func() { writeJSON(w, http.StatusOK, map[string]any{"value": s.groupList(t.sub)}) })
	case oneGroup:
		s.serveGroup(w, r, t)
	case providers:
		get(func() {
			var out []any
			for _, ns := range knownProviders() {
				out = append(out, providerJSON(t.sub, ns))
			}
			writeJSON(w, http.StatusOK, map[string]any{"value": out})
		})
	case provider:
		if t.action != "" {
			if r.Method != http.MethodPost {
				methodNotAllowed(w, r)
				return
			}
			writeJSON(w, http.StatusOK, providerJSON(t.sub, t.ns))
			return
		}
		get(func() { writeJSON(w, http.StatusOK, providerJSON(t.sub, t.ns)) })
	case tenantProvider:
		get(func() { writeJSON(w, http.StatusOK, providerJSON("", t.ns)) })
	}
}

// named records a subscription id, so the subscriptions list shows every
// one a client has used, and returns it as first spelled.
func (s *Service) named(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if first, ok := s.subs[strings.ToLower(id)]; ok {
		return first
	}
	s.subs[strings.ToLower(id)] = id
	return id
}

func (s *Service) subscriptionList() []any {
	s.mu.Lock()
	ids := []string{DefaultSubscriptionID}
	for k, id := range s.subs {
		if k != DefaultSubscriptionID {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	sort.Strings(ids[1:])
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		out = append(out, subscriptionJSON(id))
	}
	return out
}

func subscriptionJSON(id string) map[string]any {
	return map[string]any{
		"id":             "/subscriptions/" + id,
		"subscriptionId": id,
		"tenantId":       TenantID,
		"displayName":    "GridBridge",
		"state":          "Enabled",
		"subscriptionPolicies": map[string]any{
			"locationPlacementId": "Public_2014-09-01", "quotaId": "Internal_2014-09-01", "spendingLimit": "Off",
		},
		"authorizationSource": "RoleBased",
		"managedByTenants":    []any{},
	}
}

func tenantJSON() map[string]any {
	return map[string]any{
		"id": "/tenants/" + TenantID, "tenantId": TenantID, "tenantCategory": "Home",
		"displayName": "GridBridge", "defaultDomain": "gridbridge.local", "domains": []string{"gridbridge.local"},
		"tenantType": "AAD", "countryCode": "US",
	}
}

// locationList names the regions the emulator accepts for resources.
func locationList(sub string) []any {
	var out []any
	for _, l := range [][2]string{{"eastus", "East US"}, {"westus", "West US"}, {"westeurope", "West Europe"}, {"northeurope", "North Europe"}} {
		out = append(out, map[string]any{
			"id": "/subscriptions/" + sub + "/locations/" + l[0], "name": l[0], "displayName": l[1],
			"regionalDisplayName": "(" + l[1] + ") " + l[1], "type": "Region",
			"metadata": map[string]any{"regionType": "Physical", "regionCategory": "Recommended"},
		})
	}
	return out
}

func knownProviders() []string {
	return []string{"Microsoft.EventGrid", "Microsoft.Resources", "Microsoft.Storage"}
}

// providerJSON reports every provider as registered: the emulator has no
// registration step (a register POST is accepted and changes nothing).
func providerJSON(sub, ns string) map[string]any {
	id := "/providers/" + ns
	if sub != "" {
		id = "/subscriptions/" + sub + id
	}
	return map[string]any{
		"id": id, "namespace": ns, "registrationState": "Registered", "registrationPolicy": "RegistrationRequired",
		"resourceTypes": []any{},
	}
}

// ResourceGroup names: 1–90 characters of letters, digits, '_', '-', '.',
// '(' and ')', not ending in '.' (Azure also allows other Unicode letters).
var groupName = regexp.MustCompile(`^[\p{L}\p{N}_\-.()]{1,90}$`)

func (s *Service) serveGroup(w http.ResponseWriter, r *http.Request, t target) {
	key := strings.ToLower(t.sub) + "/" + strings.ToLower(t.name)
	s.mu.Lock()
	g := s.groups[key]
	s.mu.Unlock()
	switch r.Method {
	case http.MethodHead:
		// checkExistence: 204 when it exists, 404 when not, no body.
		if g == nil {
			w.WriteHeader(http.StatusNotFound)
		} else {
			w.WriteHeader(http.StatusNoContent)
		}
	case http.MethodGet:
		if g == nil {
			notFound(w, t)
			return
		}
		writeJSON(w, http.StatusOK, groupJSON(g))
	case http.MethodPut, http.MethodPatch:
		s.writeGroup(w, r, t, key, g)
	case http.MethodDelete:
		s.mu.Lock()
		delete(s.groups, key)
		s.mu.Unlock()
		if g == nil {
			// ARM answers a delete of a group that is not there with 404.
			notFound(w, t)
			return
		}
		w.WriteHeader(http.StatusOK)
	default:
		methodNotAllowed(w, r)
	}
}

func (s *Service) writeGroup(w http.ResponseWriter, r *http.Request, t target, key string, prev *group) {
	if !groupName.MatchString(t.name) || strings.HasSuffix(t.name, ".") {
		writeError(w, http.StatusBadRequest, "InvalidResourceGroup",
			fmt.Sprintf("The provided resource group name '%s' has these invalid characters: it must be 1-90 letters, digits, underscores, hyphens, periods (not at the end) or parentheses.", t.name))
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "InvalidRequestContent", "The request content could not be read: "+err.Error())
		return
	}
	var body struct {
		Location  *string           `json:"location"`
		Tags      map[string]string `json:"tags"`
		ManagedBy *string           `json:"managedBy"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, http.StatusBadRequest, "InvalidRequestContent", "The request content was invalid and could not be deserialized: "+jsonerr.Describe(err, nil, nil)+".")
		return
	}
	if r.Method == http.MethodPatch {
		if prev == nil {
			notFound(w, t)
			return
		}
		g := *prev
		if body.Tags != nil {
			g.Tags = body.Tags
		}
		if body.ManagedBy != nil {
			g.ManagedBy = *body.ManagedBy
		}
		s.store(key, &g)
		writeJSON(w, http.StatusOK, groupJSON(&g))
		return
	}
	if body.Location == nil || *body.Location == "" {
		writeError(w, http.StatusBadRequest, "LocationRequired", "The location property is required for this definition.")
		return
	}
	if prev != nil && !strings.EqualFold(strings.ReplaceAll(prev.Location, " ", ""), strings.ReplaceAll(*body.Location, " ", "")) {
		writeError(w, http.StatusConflict, "InvalidResourceGroupLocation",
			fmt.Sprintf("Invalid resource group location '%s'. The Resource group already exists in location '%s'.", *body.Location, prev.Location))
		return
	}
	g := &group{Subscription: t.sub, Name: t.name, Location: strings.ToLower(strings.ReplaceAll(*body.Location, " ", "")), Tags: body.Tags}
	if body.ManagedBy != nil {
		g.ManagedBy = *body.ManagedBy
	}
	if prev != nil {
		g.Name = prev.Name // ARM keeps the casing of the first create
	}
	s.store(key, g)
	status := http.StatusCreated
	if prev != nil {
		status = http.StatusOK
	}
	writeJSON(w, status, groupJSON(g))
}

func (s *Service) store(key string, g *group) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups[key] = g
}

func (s *Service) groupList(sub string) []any {
	s.mu.Lock()
	var gs []*group
	for _, g := range s.groups {
		if strings.EqualFold(g.Subscription, sub) {
			gs = append(gs, g)
		}
	}
	s.mu.Unlock()
	sort.Slice(gs, func(i, j int) bool { return strings.ToLower(gs[i].Name) < strings.ToLower(gs[j].Name) })
	out := make([]any, 0, len(gs))
	for _, g := range gs {
		out = append(out, groupJSON(g))
	}
	return out
}

func groupJSON(g *group) map[string]any {
	out := map[string]any{
		"id":         "/subscriptions/" + g.Subscription + "/resourceGroups/" + g.Name,
		"name":       g.Name,
		"type":       "Microsoft.Resources/resourceGroups",
		"location":   g.Location,
		"properties": map[string]string{"provisioningState": "Succeeded"},
	}
	if g.Tags != nil {
		out["tags"] = g.Tags
	}
	if g.ManagedBy != "" {
		out["managedBy"] = g.ManagedBy
	}
	return out
}

func notFound(w http.ResponseWriter, t target) {
	writeError(w, http.StatusNotFound, "ResourceGroupNotFound", fmt.Sprintf("Resource group '%s' could not be found.", t.name))
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", fmt.Sprintf("The method %s is not allowed on %s.", r.Method, r.URL.Path))
}

// writeError answers with ARM's error body; the code also goes in
// x-ms-error-code, which the SDKs read before the body.
func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("x-ms-error-code", code)
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
