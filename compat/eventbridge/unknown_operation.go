package eventbridge

import (
	"mime"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// IsAWSJSON reports whether r is an AWS JSON protocol request: it names an
// operation in X-Amz-Target, or is a POST of application/x-amz-json-1.0 or
// 1.1. Each AWS service registers its own X-Amz-Target prefix on the router;
// the emulator sends a request none of them took here, whatever its
// prefix, so it gets AWS's error shape rather than another cloud's.
func IsAWSJSON(r *http.Request) bool {
	if r.Header.Get("X-Amz-Target") != "" {
		return true
	}
	if r.Method != http.MethodPost {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && strings.HasPrefix(mt, "application/x-amz-json-")
}

// UnknownOperation answers in AWS's JSON error shape, as AWS does for a
// target it does not know (400 UnknownOperationException).
func UnknownOperation(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	msg := "The request names no operation: AWS JSON requests need an X-Amz-Target header (for example AWSEvents.PutEvents)."
	if target != "" {
		msg = "GridBridge does not implement the operation " + target + " at " + r.Method + " " + r.URL.Path + "."
	}
	awsjson.WriteError(w, uuid.NewString(), awsjson.NewError(awsjson.CodeUnknownOperation, msg))
}
