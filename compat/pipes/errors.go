package pipes

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// The error codes of the Pipes model (the X-Amzn-ErrorType header of
// REST-JSON), with the statuses it gives them.
const (
	codeValidation   = "ValidationException"
	codeNotFound     = "NotFoundException"
	codeConflict     = "ConflictException"
	codeInternal     = "InternalException"
	codeServiceQuota = "ServiceQuotaExceededException"
)

func validation(format string, args ...any) *awsjson.Error {
	return &awsjson.Error{Code: codeValidation, Message: fmt.Sprintf(format, args...), Status: http.StatusBadRequest}
}

func notFound(name string) *awsjson.Error {
	return &awsjson.Error{Code: codeNotFound, Message: fmt.Sprintf("Pipe %s does not exist.", name), Status: http.StatusNotFound}
}

// conflict is a ConflictException naming the pipe it is about, as the
// model requires (resourceId, resourceType).
func conflict(name, format string, args ...any) *awsjson.Error {
	return &awsjson.Error{
		Code: codeConflict, Message: fmt.Sprintf(format, args...), Status: http.StatusConflict,
		Fields: map[string]any{"resourceId": name, "resourceType": "pipe"},
	}
}

// quotaExceeded is the 402 the model gives ServiceQuotaExceededException.
func quotaExceeded(name string) *awsjson.Error {
	return &awsjson.Error{
		Code: codeServiceQuota, Status: http.StatusPaymentRequired,
		Message: fmt.Sprintf("The account has reached its quota of %d pipes in this Region.", maxPipes),
		Fields: map[string]any{
			"resourceId": name, "resourceType": "pipe", "serviceCode": "pipes", "quotaCode": "pipes-per-account",
		},
	}
}

// violations collects constraint failures as AWS reports them: every one
// in the message ("2 validation errors detected: …") and each in the
// ValidationException's fieldList.
type violations struct {
	items  []string
	fields []map[string]string
}

// add records that value at path failed constraint; nil is shown as null.
func (v *violations) add(value *string, path, constraint string) {
	shown := "null"
	if value != nil {
		shown = "'" + *value + "'"
	}
	v.items = append(v.items, fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: %s", shown, path, constraint))
	v.fields = append(v.fields, map[string]string{"name": path, "message": constraint})
}

func (v *violations) required(path string) { v.add(nil, path, "Member must not be null") }

// addSecret records a failure of a member the model marks sensitive, whose
// value AWS never repeats.
func (v *violations) addSecret(path, constraint string) {
	v.items = append(v.items, fmt.Sprintf("Value at '%s' failed to satisfy constraint: %s", path, constraint))
	v.fields = append(v.fields, map[string]string{"name": path, "message": constraint})
}

// err is the ValidationException for what was collected, or nil.
func (v *violations) err() *awsjson.Error {
	if len(v.items) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d validation errors detected: %s", len(v.items), strings.Join(v.items, "; "))
	if len(v.items) == 1 {
		msg = "1 validation error detected: " + v.items[0]
	}
	e := validation("%s", msg)
	e.Fields = map[string]any{"fieldList": v.fields}
	return e
}
