// Package eventgrid is GridBridge's Azure Event Grid face for basic
// (custom) topics: the ARM management API of topics and event
// subscriptions, the HTTPS publish endpoint, webhook delivery through the
// emulator's engine, Storage Queue delivery into Azurite's queue service
// (the other Azure-resource destinations are captured), and the endpoint
// validation handshakes. Official SDKs
// (armeventgrid, azeventgrid, @azure/arm-eventgrid, @azure/eventgrid) talk
// to it unchanged.
//
// URL layout (mounted by Register on the emulator's router):
//
//	/subscriptions/…/providers/Microsoft.EventGrid/…   ARM (topics, event subscriptions)
//	/topics/{topic}/api/events                          publish (advertised as properties.endpoint)
//	/eventsubscriptions/{name}/validate?id=…&token=…    manual validation (the validationUrl)
//
// NewFace is the one constructor, for the emulator and the package's tests
// alike: basic topics and the namespaces face, with Azure's full retry
// rules (compat/eventgrid/retry) and dead letters written into the storage
// accounts of its --azure-storage connection strings (through azblobsink)
// or into its in-memory default.
package eventgrid
