package eventgrid

import (
	"bytes"
	"context"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// captureDestination stands in for Azure-resource destinations GridBridge
// does not reach (Service Bus, Event Hubs, Azure Functions, Hybrid
// Connections, and Storage queues when no queue service is configured): it records what would have been sent and reports it
// delivered, so no event vanishes (D-DROP). Fault rules can still make its
// attempts fail to exercise retries and dead letters.
type captureDestination struct {
	endpointType string
	resourceID   string
}

func (c *captureDestination) Deliver(_ context.Context, a *engine.Attempt) engine.Outcome {
	var body bytes.Buffer
	body.WriteByte('[')
	for i, it := range a.Batch.Items {
		if i > 0 {
			body.WriteByte(',')
		}
		body.Write(it.Bytes())
	}
	body.WriteByte(']')
	return engine.Outcome{
		OK: true, Name: "Success", Destination: c.resourceID,
		Message: "captured: GridBridge records deliveries to " + c.endpointType + " destinations without sending them",
		Request: &engine.RecordedRequest{Method: "CAPTURE", URL: c.resourceID, Body: body.Bytes()},
	}
}
