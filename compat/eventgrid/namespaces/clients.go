package namespaces

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
)

// ClientOptions point official aznamespaces clients at a GridBridge namespace.
type ClientOptions struct {
	// Endpoint is "https://" + the namespace's topicsConfiguration.hostname
	// (Endpoint(hostname) builds it).
	Endpoint string
	// Key is key1 or key2 from listKeys; it is sent as
	// "Authorization: SharedAccessKey <key>".
	Key string
	// RootCAs trusts GridBridge's TLS certificate. The SDK sends
	// credentials only over https, so the TLS listener is the one to use.
	RootCAs *x509.CertPool
}

// NewSenderClient returns a client that publishes to topic.
func NewSenderClient(o ClientOptions, topic string) (*aznamespaces.SenderClient, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	return aznamespaces.NewSenderClientWithSharedKeyCredential(o.Endpoint, topic, azcore.NewKeyCredential(o.Key),
		&aznamespaces.SenderClientOptions{ClientOptions: o.clientOptions()})
}

// NewReceiverClient returns a client that receives and settles the events
// of one Queue-mode subscription.
func NewReceiverClient(o ClientOptions, topic, subscription string) (*aznamespaces.ReceiverClient, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	return aznamespaces.NewReceiverClientWithSharedKeyCredential(o.Endpoint, topic, subscription, azcore.NewKeyCredential(o.Key),
		&aznamespaces.ReceiverClientOptions{ClientOptions: o.clientOptions()})
}

func (o ClientOptions) check() error {
	switch {
	case o.Endpoint == "":
		return errors.New("namespaces: ClientOptions.Endpoint is empty; use Endpoint(topicsConfiguration.hostname)")
	case o.Key == "":
		return errors.New("namespaces: ClientOptions.Key is empty; use key1 or key2 from listKeys")
	}
	return nil
}

// clientOptions trust RootCAs and set no overall timeout: a receive may
// legitimately wait up to 120 s.
func (o ClientOptions) clientOptions() azcore.ClientOptions {
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 16,
	}
	return azcore.ClientOptions{Transport: &http.Client{Transport: transport}}
}
