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

type queueURLInput struct {
	QueueUrl string //nolint:revive // the wire name
}

type getQueueURLInput struct {
	QueueName              *string
	QueueOwnerAWSAccountId string //nolint:revive // the wire name
}

type getQueueAttributesInput struct {
	QueueUrl       string   //nolint:revive // the wire name
	AttributeNames []string `q:"AttributeName"`
}

type setQueueAttributesInput struct {
	QueueUrl   string            //nolint:revive // the wire name
	Attributes map[string]string `q:"Attribute"`
}

type listQueuesInput struct {
	QueueNamePrefix string
	NextToken       string
	MaxResults      *int
}

type sendMessageInput struct {
	QueueUrl                string //nolint:revive // the wire name
	MessageBody             *string
	DelaySeconds            *int
	MessageAttributes       map[string]AttributeValue `q:"MessageAttribute"`
	MessageSystemAttributes map[string]AttributeValue `q:"MessageSystemAttribute"`
	MessageGroupId          string                    //nolint:revive // the wire name
	MessageDeduplicationId  string                    //nolint:revive // the wire name
}

type sendBatchEntry struct {
	Id                      string //nolint:revive // the wire name
	MessageBody             *string
	DelaySeconds            *int
	MessageAttributes       map[string]AttributeValue `q:"MessageAttribute"`
	MessageSystemAttributes map[string]AttributeValue `q:"MessageSystemAttribute"`
	MessageGroupId          string                    //nolint:revive // the wire name
	MessageDeduplicationId  string                    //nolint:revive // the wire name
}

type sendMessageBatchInput struct {
	QueueUrl string           //nolint:revive // the wire name
	Entries  []sendBatchEntry `q:"SendMessageBatchRequestEntry"`
}

type receiveMessageInput struct {
	QueueUrl                    string   //nolint:revive // the wire name
	AttributeNames              []string `q:"AttributeName"`
	MessageSystemAttributeNames []string `q:"MessageSystemAttributeName"`
	MessageAttributeNames       []string `q:"MessageAttributeName"`
	MaxNumberOfMessages         *int
	VisibilityTimeout           *int
	WaitTimeSeconds             *int
	ReceiveRequestAttemptId     string //nolint:revive // the wire name
}

type deleteMessageInput struct {
	QueueUrl      string //nolint:revive // the wire name
	ReceiptHandle string
}

type deleteBatchEntry struct {
	Id            string //nolint:revive // the wire name
	ReceiptHandle string
}

type deleteMessageBatchInput struct {
	QueueUrl string             //nolint:revive // the wire name
	Entries  []deleteBatchEntry `q:"DeleteMessageBatchRequestEntry"`
}

type changeVisibilityInput struct {
	QueueUrl          string //nolint:revive // the wire name
	ReceiptHandle     string
	VisibilityTimeout *int
}

type changeVisibilityBatchEntry struct {
	Id                string //nolint:revive // the wire name
	ReceiptHandle     string
	VisibilityTimeout *int
}

type changeVisibilityBatchInput struct {
	QueueUrl string                       //nolint:revive // the wire name
	Entries  []changeVisibilityBatchEntry `q:"ChangeMessageVisibilityBatchRequestEntry"`
}

type tagQueueInput struct {
	QueueUrl string            //nolint:revive // the wire name
	Tags     map[string]string `q:"Tag"`
}

type untagQueueInput struct {
	QueueUrl string   //nolint:revive // the wire name
	TagKeys  []string `q:"TagKey"`
}

type listDeadLetterSourcesInput struct {
	QueueUrl   string //nolint:revive // the wire name
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

func (o listQueuesOutput) writeXML(w *xmlWriter) {
	for _, u := range o.QueueUrls {
		w.elem("QueueUrl", u)
	}
	w.optional("NextToken", o.NextToken)
}

type deadLetterSourcesOutput struct {
	QueueUrls []string `json:"queueUrls"` //nolint:revive // the wire name
	NextToken string   `json:",omitempty"`
}

func (o deadLetterSourcesOutput) writeXML(w *xmlWriter) {
	for _, u := range o.QueueUrls {
		w.elem("QueueUrl", u)
	}
	w.optional("NextToken", o.NextToken)
}

type sendMessageOutput struct {
	MessageId              string //nolint:revive // the wire name
	MD5OfMessageBody       string
	MD5OfMessageAttributes string `json:",omitempty"`
	SequenceNumber         string `json:",omitempty"`
}

func (o sendMessageOutput) writeXML(w *xmlWriter) {
	w.elem("MessageId", o.MessageId)
	w.elem("MD5OfMessageBody", o.MD5OfMessageBody)
	w.optional("MD5OfMessageAttributes", o.MD5OfMessageAttributes)
	w.optional("SequenceNumber", o.SequenceNumber)
}

type sendBatchResultEntry struct {
	Id                     string //nolint:revive // the wire name
	MessageId              string //nolint:revive // the wire name
	MD5OfMessageBody       string
	MD5OfMessageAttributes string `json:",omitempty"`
	SequenceNumber         string `json:",omitempty"`
}

type batchErrorEntry struct {
	Id          string //nolint:revive // the wire name
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
		w.elem("MessageId", s.MessageId)
		w.elem("MD5OfMessageBody", s.MD5OfMessageBody)
		w.optional("MD5OfMessageAttributes", s.MD5OfMessageAttributes)
		w.optional("SequenceNumber", s.SequenceNumber)
		w.close("SendMessageBatchResultEntry")
	}
	writeBatchErrors(w, o.Failed)
}

type idEntry struct {
	Id string //nolint:revive // the wire name
}

// idBatchOutput answers DeleteMessageBatch and
// ChangeMessageVisibilityBatch; entryTag is the query protocol's element
// for a success.
type idBatchOutput struct {
	Successful []idEntry
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
