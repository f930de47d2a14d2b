package eventgrid

import (
	"net/http/httptest"
	"testing"
)

func TestTokenPlaneByPath(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"/subscriptions":                                 "Azure Resource Manager",
		"/Subscriptions/s/resourceGroups/rg":             "Azure Resource Manager",
		"/tenants":                                       "Azure Resource Manager",
		"/providers/Microsoft.EventGrid/operations":      "Azure Resource Manager",
		"/topics/orders/api/events":                      "Event Grid",
		"/domains/shop/api/events":                       "Event Grid",
		"/eventgrid/namespaces/ns/topics/orders:publish": "Event Grid",
		"/_emulator/health":                              "",
		"/adfs/oauth2/token":                             "",
		"/":                                              "", // EventBridge
		"/subscriptionsx":                                "",
	}
	for path, want := range cases {
		got := ""
		if p := TokenPlane(httptest.NewRequest("GET", path, nil)); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("%s: plane %q, want %q", path, got, want)
		}
	}
}
