package eventsv2

import (
	"net/http"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// capturedRequest records the call GridBridge would make to a target it has
// no service for (a Lambda function, an SNS topic, …): the attempt succeeds
// and the journal keeps what was sent.
func (c *invocation) capturedRequest(payloads [][]byte) *engine.RecordedRequest {
	body := jsonArray(payloads)
	if len(payloads) == 1 {
		body = payloads[0]
	}
	return &engine.RecordedRequest{
		Method: http.MethodPost, URL: c.cfg.invoke.targetArn,
		Header: http.Header{"X-Amzn-Requestid": {c.requestID}},
		Body:   body,
	}
}

// forwardToBus puts each event on the v2 bus the target names, unchanged
// (Input and Transformer shape what other targets receive, not events).
// An event that already passed through that bus fails with LOOP_DETECTED.
func (c *invocation) forwardToBus() invokeResult {
	res := invokeResult{request: c.capturedRequest(c.originalEvents())}
	for _, it := range c.items {
		if code, message := c.sub.svc.forward(deliveryOf(it).event, c.cfg.invoke.targetArn); code != "" {
			res.code, res.message = code, message
			return res
		}
	}
	res.ok = true
	return res
}
