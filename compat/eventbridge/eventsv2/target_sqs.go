package eventsv2

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/smithy-go"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// sqsMaxMessageBytes is SQS's limit on a message: body plus attributes.
const sqsMaxMessageBytes = 256 * 1024

// sendToQueue writes each event as one message through Config.SQS, with
// the system metadata as message attributes (EB-D3). On a FIFO queue the
// MessageGroupId is the EventGroupId and a failed message stops the rest of
// the batch, which is one group's (EB-4): sending them would put later events
// before the one that failed.
func (c *invocation) sendToQueue(payloads [][]byte) invokeResult {
	target := c.cfg.invoke.targetArn
	fifo := isFIFOQueueARN(target)
	messages := make([]engine.DeadLetter, len(c.items))
	for i, it := range c.items {
		d := deliveryOf(it)
		m := engine.DeadLetter{
			Destination: target, Body: payloads[i], ContentType: "application/json",
			Attributes: metadataAttributes(d.metadata), EventIDs: []string{d.event.id},
		}
		if fifo {
			m.MessageGroupID = cmp.Or(d.event.groupID, d.event.id)
			m.DeduplicationID = c.messageDeduplicationID(d)
		}
		messages[i] = m
	}
	res := invokeResult{request: sqsRequest(target, c.requestID, messages)}
	for i, m := range messages {
		if fifo && len(res.rejected) > 0 {
			res.rejected = append(res.rejected, i)
			continue
		}
		if messageSize(m) > sqsMaxMessageBytes {
			res.rejected = append(res.rejected, i)
			if res.code == "" {
				res.code, res.status = CodeRequestTooLarge, http.StatusRequestEntityTooLarge
				res.message = fmt.Sprintf("The message for event %s is %d bytes; SQS takes at most %d.", m.EventIDs[0], messageSize(m), sqsMaxMessageBytes)
			}
			continue
		}
		if err := c.sub.svc.sqs.Write(c.ctx, m); err != nil {
			res.rejected = append(res.rejected, i)
			if res.code == "" {
				res.code, res.message, res.status = c.classifySQSError(err)
			}
		}
	}
	if len(res.rejected) == 0 {
		res.ok = true
	}
	return res
}

// messageDeduplicationID keeps SQS from discarding a replayed event as a
// duplicate of its live delivery: replays get ids of their own.
func (c *invocation) messageDeduplicationID(d *delivery) string {
	id := cmp.Or(d.event.deduplicationID, d.event.id)
	if d.deliveryType == DeliveryReplay {
		return truncateChars("replay-"+c.sub.id+"-"+d.event.id, 128)
	}
	return id
}

func messageSize(m engine.DeadLetter) int {
	n := len(m.Body)
	for _, a := range m.Attributes {
		n += len(a.Name) + len(a.Type) + len(a.Value)
	}
	return n
}

// classifySQSError names a failed SendMessage by EB-8's codes.
func (c *invocation) classifySQSError(err error) (code, message string, status int) {
	target := c.cfg.invoke.targetArn
	var withStatus interface{ HTTPStatusCode() int }
	if errors.As(err, &withStatus) {
		status = withStatus.HTTPStatusCode()
	}
	if c.timedOut() {
		return CodeExecutionTimeout, fmt.Sprintf("SQS did not answer within %s.", c.cfg.invoke.timeout), status
	}
	if errors.Is(err, engine.ErrDestinationNotFound) {
		return CodeResourceNotFound, cantAccessMessage(target), status
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		name := apiErr.ErrorCode()
		switch {
		case strings.Contains(name, "Throttl") || name == "RequestThrottled" || name == "OverLimit":
			return CodeThrottling, apiErr.ErrorMessage(), status
		case strings.HasPrefix(name, "KMS.Disabled") || strings.HasPrefix(name, "KMS.KMSInvalidState") || strings.HasPrefix(name, "KmsDisabled"):
			return CodeKMSInvalidState, apiErr.ErrorMessage(), status
		case strings.HasPrefix(name, "KMS.NotFound"):
			return CodeResourceNotFound, cantAccessMessage(target), status
		case strings.Contains(name, "AccessDenied") || strings.Contains(name, "NotAuthorized") || strings.Contains(name, "AuthorizationError"):
			return CodeAccessDenied, cantAccessMessage(target), status
		case status >= 400 && status < 500 || apiErr.ErrorFault() == smithy.FaultClient:
			return CodeCustomerValidation, cmp.Or(apiErr.ErrorMessage(), name), status
		}
		return CodeInvocationDependencyInternal, fmt.Sprintf("SQS answered %s: %s", name, apiErr.ErrorMessage()), status
	}
	return CodeInvocationDependencyInternal, err.Error(), status
}

// sqsRequest records the messages as the SendMessageBatch request that
// carries them, for the delivery-attempt log.
func sqsRequest(target, requestID string, messages []engine.DeadLetter) *engine.RecordedRequest {
	type attribute struct {
		DataType    string `json:"DataType"`
		StringValue string `json:"StringValue"`
	}
	type entry struct {
		ID                     string               `json:"Id"`
		MessageBody            string               `json:"MessageBody"`
		MessageAttributes      map[string]attribute `json:"MessageAttributes,omitempty"`
		MessageGroupID         string               `json:"MessageGroupId,omitempty"`
		MessageDeduplicationID string               `json:"MessageDeduplicationId,omitempty"`
	}
	entries := make([]entry, len(messages))
	for i, m := range messages {
		e := entry{ID: m.EventIDs[0], MessageBody: string(m.Body), MessageGroupID: m.MessageGroupID, MessageDeduplicationID: m.DeduplicationID}
		if len(m.Attributes) > 0 {
			e.MessageAttributes = make(map[string]attribute, len(m.Attributes))
			for _, a := range m.Attributes {
				e.MessageAttributes[a.Name] = attribute{DataType: a.Type, StringValue: a.Value}
			}
		}
		entries[i] = e
	}
	body, _ := json.Marshal(struct {
		QueueArn string  `json:"QueueArn"`
		Entries  []entry `json:"Entries"`
	}{target, entries})
	return &engine.RecordedRequest{
		Method: http.MethodPost, URL: target,
		Header: http.Header{"X-Amz-Target": {"AmazonSQS.SendMessageBatch"}, "X-Amzn-Requestid": {requestID}},
		Body:   body,
	}
}
