package testkit

import (
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
)

// NamespaceClientOptions reads an Event Grid namespace's endpoint
// (topicsConfiguration.hostname) and key1 through ARM, for aznamespaces
// clients that trust the emulator's CA.
func (e *Emulator) NamespaceClientOptions(namespace string) namespaces.ClientOptions {
	e.t.Helper()
	client := e.ARM().NewNamespacesClient()
	ns, keys := readWithKeys(e, "namespace", namespace, client.Get, client.ListSharedAccessKeys)
	return namespaces.ClientOptions{
		Endpoint: namespaces.Endpoint(*ns.Properties.TopicsConfiguration.Hostname),
		Key:      *keys.Key1,
		RootCAs:  e.pool,
	}
}

// NamespaceSender returns an aznamespaces sender for topic in namespace.
func (e *Emulator) NamespaceSender(namespace, topic string) *aznamespaces.SenderClient {
	e.t.Helper()
	c, err := namespaces.NewSenderClient(e.NamespaceClientOptions(namespace), topic)
	if err != nil {
		e.t.Fatalf("testkit: sender for %s/%s: %v", namespace, topic, err)
	}
	return c
}

// NamespaceReceiver returns an aznamespaces receiver for a Queue-mode
// subscription of topic in namespace.
func (e *Emulator) NamespaceReceiver(namespace, topic, subscription string) *aznamespaces.ReceiverClient {
	e.t.Helper()
	c, err := namespaces.NewReceiverClient(e.NamespaceClientOptions(namespace), topic, subscription)
	if err != nil {
		e.t.Fatalf("testkit: receiver for %s/%s/%s: %v", namespace, topic, subscription, err)
	}
	return c
}
