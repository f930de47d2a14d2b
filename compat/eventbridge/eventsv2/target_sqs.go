package eventsv2

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// sendToQueue sends each event as one message through Config.SQS, with the
// system metadata as message attributes (EB-D3). On a FIFO queue the
// MessageGroupId is the EventGroupId and a failed message stops the rest of
// the batch, which is one group's (EB-4): sending them would put later events
// before the one that failed.
func (c *invocation) sendToQueue(payloads [][]byte) invokeResult {
	target := c.cfg.invoke.targetArn
	fifo := sqssend.IsFIFO(target)
	messages := make([]sqssend.Message, len(c.items))
	for i, it := range c.items {
		d := deliveryOf(it)
		m := sqssend.Message{
			QueueArn: target, Body: payloads[i], Attributes: metadataAttributes(d.metadata), EventIDs: []string{d.event.id},
		}
		if fifo {
			m.MessageGroupID = cmp.Or(d.event.groupID, d.event.id)
			m.DeduplicationID = c.messageDeduplicationID(d)
		}
		messages[i] = m
	}
	res := invokeResult{request: sqsRequest(target, c.requestID, messages)}
	unsent, err := sqssend.Send(c.ctx, sizeLimited{c.sub.svc.sqs}, messages)
	if len(unsent) == 0 {
		res.ok = true
		return res
	}
	res.rejected = unsent
	var big *tooLarge
	if errors.As(err, &big) {
		res.code, res.status = CodeRequestTooLarge, http.StatusRequestEntityTooLarge
		res.message = fmt.Sprintf("The message for event %s is %d bytes; SQS takes at most %d.", big.eventID, big.size, sqssend.MaxMessageBytes)
	} else {
		res.code, res.message, res.status = c.classifySQSError(err)
	}
	return res
}

// sizeLimited refuses a message larger than any SQS queue takes, as SQS
// would, and sends the others; the queue itself refuses one larger than its
// own MaximumMessageSize.
type sizeLimited struct{ queues sqssend.Queues }

// tooLarge is sizeLimited's refusal.
type tooLarge struct {
	eventID string
	size    int
}

func (e *tooLarge) Error() string { return fmt.Sprintf("message of %d bytes", e.size) }

func (l sizeLimited) Send(ctx context.Context, m sqssend.Message) error {
	if size := messageSize(m); size > sqssend.MaxMessageBytes {
		return &tooLarge{eventID: m.EventIDs[0], size: size}
	}
	return l.queues.Send(ctx, m)
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

func messageSize(m sqssend.Message) int {
	n := len(m.Body)
	for _, a := range m.Attributes {
		n += len(a.Name) + len(a.Type) + len(a.Value)
	}
	return n
}

// classifySQSError names a failed SendMessage by EB-8's codes.
func (c *invocation) classifySQSError(err error) (code, message string, status int) {
	target := c.cfg.invoke.targetArn
	status = sqssend.StatusOf(err)
	if c.timedOut() {
		return CodeExecutionTimeout, fmt.Sprintf("SQS did not answer within %s.", c.cfg.invoke.timeout), status
	}
	name, text, answered := sqssend.Answer(err)
	switch sqssend.CauseOf(err) {
	case sqssend.CauseTooLarge:
		return CodeRequestTooLarge, sqssend.TooLargeMessage(err), http.StatusRequestEntityTooLarge
	case sqssend.CauseQueueMissing, sqssend.CauseKMSKeyMissing:
		return CodeResourceNotFound, cantAccessMessage(target), status
	case sqssend.CauseAccessDenied:
		return CodeAccessDenied, cantAccessMessage(target), status
	case sqssend.CauseThrottled:
		return CodeThrottling, text, status
	case sqssend.CauseKMSInvalidState:
		return CodeKMSInvalidState, text, status
	case sqssend.CauseRejected:
		return CodeCustomerValidation, cmp.Or(text, name), status
	}
	if answered {
		return CodeInvocationDependencyInternal, fmt.Sprintf("SQS answered %s: %s", name, text), status
	}
	return CodeInvocationDependencyInternal, err.Error(), status
}

// sqsRequest records the messages as the SendMessageBatch request that
// carries them, for the delivery-attempt log.
func sqsRequest(target, requestID string, messages []sqssend.Message) *engine.RecordedRequest {
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
