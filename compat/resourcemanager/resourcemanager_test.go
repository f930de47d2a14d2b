package resourcemanager

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resources/armresources"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resources/armsubscriptions"
	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/entra"
)

type staticToken struct{}

func (staticToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "t", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// newRouter mounts the service as the emulator does: on a router whose
// middleware checks tokens by the chosen route's plane.
func newRouter() *mux.Router {
	r := mux.NewRouter()
	r.Use(entra.New(entra.Config{Now: time.Now}).Middleware(false))
	New().Register(r)
	return r
}

func start(t *testing.T) *arm.ClientOptions {
	t.Helper()
	srv := httptest.NewTLSServer(newRouter())
	t.Cleanup(srv.Close)
	return &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Cloud: cloud.Configuration{
				ActiveDirectoryAuthorityHost: "https://login.invalid/",
				Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
					cloud.ResourceManager: {Endpoint: srv.URL, Audience: "https://management.azure.com"},
				},
			},
			Transport: srv.Client(),
			Retry:     policy.RetryOptions{MaxRetries: -1},
		},
		DisableRPRegistration: true,
	}
}

func TestResourceGroupsThroughArmresources(t *testing.T) {
	t.Parallel()
	opts := start(t)
	ctx := context.Background()
	rgs, err := armresources.NewResourceGroupsClient(DefaultSubscriptionID, staticToken{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	created, err := rgs.CreateOrUpdate(ctx, "Orders-RG", armresources.ResourceGroup{Location: to("West US"), Tags: map[string]*string{"env": to("test")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *created.Name != "Orders-RG" || *created.Location != "westus" || *created.Properties.ProvisioningState != "Succeeded" ||
		*created.ID != "/subscriptions/"+DefaultSubscriptionID+"/resourceGroups/Orders-RG" {
		t.Errorf("created %+v", created.ResourceGroup)
	}
	if _, err := rgs.CreateOrUpdate(ctx, "orders-rg", armresources.ResourceGroup{Location: to("westus")}, nil); err != nil {
		t.Errorf("re-create in the same location: %v", err)
	}
	_, err = rgs.CreateOrUpdate(ctx, "orders-rg", armresources.ResourceGroup{Location: to("eastus")}, nil)
	assertCode(t, "moved location", err, http.StatusConflict, "InvalidResourceGroupLocation")
	_, err = rgs.CreateOrUpdate(ctx, "no-location", armresources.ResourceGroup{}, nil)
	assertCode(t, "no location", err, http.StatusBadRequest, "LocationRequired")
	_, err = rgs.CreateOrUpdate(ctx, "bad*name", armresources.ResourceGroup{Location: to("westus")}, nil)
	assertCode(t, "bad name", err, http.StatusBadRequest, "InvalidResourceGroup")

	got, err := rgs.Get(ctx, "ORDERS-RG", nil)
	if err != nil || *got.Name != "Orders-RG" {
		t.Fatalf("get (any case): %+v %v", got, err)
	}
	if exists, err := rgs.CheckExistence(ctx, "orders-rg", nil); err != nil || !exists.Success {
		t.Errorf("check existence: %v %v", exists.Success, err)
	}
	if _, err := rgs.CreateOrUpdate(ctx, "billing", armresources.ResourceGroup{Location: to("eastus")}, nil); err != nil {
		t.Fatal(err)
	}
	updated, err := rgs.Update(ctx, "billing", armresources.ResourceGroupPatchable{Tags: map[string]*string{"team": to("b")}}, nil)
	if err != nil || *updated.Tags["team"] != "b" {
		t.Fatalf("update tags: %+v %v", updated, err)
	}
	var names []string
	pager := rgs.NewListPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range page.Value {
			names = append(names, *g.Name)
		}
	}
	if len(names) != 2 || names[0] != "billing" || names[1] != "Orders-RG" {
		t.Errorf("list: %v", names)
	}
	poller, err := rgs.BeginDelete(ctx, "orders-rg", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := poller.PollUntilDone(ctx, nil); err != nil {
		t.Fatal(err)
	}
	_, err = rgs.Get(ctx, "orders-rg", nil)
	assertCode(t, "get after delete", err, http.StatusNotFound, "ResourceGroupNotFound")
	if exists, err := rgs.CheckExistence(ctx, "orders-rg", nil); err != nil || exists.Success {
		t.Errorf("check existence after delete: %v %v", exists.Success, err)
	}
}

func TestSubscriptionsTenantsAndProviders(t *testing.T) {
	t.Parallel()
	opts := start(t)
	ctx := context.Background()
	subs, err := armsubscriptions.NewClient(staticToken{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := subs.Get(ctx, "11111111-1111-1111-1111-111111111111", nil)
	if err != nil || *sub.SubscriptionID != "11111111-1111-1111-1111-111111111111" || *sub.State != armsubscriptions.SubscriptionStateEnabled {
		t.Fatalf("get: %+v %v", sub, err)
	}
	var ids []string
	for pager := subs.NewListPager(nil); pager.More(); {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range page.Value {
			ids = append(ids, *s.SubscriptionID)
		}
	}
	if len(ids) != 2 || ids[0] != DefaultSubscriptionID || ids[1] != "11111111-1111-1111-1111-111111111111" {
		t.Errorf("list: %v", ids)
	}
	tenants, err := armsubscriptions.NewTenantsClient(staticToken{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	page, err := tenants.NewListPager(nil).NextPage(ctx)
	if err != nil || len(page.Value) != 1 || *page.Value[0].TenantID != TenantID {
		t.Fatalf("tenants: %+v %v", page, err)
	}
	providers, err := armresources.NewProvidersClient(DefaultSubscriptionID, staticToken{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := providers.Get(ctx, "Microsoft.Storage", nil)
	if err != nil || *p.RegistrationState != "Registered" {
		t.Fatalf("provider: %+v %v", p, err)
	}
	if _, err := providers.Register(ctx, "Microsoft.Storage", nil); err != nil {
		t.Fatal(err)
	}
	list, err := providers.NewListPager(nil).NextPage(ctx)
	if err != nil || len(list.Value) != len(knownProviders()) {
		t.Fatalf("providers: %+v %v", list, err)
	}
}

func assertCode(t *testing.T, name string, err error, status int, code string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != status || re.ErrorCode != code {
		t.Errorf("%s: %v, want HTTP %d %s", name, err, status, code)
	}
}

func to[T any](v T) *T { return &v }
