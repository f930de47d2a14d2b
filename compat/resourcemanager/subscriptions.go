package resourcemanager

import (
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

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

func (s *Service) listSubscriptions(*arm.Request) (arm.Response, *arm.Error) {
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
	return arm.OK(map[string]any{"value": out}), nil
}

func (s *Service) getSubscription(r *arm.Request) (arm.Response, *arm.Error) {
	return arm.OK(subscriptionJSON(s.named(r.Var("subscriptionId")))), nil
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

func listTenants(*arm.Request) (arm.Response, *arm.Error) {
	return arm.OK(map[string]any{"value": []any{map[string]any{
		"id": "/tenants/" + TenantID, "tenantId": TenantID, "tenantCategory": "Home",
		"displayName": "GridBridge", "defaultDomain": "gridbridge.local", "domains": []string{"gridbridge.local"},
		"tenantType": "AAD", "countryCode": "US",
	}}}), nil
}

// listLocations names the regions the emulator accepts for resources.
func listLocations(r *arm.Request) (arm.Response, *arm.Error) {
	sub := r.Var("subscriptionId")
	var out []any
	for _, l := range [][2]string{{"eastus", "East US"}, {"westus", "West US"}, {"westeurope", "West Europe"}, {"northeurope", "North Europe"}} {
		out = append(out, map[string]any{
			"id": "/subscriptions/" + sub + "/locations/" + l[0], "name": l[0], "displayName": l[1],
			"regionalDisplayName": "(" + l[1] + ") " + l[1], "type": "Region",
			"metadata": map[string]any{"regionType": "Physical", "regionCategory": "Recommended"},
		})
	}
	return arm.OK(map[string]any{"value": out}), nil
}

func knownProviders() []string {
	return []string{"Microsoft.EventGrid", "Microsoft.Resources", "Microsoft.Storage"}
}

func listProviders(r *arm.Request) (arm.Response, *arm.Error) {
	var out []any
	for _, ns := range knownProviders() {
		out = append(out, providerJSON(r.Var("subscriptionId"), ns))
	}
	return arm.OK(map[string]any{"value": out}), nil
}

func getProvider(r *arm.Request) (arm.Response, *arm.Error) {
	return arm.OK(providerJSON(r.Var("subscriptionId"), r.Var("namespace"))), nil
}

func tenantProvider(r *arm.Request) (arm.Response, *arm.Error) {
	return arm.OK(providerJSON("", r.Var("namespace"))), nil
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
