package sqs

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strings"
	"time"
	"unsafe"
)

// AttributeValue is a message attribute as SQS carries it: a DataType
// ("String", "Number", "Binary", optionally with a ".custom" suffix) and a
// string or binary value.
type AttributeValue struct {
	DataType    string  `json:"DataType"`
	StringValue *string `json:"StringValue,omitempty"`
	BinaryValue []byte  `json:"BinaryValue,omitempty"`
}

func (v AttributeValue) isBinary() bool { return strings.HasPrefix(v.DataType, "Binary") }

// size is what the attribute counts against MaximumMessageSize: its name,
// type and value.
func attributesSize(attrs map[string]AttributeValue) int {
	n := 0
	for name, v := range attrs {
		n += len(name) + len(v.DataType) + len(v.BinaryValue)
		if v.StringValue != nil {
			n += len(*v.StringValue)
		}
	}
	return n
}

// awsTraceHeader is the system attribute that carries an AWS X-Ray trace
// header: the one a sender may set (MessageSystemAttributes).
const awsTraceHeader = "AWSTraceHeader"

// message is one message of a queue.
type message struct {
	id        string
	body      string
	attrs     map[string]AttributeValue
	md5Body   string
	md5Attrs  string
	sent      time.Time
	senderID  string
	seq       uint64 // order of arrival in its queue; the FIFO SequenceNumber
	group     string // FIFO only
	dedupID   string // FIFO only
	dlqSource string // the source queue's ARN once redriven to a DLQ

	visibleAt    time.Time // delayed or in flight until then
	receiveCount int
	firstReceive time.Time
	receipt      string // the receipt handle of the last receive
	heapIndex    int    // position in the queue's timed heap, -1 when not there
	deleted      bool

	// traceHeader is the AWSTraceHeader the sender set, empty for none.
	traceHeader string
}

// inflight reports whether m was received and its visibility timeout has not
// expired.
func (m *message) inflight(now time.Time) bool {
	return m.receiveCount > 0 && now.Before(m.visibleAt)
}

func md5Hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// md5HexOf is md5Hex of a string's bytes. The digest only reads them, so
// they are hashed where they are instead of copied first (a copy of every
// message body sent).
func md5HexOf(s string) string {
	return md5Hex(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// md5OfAttributes is SQS's digest of message attributes, which SDKs verify:
// for each attribute in name order, the length-prefixed name, the
// length-prefixed type, a transport byte (1 string, 2 binary) and the
// length-prefixed value. Empty when there are none.
func md5OfAttributes(attrs map[string]AttributeValue) string {
	if len(attrs) == 0 {
		return ""
	}
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf []byte
	put := func(b []byte) {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(b)))
		buf = append(buf, b...)
	}
	for _, n := range names {
		v := attrs[n]
		put([]byte(n))
		put([]byte(v.DataType))
		if v.isBinary() {
			buf = append(buf, 2)
			put(v.BinaryValue)
		} else {
			buf = append(buf, 1)
			s := ""
			if v.StringValue != nil {
				s = *v.StringValue
			}
			put([]byte(s))
		}
	}
	return md5Hex(buf)
}

// validBody reports whether s has only the characters SQS accepts.
func validBody(s string) bool {
	for _, r := range s {
		switch {
		case r == 0x9 || r == 0xA || r == 0xD:
		case r >= 0x20 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
	}
	return true
}

// timedHeap orders delayed and in-flight messages of a standard queue by
// when they become visible.
type timedHeap []*message

func (h timedHeap) Len() int           { return len(h) }
func (h timedHeap) Less(i, j int) bool { return h[i].visibleAt.Before(h[j].visibleAt) }
func (h timedHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIndex = i
	h[j].heapIndex = j
}
func (h *timedHeap) Push(x any) {
	m := x.(*message)
	m.heapIndex = len(*h)
	*h = append(*h, m)
}
func (h *timedHeap) Pop() any {
	old := *h
	m := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	m.heapIndex = -1
	return m
}
