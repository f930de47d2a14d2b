package testkit

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
)

// NamespaceClientOptions point official aznamespaces clients at an Event
// Grid namespace of the emulator.
type NamespaceClientOptions struct {
	// Endpoint is "https://" + the namespace's topicsConfiguration.hostname.
	Endpoint string
	// Key is key1 or key2 from listKeys; it is sent as
	// "Authorization: SharedAccessKey <key>".
	Key string
	// RootCAs trusts the emulator's TLS certificate. The SDK sends
	// credentials only over https, so the TLS listener is the one to use.
	RootCAs *x509.CertPool
}

// NewNamespaceSender returns an aznamespaces client that publishes to topic.
func NewNamespaceSender(o NamespaceClientOptions, topic string) (*aznamespaces.SenderClient, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	return aznamespaces.NewSenderClientWithSharedKeyCredential(o.Endpoint, topic, azcore.NewKeyCredential(o.Key),
		&aznamespaces.SenderClientOptions{ClientOptions: o.clientOptions()})
}

// NewNamespaceReceiver returns an aznamespaces client that receives and
// settles the events of one Queue-mode subscription.
func NewNamespaceReceiver(o NamespaceClientOptions, topic, subscription string) (*aznamespaces.ReceiverClient, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	return aznamespaces.NewReceiverClientWithSharedKeyCredential(o.Endpoint, topic, subscription, azcore.NewKeyCredential(o.Key),
		&aznamespaces.ReceiverClientOptions{ClientOptions: o.clientOptions()})
}

func (o NamespaceClientOptions) check() error {
	switch {
	case o.Endpoint == "":
		return errors.New("testkit: NamespaceClientOptions.Endpoint is empty; it is \"https://\" + topicsConfiguration.hostname")
	case o.Key == "":
		return errors.New("testkit: NamespaceClientOptions.Key is empty; use key1 or key2 from listKeys")
	}
	return nil
}

// clientOptions trust RootCAs and set no overall timeout: a receive may
// legitimately wait up to 120 s.
func (o NamespaceClientOptions) clientOptions() azcore.ClientOptions {
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 16,
	}
	return azcore.ClientOptions{Transport: &http.Client{Transport: transport}}
}

// NamespaceClientOptions reads an Event Grid namespace's endpoint
// (topicsConfiguration.hostname) and key1 through ARM, for aznamespaces
// clients that trust the emulator's CA.
func (e *Emulator) NamespaceClientOptions(namespace string) NamespaceClientOptions {
	e.t.Helper()
	client := e.ARM().NewNamespacesClient()
	ns, keys := readWithKeys(e, "namespace", namespace, client.Get, client.ListSharedAccessKeys)
	return NamespaceClientOptions{
		Endpoint: "https://" + *ns.Properties.TopicsConfiguration.Hostname,
		Key:      *keys.Key1,
		RootCAs:  e.pool,
	}
}

// NamespaceSender returns an aznamespaces sender for topic in namespace.
func (e *Emulator) NamespaceSender(namespace, topic string) *aznamespaces.SenderClient {
	e.t.Helper()
	c, err := NewNamespaceSender(e.NamespaceClientOptions(namespace), topic)
	if err != nil {
		e.fatalf("sender for %s/%s: %v", namespace, topic, err)
	}
	return c
}

// NamespaceReceiver returns an aznamespaces receiver for a Queue-mode
// subscription of topic in namespace.
func (e *Emulator) NamespaceReceiver(namespace, topic, subscription string) *aznamespaces.ReceiverClient {
	e.t.Helper()
	c, err := NewNamespaceReceiver(e.NamespaceClientOptions(namespace), topic, subscription)
	if err != nil {
		e.fatalf("receiver for %s/%s/%s: %v", namespace, topic, subscription, err)
	}
	return c
}
