package sqs

// The request and response shapes of the SQS API. Field names are the JSON
// protocol's member names; a `q` tag names a flattened list or map in the
// query protocol (Attribute.1.Name=...), whose members take the field name
// otherwise.

type createQueueInput struct {
	QueueName  *string
	Attributes map[string]string `q:"Attribute"`
	Tags       map[string]string `json:"tags" q:"Tag"`
}

// queueURLInput names the queue an operation acts on. The inputs of every
// operation on one queue embed it, so that onQueue finds it.
type queueURLInput struct {
	QueueUrl string //nolint:revive // the wire name
}

func (in *queueURLInput) queueURL() string { return in.QueueUrl }

// batchEntryID is the Id that names a batch entry in the answer.
type batchEntryID struct {
	Id string //nolint:revive // the wire name
}

func (e batchEntryID) entryID() string { return e.Id }

type getQueueURLInput struct {
	QueueName              *string
	QueueOwnerAWSAccountId string //nolint:revive // the wire name
}

type getQueueAttributesInput struct {
	queueURLInput
	AttributeNames []string `q:"AttributeName"`
}

type setQueueAttributesInput struct {
	queueURLInput
	Attributes map[string]string `q:"Attribute"`
}

type listQueuesInput struct {
	QueueNamePrefix string
	NextToken       string
	MaxResults      *int
}

// messageInput is one message to send, as SendMessage and each entry of
// SendMessageBatch carry it.
type messageInput struct {
	MessageBody             *string
	DelaySeconds            *int
	MessageAttributes       map[string]AttributeValue `q:"MessageAttribute"`
	MessageSystemAttributes map[string]AttributeValue `q:"MessageSystemAttribute"`
	MessageGroupId          string                    //nolint:revive // the wire name
	MessageDeduplicationId  string                    //nolint:revive // the wire name
}

type sendMessageInput struct {
	queueURLInput
	messageInput
}

type sendBatchEntry struct {
	batchEntryID
	messageInput
}

type sendMessageBatchInput struct {
	queueURLInput
	Entries []sendBatchEntry `q:"SendMessageBatchRequestEntry"`
}

type receiveMessageInput struct {
	queueURLInput
	AttributeNames              []string `q:"AttributeName"`
	MessageSystemAttributeNames []string `q:"MessageSystemAttributeName"`
	MessageAttributeNames       []string `q:"MessageAttributeName"`
	MaxNumberOfMessages         *int
	VisibilityTimeout           *int
	WaitTimeSeconds             *int
	ReceiveRequestAttemptId     string //nolint:revive // the wire name
}

type deleteMessageInput struct {
	queueURLInput
	ReceiptHandle string
}

type deleteBatchEntry struct {
	batchEntryID
	ReceiptHandle string
}

type deleteMessageBatchInput struct {
	queueURLInput
	Entries []deleteBatchEntry `q:"DeleteMessageBatchRequestEntry"`
}

// visibilityChange is one message's new visibility timeout, as
// ChangeMessageVisibility and each entry of its batch carry it.
type visibilityChange struct {
	ReceiptHandle     string
	VisibilityTimeout *int
}

type changeVisibilityInput struct {
	queueURLInput
	visibilityChange
}

type changeVisibilityBatchEntry struct {
	batchEntryID
	visibilityChange
}

type changeVisibilityBatchInput struct {
	queueURLInput
	Entries []changeVisibilityBatchEntry `q:"ChangeMessageVisibilityBatchRequestEntry"`
}

type tagQueueInput struct {
	queueURLInput
	Tags map[string]string `q:"Tag"`
}

type untagQueueInput struct {
	queueURLInput
	TagKeys []string `q:"TagKey"`
}

type listDeadLetterSourcesInput struct {
	queueURLInput
	NextToken  string
	MaxResults *int
}

// Outputs. Each renders itself in the query protocol's XML too.

type queueURLOutput struct {
	QueueUrl string //nolint:revive // the wire name
}

func (o queueURLOutput) writeXML(w *xmlWriter) { w.elem("QueueUrl", o.QueueUrl) }

type attributesOutput struct {
	Attributes map[string]string `json:",omitempty"`
}

func (o attributesOutput) writeXML(w *xmlWriter) { w.pairs("Attribute", "Name", "Value", o.Attributes) }

type listQueuesOutput struct {
	QueueUrls []string `json:",omitempty"` //nolint:revive // the wire name
	NextToken string   `json:",omitempty"`
}

func (o listQueuesOutput) writeXML(w *xmlWriter) { writeQueueURLs(w, o.QueueUrls, o.NextToken) }

// writeQueueURLs renders a page of queue URLs (ListQueues,
// ListDeadLetterSourceQueues) in the query protocol.
func writeQueueURLs(w *xmlWriter, urls []string, next string) {
	for _, u := range urls {
		w.elem("QueueUrl", u)
	}
	w.optional("NextToken", next)
}

type deadLetterSourcesOutput struct {
	QueueUrls []string `json:"queueUrls"` //nolint:revive // the wire name
	NextToken string   `json:",omitempty"`
}

func (o deadLetterSourcesOutput) writeXML(w *xmlWriter) { writeQueueURLs(w, o.QueueUrls, o.NextToken) }

type sendMessageOutput struct {
	MessageId                    string //nolint:revive // the wire name
	MD5OfMessageBody             string
	MD5OfMessageAttributes       string `json:",omitempty"`
	MD5OfMessageSystemAttributes string `json:",omitempty"`
	SequenceNumber               string `json:",omitempty"`
}

func (o sendMessageOutput) writeXML(w *xmlWriter) {
	w.elem("MessageId", o.MessageId)
	w.elem("MD5OfMessageBody", o.MD5OfMessageBody)
	w.optional("MD5OfMessageAttributes", o.MD5OfMessageAttributes)
	w.optional("MD5OfMessageSystemAttributes", o.MD5OfMessageSystemAttributes)
	w.optional("SequenceNumber", o.SequenceNumber)
}

type sendBatchResultEntry struct {
	batchEntryID
	sendMessageOutput
}

type batchErrorEntry struct {
	batchEntryID
	Code        string
	Message     string
	SenderFault bool
}

func writeBatchErrors(w *xmlWriter, failed []batchErrorEntry) {
	for _, f := range failed {
		w.open("BatchResultErrorEntry")
		w.elem("Id", f.Id)
		w.elem("Code", f.Code)
		w.elem("Message", f.Message)
		w.elem("SenderFault", boolString(f.SenderFault))
		w.close("BatchResultErrorEntry")
	}
}

type sendMessageBatchOutput struct {
	Successful []sendBatchResultEntry
	Failed     []batchErrorEntry
}

func (o sendMessageBatchOutput) writeXML(w *xmlWriter) {
	for _, s := range o.Successful {
		w.open("SendMessageBatchResultEntry")
		w.elem("Id", s.Id)
		s.sendMessageOutput.writeXML(w)
		w.close("SendMessageBatchResultEntry")
	}
	writeBatchErrors(w, o.Failed)
}

// idBatchOutput answers DeleteMessageBatch and
// ChangeMessageVisibilityBatch; entryTag is the query protocol's element
// for a success.
type idBatchOutput struct {
	Successful []batchEntryID
	Failed     []batchErrorEntry
	entryTag   string
}

func (o idBatchOutput) writeXML(w *xmlWriter) {
	for _, s := range o.Successful {
		w.open(o.entryTag)
		w.elem("Id", s.Id)
		w.close(o.entryTag)
	}
	writeBatchErrors(w, o.Failed)
}

type messageOutput struct {
	MessageId              string                    //nolint:revive // the wire name
	ReceiptHandle          string                    //nolint:revive // the wire name
	MD5OfBody              string                    //nolint:revive // the wire name
	Body                   string                    //nolint:revive // the wire name
	Attributes             map[string]string         `json:",omitempty"`
	MD5OfMessageAttributes string                    `json:",omitempty"`
	MessageAttributes      map[string]AttributeValue `json:",omitempty"`
}

type receiveMessageOutput struct {
	Messages []messageOutput `json:",omitempty"`
}

func (o receiveMessageOutput) writeXML(w *xmlWriter) {
	for _, m := range o.Messages {
		w.open("Message")
		w.elem("MessageId", m.MessageId)
		w.elem("ReceiptHandle", m.ReceiptHandle)
		w.elem("MD5OfBody", m.MD5OfBody)
		w.elem("Body", m.Body)
		w.pairs("Attribute", "Name", "Value", m.Attributes)
		w.optional("MD5OfMessageAttributes", m.MD5OfMessageAttributes)
		for _, name := range sortedKeys(m.MessageAttributes) {
			v := m.MessageAttributes[name]
			w.open("MessageAttribute")
			w.elem("Name", name)
			w.open("Value")
			if v.StringValue != nil {
				w.elem("StringValue", *v.StringValue)
			}
			if v.BinaryValue != nil {
				w.elem("BinaryValue", base64Std(v.BinaryValue))
			}
			w.elem("DataType", v.DataType)
			w.close("Value")
			w.close("MessageAttribute")
		}
		w.close("Message")
	}
}

type tagsOutput struct {
	Tags map[string]string `json:",omitempty"`
}

func (o tagsOutput) writeXML(w *xmlWriter) { w.pairs("Tag", "Key", "Value", o.Tags) }

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
