package scheduler

import (
	"fmt"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// Scheduler's error codes (the x-amzn-errortype header of REST-JSON).
const (
	codeValidation = "ValidationException"
	codeNotFound   = "ResourceNotFoundException"
	codeConflict   = "ConflictException"
	codeInternal   = "InternalServerException"
)

func validation(format string, args ...any) *awsjson.Error {
	return &awsjson.Error{Code: codeValidation, Message: fmt.Sprintf(format, args...), Status: http.StatusBadRequest}
}

func notFound(format string, args ...any) *awsjson.Error {
	return &awsjson.Error{Code: codeNotFound, Message: fmt.Sprintf(format, args...), Status: http.StatusNotFound}
}

func conflict(format string, args ...any) *awsjson.Error {
	return &awsjson.Error{Code: codeConflict, Message: fmt.Sprintf(format, args...), Status: http.StatusConflict}
}

// required is Coral's message for a missing required member.
func required(member string) *awsjson.Error {
	return validation("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", member)
}
