// Package notserved answers the AWS requests no face of GridBridge takes,
// in the shape the request's own protocol expects: an operation an emulated
// service does not have (UnknownOperation), and a call to an AWS service
// GridBridge does not emulate (NotEmulated), which the emulator routes here
// before any face can claim it.
package notserved

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
)

// IsAWSJSON reports whether r is an AWS JSON protocol request: it names an
// operation in X-Amz-Target, or is a POST of application/x-amz-json-1.0 or
// 1.1. Each AWS service registers its own X-Amz-Target prefix on the router;
// the emulator sends a request none of them took to UnknownOperation,
// whatever its prefix, so it gets AWS's error shape rather than another
// cloud's.
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
	awsjson.Frame("AWS JSON", 0, nil).Refuse(w, r, awsjson.NewError(awsjson.CodeUnknownOperation, msg))
}

// emulated says whether GridBridge serves the AWS service a request is
// signed for: EventBridge (its bus-v2 API signs as events too), EventBridge
// Scheduler, EventBridge Pipes and SQS.
func emulated(service string) bool {
	switch service {
	case "events", "scheduler", "pipes", "sqs":
		return true
	}
	return false
}

// ForAnotherAWSService matches a request signed for an AWS service
// GridBridge does not emulate (Lambda, STS, IAM …), so that it is answered
// by NotEmulated before any face takes it (SQS's query protocol would
// answer any Action otherwise). It is a mux.MatcherFunc.
func ForAnotherAWSService(r *http.Request, _ *mux.RouteMatch) bool {
	s := frame.SigningService(r)
	return s != "" && !emulated(s)
}

// CodeNotEmulated is the error code of a call to a service GridBridge does
// not emulate, sent with 501 Not Implemented: no SDK retries it.
const CodeNotEmulated = "NotImplemented"

// NotEmulated answers a request for an AWS service GridBridge does not
// emulate in the error shape of that service's protocol, read from the
// request itself: AWS JSON (X-Amz-Target or an x-amz-json body), the query
// protocol (a form with Action, as STS, IAM and SNS use; answered in XML),
// S3's REST-XML, or REST-JSON (Lambda and most newer services). The message
// names the service and what GridBridge does instead.
func NotEmulated(w http.ResponseWriter, r *http.Request) {
	(&frame.API{Name: "not emulated", WriteError: func(w http.ResponseWriter, req frame.Request, _ error) {
		notEmulated(w, req.HTTP, req.ID)
	}}).Refuse(w, r, nil)
}

// notEmulated writes NotEmulated's answer with the frame's request id.
func notEmulated(w http.ResponseWriter, r *http.Request, requestID string) {
	service := frame.SigningService(r)
	op := ""
	form := !IsAWSJSON(r) && r.ParseForm() == nil && r.Form.Get("Action") != ""
	switch {
	case IsAWSJSON(r):
		_, op, _ = strings.Cut(r.Header.Get("X-Amz-Target"), ".")
	case form:
		op = r.Form.Get("Action")
	default:
		op = r.Method + " " + r.URL.Path
	}
	msg := notEmulatedMessage(service, op)
	h := w.Header()
	h.Set("X-Amzn-RequestId", requestID)
	switch {
	case IsAWSJSON(r):
		awsjson.WriteError(w, requestID, &awsjson.Error{Code: CodeNotEmulated, Message: msg, Status: http.StatusNotImplemented})
	case form:
		writeXML(w, queryError{Type: "Sender", Code: CodeNotEmulated, Message: msg, RequestID: requestID})
	case service == "s3":
		writeXML(w, s3Error{Code: CodeNotEmulated, Message: msg, RequestID: requestID})
	default:
		h.Set("X-Amzn-ErrorType", CodeNotEmulated)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotImplemented)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
	}
}

// awsService names the services a test most often reaches by mistake, with
// what GridBridge does where an EventBridge resource points at them.
func awsService(service string) (name, instead string) {
	switch service {
	case "lambda":
		return "AWS Lambda", "A Lambda target of a rule or schedule is recorded in the journal (GET /_emulator/deliveries) and counted as delivered, not invoked."
	case "sts":
		return "AWS STS", "No credential is checked: any access key works, and a twelve-digit access key id is taken as the account."
	case "iam":
		return "AWS IAM", "Role ARNs in targets and schedules are accepted as written and never assumed."
	case "sns":
		return "Amazon SNS", "An SNS target is recorded in the journal and counted as delivered, not published."
	case "kinesis":
		return "Amazon Kinesis", "A Kinesis target is recorded in the journal and counted as delivered, not put."
	case "states":
		return "AWS Step Functions", "A Step Functions target is recorded in the journal and counted as delivered, not started."
	case "logs":
		return "Amazon CloudWatch Logs", "A log group target is recorded in the journal and counted as delivered."
	case "s3":
		return "Amazon S3", ""
	}
	return fmt.Sprintf("the AWS service %q", service), ""
}

func notEmulatedMessage(service, op string) string {
	name, instead := awsService(service)
	if !strings.HasPrefix(name, "the AWS service") {
		name += " (" + service + ")"
	}
	msg := fmt.Sprintf("GridBridge does not emulate %s, so %s is not served; it emulates EventBridge (events), EventBridge Scheduler (scheduler), EventBridge Pipes (pipes) and SQS (sqs).", name, op)
	if instead != "" {
		msg += " " + instead
	}
	return msg
}

// queryError is the query protocol's error document (STS, IAM, SNS …).
type queryError struct {
	XMLName   xml.Name `xml:"ErrorResponse"`
	Type      string   `xml:"Error>Type"`
	Code      string   `xml:"Error>Code"`
	Message   string   `xml:"Error>Message"`
	RequestID string   `xml:"RequestId"`
}

// s3Error is S3's error document.
type s3Error struct {
	XMLName   xml.Name `xml:"Error"`
	Code      string   `xml:"Code"`
	Message   string   `xml:"Message"`
	RequestID string   `xml:"RequestId"`
}

func writeXML(w http.ResponseWriter, v any) {
	body, _ := xml.Marshal(v) // GridBridge's own shapes of strings
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(http.StatusNotImplemented)
	_, _ = w.Write([]byte(xml.Header))
	_, _ = w.Write(body)
}
