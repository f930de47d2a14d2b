package targets

import (
	"context"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Capture stands in for a target GridBridge does not call. Every attempt
// succeeds unless a fault rule says otherwise, and the journal records the
// input the target would have received.
type Capture struct {
	Arn string
}

// Deliver implements engine.Destination.
func (c Capture) Deliver(_ context.Context, a *engine.Attempt) engine.Outcome {
	return engine.Outcome{
		OK:          true,
		Destination: c.Arn,
		Request:     &engine.RecordedRequest{Method: "Invoke", URL: c.Arn, Body: batchBody(a.Batch)},
	}
}

// batchBody is the input of a batch's only event: rule targets receive one
// event per invocation.
func batchBody(b *engine.Batch) []byte {
	if len(b.Items) == 0 {
		return nil
	}
	return b.Items[0].Body
}
