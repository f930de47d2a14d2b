package sqs

import (
	"encoding/json"
	"net/http"
)

// The JSON protocol (awsJson1_0 with AWS query compatibility) that current
// SDKs speak: X-Amz-Target: AmazonSQS.<Operation>.

const jsonContentType = "application/x-amz-json-1.0"

func writeJSONResult(w http.ResponseWriter, requestID string, result any) {
	body := []byte("{}")
	if a, ok := result.(jsonAppender); ok {
		body = a.appendJSON(make([]byte, 0, 512))
	} else if result != nil {
		b, err := json.Marshal(result)
		if err != nil {
			writeJSONError(w, requestID, errInternal("GridBridge could not encode the response: %v", err))
			return
		}
		body = b
	}
	w.Header().Set("Content-Type", jsonContentType)
	w.Header().Set("X-Amzn-RequestId", requestID)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
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
