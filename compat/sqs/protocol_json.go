package sqs

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// The JSON protocol (awsJson1_0 with AWS query compatibility) that current
// SDKs speak: X-Amz-Target: AmazonSQS.<Operation>.

const jsonContentType = "application/x-amz-json-1.0"

func writeJSONResult(w http.ResponseWriter, requestID string, result any, scratch []byte) []byte {
	body := []byte("{}")
	if a, ok := result.(jsonAppender); ok {
		body = a.appendJSON(scratch)
		scratch = body
	} else if result != nil {
		b, err := json.Marshal(result)
		if err != nil {
			writeJSONError(w, requestID, errInternal("GridBridge could not encode the response: %v", err))
			return scratch
		}
		body = b
	}
	h := w.Header()
	h.Set("Content-Type", jsonContentType)
	h.Set("X-Amzn-RequestId", requestID)
	// Sent with its length, an answer larger than net/http's buffer is
	// not chunked.
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return scratch
}

// maxPooledAnswer bounds the answer buffers kept for reuse: a receive of
// ten large messages is not held for the small ones after it.
const maxPooledAnswer = 64 << 10

// answerBuffer is a buffer for one JSON answer, from the pool when it has
// one; putAnswerBuffer returns it once the answer is written (a
// ResponseWriter keeps no reference to what it was given).
func (s *Service) answerBuffer() *[]byte {
	if b, ok := s.answers.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 4096)
	return &b
}

func (s *Service) putAnswerBuffer(b *[]byte) {
	if cap(*b) <= maxPooledAnswer {
		*b = (*b)[:0]
		s.answers.Put(b)
	}
}

// writeJSONError answers e as SQS does: the error shape's name in __type and
// the query protocol's code in x-amzn-query-error, which SDKs report as the
// error code (AWS.SimpleQueueService.NonExistentQueue, ...).
func writeJSONError(w http.ResponseWriter, requestID string, e *apiError) {
	body, _ := json.Marshal(struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}{"com.amazonaws.sqs#" + e.Code, e.Message})
	fault := "Sender"
	if !e.Sender {
		fault = "Receiver"
	}
	w.Header().Set("Content-Type", jsonContentType)
	w.Header().Set("X-Amzn-RequestId", requestID)
	w.Header().Set("X-Amzn-Query-Error", e.QueryCode+";"+fault)
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}
