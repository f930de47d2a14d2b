package eventsv2

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// maxResponseRead bounds how much of a target's answer is read: enough for
// its error message or a partial-batch report.
const maxResponseRead = 64 << 10

// post delivers to an http(s) URL target: one event as a JSON body, a batch
// as a JSON array. Each event's system metadata travels as headers named by
// TransportName ("aws-EventId", "aws-DeliveryType", …), one header line per
// event of the batch, in batch order.
//
// Any 2xx answer is success, unless its body reports failed events the way
// a partial batch response does: {"batchItemFailures":[{"itemIdentifier":
// "<event id>"}]} — then the others count as delivered and the batch fails
// with PARTIAL_BATCH_FAILURE.
func (c *invocation) post(payloads [][]byte) invokeResult {
	target := c.cfg.invoke.targetArn
	body := payloads[0]
	if len(payloads) > 1 {
		body = jsonArray(payloads)
	}
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return invokeResult{code: CodeInvocationDependencyInternal, message: "GridBridge could not build the request: " + err.Error(),
			request: &engine.RecordedRequest{Method: http.MethodPost, URL: target, Body: body}}
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("User-Agent", "GridBridge-EventBridge-v2")
	for _, it := range c.items {
		for _, p := range deliveryOf(it).metadata {
			req.Header.Add(TransportName(p.key), p.value)
		}
	}
	res := invokeResult{request: &engine.RecordedRequest{Method: http.MethodPost, URL: target, Header: req.Header.Clone(), Body: body}}

	resp, err := c.sub.svc.httpClient.Do(req)
	if err != nil {
		res.code, res.message = c.classifyHTTPError(err)
		return res
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseRead))
	res.status = resp.StatusCode
	res.targetRequestID = cmp.Or(resp.Header.Get("X-Amzn-RequestId"), resp.Header.Get("X-Request-Id"))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if rejected := c.refusedByAnswer(answer); len(rejected) > 0 {
			res.code, res.rejected = CodePartialBatchFailure, rejected
			res.message = fmt.Sprintf("The target refused %d of %d event(s).", len(rejected), len(c.items))
			return res
		}
		res.ok = true
		return res
	}
	res.code = codeForStatus(resp.StatusCode)
	switch res.code {
	case CodeCustomerValidation:
		res.message = targetMessage(resp.StatusCode, answer)
	case CodeAccessDenied, CodeResourceNotFound:
		res.message = cantAccessMessage(target)
	default:
		res.message = fmt.Sprintf("HTTP %d: %s", resp.StatusCode, targetMessage(resp.StatusCode, answer))
	}
	return res
}

// classifyHTTPError names a call that got no answer.
func (c *invocation) classifyHTTPError(err error) (code, message string) {
	if c.timedOut() {
		return CodeExecutionTimeout, fmt.Sprintf("The target did not answer within %s.", c.cfg.invoke.timeout)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return CodeResourceNotFound, cantAccessMessage(c.cfg.invoke.targetArn)
	}
	return CodeInvocationDependencyInternal, err.Error()
}

// refusedByAnswer reads a partial batch response and returns the indexes of
// the events it names.
func (c *invocation) refusedByAnswer(answer []byte) []int {
	var report struct {
		BatchItemFailures []struct {
			ItemIdentifier string `json:"itemIdentifier"`
		} `json:"batchItemFailures"`
	}
	if len(answer) == 0 || json.Unmarshal(answer, &report) != nil || len(report.BatchItemFailures) == 0 {
		return nil
	}
	named := make(map[string]bool, len(report.BatchItemFailures))
	for _, f := range report.BatchItemFailures {
		named[f.ItemIdentifier] = true
	}
	var rejected []int
	for i, it := range c.items {
		if named[it.ID] {
			rejected = append(rejected, i)
		}
	}
	return rejected
}

// targetMessage is the target API's own message (EB-8's CUSTOMER_VALIDATION):
// a "message" member of a JSON answer, else the answer's text, else the
// status text.
func targetMessage(status int, answer []byte) string {
	var fields map[string]any
	if json.Unmarshal(answer, &fields) == nil {
		for _, k := range []string{"message", "Message", "errorMessage", "error"} {
			if s, ok := fields[k].(string); ok && s != "" {
				return s
			}
		}
	}
	if text := strings.TrimSpace(string(answer)); text != "" {
		return text
	}
	return fmt.Sprintf("%d %s", status, http.StatusText(status))
}

// jsonArray joins payloads into a JSON array; a payload that is not JSON
// (a text template's output) goes in as a JSON string.
func jsonArray(payloads [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, p := range payloads {
		if i > 0 {
			b.WriteByte(',')
		}
		if json.Valid(p) {
			b.Write(p)
		} else {
			q, _ := json.Marshal(string(p))
			b.Write(q)
		}
	}
	b.WriteByte(']')
	return b.Bytes()
}
