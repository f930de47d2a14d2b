// Package fakes holds programmable stand-ins for the endpoints GridBridge
// delivers to, for tests of GridBridge itself and of code that uses it.
//
// Webhook is an Event Grid webhook subscriber: it answers both validation
// handshakes by itself, records every request, and answers deliveries
// from a script:
//
//	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(503), fakes.Status(503), fakes.Status(200)))
//	// create an event subscription with hook.URL(), publish, then:
//	hook.WaitForDeliveries(ctx, 3)
//	events := hook.Events()
package fakes
