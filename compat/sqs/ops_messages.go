package sqs

import (
	"strings"
	"time"
)

func durationPtr(n *int) *time.Duration {
	if n == nil {
		return nil
	}
	d := time.Duration(*n) * time.Second
	return &d
}

func (s *Service) sendMessage(c *call, q *Queue, in *sendMessageInput) (any, error) {
	return in.send(q, c.caller.Account)
}

// send sends m to q for the account senderID; a message with no body is
// refused as MissingParameter.
func (m *messageInput) send(q *Queue, senderID string) (sendMessageOutput, error) {
	if m.MessageBody == nil {
		return sendMessageOutput{}, errMissingParameter("MessageBody")
	}
	trace, err := traceHeader(m.MessageSystemAttributes)
	if err != nil {
		return sendMessageOutput{}, err
	}
	res, err := q.send(sendInput{
		body: *m.MessageBody, attrs: m.MessageAttributes, delay: durationPtr(m.DelaySeconds),
		group: m.MessageGroupId, dedupID: m.MessageDeduplicationId, senderID: senderID, traceHeader: trace,
	})
	if err != nil {
		return sendMessageOutput{}, err
	}
	return sendMessageOutput{
		MessageId: res.id, MD5OfMessageBody: res.md5Body, MD5OfMessageAttributes: res.md5Attrs,
		MD5OfMessageSystemAttributes: md5OfAttributes(m.MessageSystemAttributes), SequenceNumber: res.seq,
	}, nil
}

// traceHeader returns the AWSTraceHeader a send's MessageSystemAttributes
// carry, the only system attribute a sender may set: a String. Like SQS, it
// does not count against the message's size.
func traceHeader(attrs map[string]AttributeValue) (string, error) {
	for name, v := range attrs {
		if name != awsTraceHeader {
			return "", errInvalidParameter("Message system attribute name '%s' is invalid. The only message system attribute a message can be sent with is %s.", name, awsTraceHeader)
		}
		if v.DataType != "String" || v.StringValue == nil || *v.StringValue == "" {
			return "", errInvalidParameter("Message system attribute '%s' must contain a non-empty value of type 'String'.", name)
		}
	}
	if v, ok := attrs[awsTraceHeader]; ok {
		return *v.StringValue, nil
	}
	return "", nil
}

// batchEntry is an entry of a batch operation, named by its Id.
type batchEntry interface{ entryID() string }

// checkBatch applies SQS's rules for a batch's entry ids: 1 to 10 entries,
// each id distinct, alphanumeric with hyphens and underscores, at most 80.
// entryShape names an entry in SQS's messages (SendMessageBatchRequestEntry).
func checkBatch[E batchEntry](entries []E, entryShape string) error {
	switch {
	case len(entries) == 0:
		return errEmptyBatch(entryShape)
	case len(entries) > maxBatchEntries:
		return errTooManyEntries(len(entries))
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		id := e.entryID()
		if id == "" || len(id) > 80 || !isIDChars(id) {
			return errInvalidBatchEntryID()
		}
		if seen[id] {
			return errIDsNotDistinct(id)
		}
		seen[id] = true
	}
	return nil
}

// idBatch checks a batch whose results are only entry ids (DeleteMessageBatch,
// ChangeMessageVisibilityBatch), applies do to each entry, and lists each
// under Successful or, with do's error, under Failed; operation names the
// batch operation, whose entries are <operation>RequestEntry and whose XML
// results <operation>ResultEntry.
func idBatch[E batchEntry](entries []E, operation string, do func(E) error) (any, error) {
	if err := checkBatch(entries, operation+"RequestEntry"); err != nil {
		return nil, err
	}
	out := idBatchOutput{Successful: make([]batchEntryID, 0, len(entries)), Failed: []batchErrorEntry{}, entryTag: operation + "ResultEntry"}
	for _, e := range entries {
		if err := do(e); err != nil {
			out.Failed = append(out.Failed, batchError(e.entryID(), err))
			continue
		}
		out.Successful = append(out.Successful, batchEntryID{Id: e.entryID()})
	}
	return out, nil
}

func batchError(id string, err error) batchErrorEntry {
	e, ok := err.(*apiError)
	if !ok {
		e = errInternal("%v", err)
	}
	return batchErrorEntry{batchEntryID: batchEntryID{Id: id}, Code: e.QueryCode, Message: e.Message, SenderFault: e.Sender}
}

func (s *Service) sendMessageBatch(c *call, q *Queue, in *sendMessageBatchInput) (any, error) {
	size := 0
	for _, e := range in.Entries {
		if e.MessageBody != nil {
			size += len(*e.MessageBody)
		}
		size += attributesSize(e.MessageAttributes)
	}
	if err := checkBatch(in.Entries, "SendMessageBatchRequestEntry"); err != nil {
		return nil, err
	}
	if size > maxMessageSize {
		return nil, errBatchTooLong(size)
	}
	out := sendMessageBatchOutput{Successful: make([]sendBatchResultEntry, 0, len(in.Entries)), Failed: []batchErrorEntry{}}
	for _, e := range in.Entries {
		sent, err := e.send(q, c.caller.Account)
		if err != nil {
			out.Failed = append(out.Failed, batchError(e.Id, err))
			continue
		}
		out.Successful = append(out.Successful, sendBatchResultEntry{batchEntryID: e.batchEntryID, sendMessageOutput: sent})
	}
	return out, nil
}

func (s *Service) receiveMessage(c *call, q *Queue, in *receiveMessageInput) (any, error) {
	opts := receiveInput{max: 1, visibility: durationPtr(in.VisibilityTimeout), wait: durationPtr(in.WaitTimeSeconds)}
	if in.MaxNumberOfMessages != nil {
		if n := *in.MaxNumberOfMessages; n < 1 || n > maxReceiveMessages {
			return nil, errInvalidParameter("Value %d for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.", n)
		}
		opts.max = *in.MaxNumberOfMessages
	}
	if v := opts.visibility; v != nil && (*v < 0 || *v > maxVisibility) {
		return nil, errInvalidParameter("Value %d for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200, if provided.", *in.VisibilityTimeout)
	}
	if w := opts.wait; w != nil && (*w < 0 || *w > maxWait) {
		return nil, errInvalidParameter("Value %d for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.", *in.WaitTimeSeconds)
	}
	systemNames := append(append([]string(nil), in.AttributeNames...), in.MessageSystemAttributeNames...)
	got := q.receive(c.ctx, opts)
	out := receiveMessageOutput{Messages: make([]messageOutput, 0, len(got))}
	for _, m := range got {
		attrs := selectAttributes(m.attrs, in.MessageAttributeNames)
		out.Messages = append(out.Messages, messageOutput{
			MessageId: m.id, ReceiptHandle: m.receipt, MD5OfBody: m.md5Body, Body: m.body,
			Attributes: selectSystem(&m, systemNames), MessageAttributes: attrs,
			MD5OfMessageAttributes: md5OfAttributes(attrs),
		})
	}
	return out, nil
}

// selectSystem keeps the system attributes named ("All" for all).
func selectSystem(m *received, names []string) map[string]string {
	if len(names) == 0 {
		return nil
	}
	all := m.system()
	out := map[string]string{}
	for _, n := range names {
		if n == "All" {
			for k, v := range all {
				out[k] = v
			}
			continue
		}
		if v, ok := all[n]; ok {
			out[n] = v
		}
	}
	return out
}

// selectAttributes keeps the message attributes named: "All", "*" or ".*"
// for all, "prefix.*" for those whose names start with prefix (SQS's "Hel.*"
// matches both Hello and Help.Me).
func selectAttributes(all map[string]AttributeValue, names []string) map[string]AttributeValue {
	if len(names) == 0 || len(all) == 0 {
		return nil
	}
	out := map[string]AttributeValue{}
	for _, n := range names {
		for k, v := range all {
			switch {
			case n == "All" || n == "*" || n == ".*":
			case strings.HasSuffix(n, ".*") && strings.HasPrefix(k, strings.TrimSuffix(n, ".*")):
			case k == n:
			default:
				continue
			}
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (s *Service) deleteMessage(c *call, q *Queue, in *deleteMessageInput) (any, error) {
	if in.ReceiptHandle == "" {
		return nil, errMissingParameter("ReceiptHandle")
	}
	return nil, q.deleteMessage(in.ReceiptHandle)
}

func (s *Service) deleteMessageBatch(c *call, q *Queue, in *deleteMessageBatchInput) (any, error) {
	if err := checkBatch(in.Entries, "DeleteMessageBatchRequestEntry"); err != nil {
		return nil, err
	}
	// checkBatch bounds the entries at maxBatchEntries: the verdicts fit
	// here, and the queue's lock is taken once for the batch.
	var errs [maxBatchEntries]error
	q.deleteMessages(in.Entries, errs[:len(in.Entries)])
	out := idBatchOutput{Successful: make([]batchEntryID, 0, len(in.Entries)), Failed: []batchErrorEntry{}, entryTag: "DeleteMessageBatchResultEntry"}
	for i, e := range in.Entries {
		if errs[i] != nil {
			out.Failed = append(out.Failed, batchError(e.Id, errs[i]))
			continue
		}
		out.Successful = append(out.Successful, batchEntryID{Id: e.Id})
	}
	return out, nil
}

func (s *Service) changeMessageVisibility(c *call, q *Queue, in *changeVisibilityInput) (any, error) {
	return nil, in.apply(q)
}

func (s *Service) changeMessageVisibilityBatch(c *call, q *Queue, in *changeVisibilityBatchInput) (any, error) {
	return idBatch(in.Entries, "ChangeMessageVisibilityBatch", func(e changeVisibilityBatchEntry) error {
		return e.apply(q)
	})
}

// apply sets the visibility timeout of the message v names; one with no
// VisibilityTimeout is refused as MissingParameter.
func (v *visibilityChange) apply(q *Queue) error {
	if v.VisibilityTimeout == nil {
		return errMissingParameter("VisibilityTimeout")
	}
	return q.changeVisibility(v.ReceiptHandle, *durationPtr(v.VisibilityTimeout))
}
