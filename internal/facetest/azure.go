package facetest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// The ARM scope the face harnesses create their resources in; GridBridge
// accepts any.
const (
	SubscriptionID = "00000000-0000-0000-0000-000000000001"
	ResourceGroup  = "rg1"
)

// Credential is an Azure token credential for ARM clients: GridBridge
// accepts any bearer token, so it hands out one that never expires.
type Credential struct{}

// GetToken returns a fixed token valid for an hour.
func (Credential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "facetest-token", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// ARMOptions points an ARM client factory (armeventgrid.NewClientFactory)
// at endpoint, sending through transport (an *http.Client works; nil: the
// SDK's default). Sign-in goes to an address that never resolves, SDK
// retries are off (a test sees the first answer) and resource-provider
// registration is skipped. A plain-HTTP endpoint is allowed to carry the
// token, as it is only ever the local test server.
func ARMOptions(endpoint string, transport policy.Transporter) *arm.ClientOptions {
	return &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Cloud: cloud.Configuration{
				ActiveDirectoryAuthorityHost: "https://login.invalid/",
				Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
					cloud.ResourceManager: {Endpoint: endpoint, Audience: "https://management.core.windows.net/"},
				},
			},
			Transport:                       transport,
			InsecureAllowCredentialWithHTTP: strings.HasPrefix(endpoint, "http://"),
			Retry:                           policy.RetryOptions{MaxRetries: -1},
		},
		DisableRPRegistration: true,
	}
}

// ARMFactory is an armeventgrid client factory for SubscriptionID that
// reaches ARM at endpoint through transport (see ARMOptions).
func ARMFactory(t testing.TB, endpoint string, transport policy.Transporter) *armeventgrid.ClientFactory {
	t.Helper()
	f, err := armeventgrid.NewClientFactory(SubscriptionID, Credential{}, ARMOptions(endpoint, transport))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// DataPlaneOptions are azcore options for a data-plane client (azeventgrid)
// that sends through client (a TLS test server's Client()) with retries off.
func DataPlaneOptions(client *http.Client) azcore.ClientOptions {
	return azcore.ClientOptions{Transport: client, Retry: policy.RetryOptions{MaxRetries: -1}}
}

// Await finishes a long-running ARM operation started with p (err is the
// Begin… call's error) and returns its result, failing the test on either
// error; what names the operation in the failure.
func Await[T any](t testing.TB, what string, p *runtime.Poller[T], err error) T {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	res, err := p.PollUntilDone(Context(t), nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return res
}

// ResponseError returns the status and ARM error code of err, failing the
// test unless err is an *azcore.ResponseError.
func ResponseError(t testing.TB, err error) (int, string) {
	t.Helper()
	var re *azcore.ResponseError
	if err == nil {
		t.Fatal("expected an error, got none")
	}
	if !errors.As(err, &re) {
		t.Fatalf("expected *azcore.ResponseError, got %T: %v", err, err)
	}
	return re.StatusCode, re.ErrorCode
}

// CreateNamespaceTopic creates namespace (in westus) and its CloudEvents
// topic through arm, in resourceGroup, and waits for both.
func CreateNamespaceTopic(t testing.TB, arm *armeventgrid.ClientFactory, resourceGroup, namespace, topic string) {
	t.Helper()
	ns, err := arm.NewNamespacesClient().BeginCreateOrUpdate(Context(t), resourceGroup, namespace,
		armeventgrid.Namespace{Location: to.Ptr("westus")}, nil)
	Await(t, "creating namespace "+namespace, ns, err)
	tp, err := arm.NewNamespaceTopicsClient().BeginCreateOrUpdate(Context(t), resourceGroup, namespace, topic,
		armeventgrid.NamespaceTopic{Properties: &armeventgrid.NamespaceTopicProperties{InputSchema: to.Ptr(armeventgrid.EventInputSchemaCloudEventSchemaV10)}}, nil)
	Await(t, "creating namespace topic "+topic, tp, err)
}
