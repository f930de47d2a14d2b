package testkit

import (
	"context"
	"fmt"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// SubscriptionID is the Azure subscription id the testkit's examples use;
// the emulator accepts any.
const SubscriptionID = "00000000-0000-0000-0000-000000000000"

// ResourceGroup is the resource group the testkit's helpers use.
const ResourceGroup = "gridbridge"

// TokenCredential returns a credential whose tokens the emulator accepts
// (it accepts any bearer token); it never calls Microsoft Entra ID.
func (e *Emulator) TokenCredential() azcore.TokenCredential { return fakeCredential{} }

type fakeCredential struct{}

func (fakeCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "gridbridge", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// ARMClientOptions points armeventgrid clients at the emulator's HTTPS
// listener and trusts its CA.
func (e *Emulator) ARMClientOptions() *arm.ClientOptions {
	return &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Cloud: cloud.Configuration{
				ActiveDirectoryAuthorityHost: "https://login.invalid/", // never called: the credential is local
				Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
					cloud.ResourceManager: {Endpoint: e.TLSURL(), Audience: "https://management.core.windows.net/"},
				},
			},
			Transport: e.client,
			Retry:     policy.RetryOptions{MaxRetries: -1}, // the emulator answers at once; fail fast
		},
		DisableRPRegistration: true,
	}
}

// AzureClientOptions is what data-plane clients (azeventgrid, aznamespaces)
// need: a transport that trusts the emulator's CA.
func (e *Emulator) AzureClientOptions() policy.ClientOptions {
	return policy.ClientOptions{Transport: e.client, Retry: policy.RetryOptions{MaxRetries: -1}}
}

// ARM returns an armeventgrid client factory for SubscriptionID.
func (e *Emulator) ARM() *armeventgrid.ClientFactory {
	e.t.Helper()
	f, err := armeventgrid.NewClientFactory(SubscriptionID, e.TokenCredential(), e.ARMClientOptions())
	if err != nil {
		e.fatalf("armeventgrid client factory: %v", err)
	}
	return f
}

// CreateTopic creates (or updates) an Event Grid topic in ResourceGroup and
// returns it as ARM answered.
func (e *Emulator) CreateTopic(name string, props *armeventgrid.TopicProperties) armeventgrid.Topic {
	e.t.Helper()
	poller, err := e.ARM().NewTopicsClient().BeginCreateOrUpdate(context.Background(), ResourceGroup, name,
		armeventgrid.Topic{Location: ptr("westus"), Properties: props}, nil)
	return created(e, fmt.Sprintf("topic %q", name), poller, err).Topic
}

// created waits for an ARM create the SDK began (poller, err) to finish and
// returns ARM's answer, failing the test with what was being created.
func created[T any](e *Emulator, what string, poller *runtime.Poller[T], err error) T {
	e.t.Helper()
	if err == nil {
		var resp T
		if resp, err = poller.PollUntilDone(context.Background(), nil); err == nil {
			return resp
		}
	}
	e.fatalf("creating %s: %v", what, err)
	var zero T
	return zero
}

// EventGridPublisher returns an azeventgrid client for topic in
// ResourceGroup, with its endpoint and key1 read through ARM.
func (e *Emulator) EventGridPublisher(topic string) *azeventgrid.Client {
	e.t.Helper()
	topics := e.ARM().NewTopicsClient()
	got, keys := readWithKeys(e, "topic", topic, topics.Get, topics.ListSharedAccessKeys)
	return e.eventGridClient(fmt.Sprintf("%q", topic), *got.Properties.Endpoint, *keys.Key1)
}

// readWithKeys reads a resource of ResourceGroup and lists its keys
// through ARM: what every data-plane client the testkit hands out (topics,
// domains, namespaces) needs. kind and name are for the failure message.
func readWithKeys[GetOptions, Resource, KeysOptions, Keys any](e *Emulator, kind, name string,
	get func(context.Context, string, string, *GetOptions) (Resource, error),
	listKeys func(context.Context, string, string, *KeysOptions) (Keys, error),
) (Resource, Keys) {
	e.t.Helper()
	ctx := context.Background()
	got, err := get(ctx, ResourceGroup, name, nil)
	if err != nil {
		e.fatalf("reading %s %q: %v", kind, name, err)
	}
	keys, err := listKeys(ctx, ResourceGroup, name, nil)
	if err != nil {
		e.fatalf("listing keys of %s %q: %v", kind, name, err)
	}
	return got, keys
}

// eventGridClient is an azeventgrid client for endpoint with key, trusting
// the emulator's CA; what names the resource in the failure message.
func (e *Emulator) eventGridClient(what, endpoint, key string) *azeventgrid.Client {
	e.t.Helper()
	client, err := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential(key),
		&azeventgrid.ClientOptions{ClientOptions: e.AzureClientOptions()})
	if err != nil {
		e.fatalf("azeventgrid client for %s: %v", what, err)
	}
	return client
}

func ptr[T any](v T) *T { return &v }
