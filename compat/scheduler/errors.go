package scheduler

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Scheduler's error codes (the x-amzn-errortype header of REST-JSON).
const (
	codeValidation = "ValidationException"
	codeNotFound   = "ResourceNotFoundException"
	codeConflict   = "ConflictException"
	codeInternal   = "InternalServerException"
)

// apiError is an error answered in Scheduler's shape.
type apiError struct {
	code    string
	message string
	status  int
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func validation(format string, args ...any) *apiError {
	return &apiError{code: codeValidation, message: fmt.Sprintf(format, args...), status: http.StatusBadRequest}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{code: codeNotFound, message: fmt.Sprintf(format, args...), status: http.StatusNotFound}
}

func conflict(format string, args ...any) *apiError {
	return &apiError{code: codeConflict, message: fmt.Sprintf(format, args...), status: http.StatusConflict}
}

// required is Coral's message for a missing required member.
func required(member string) *apiError {
	return validation("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", member)
}

func writeError(w http.ResponseWriter, requestID string, err *apiError) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Amzn-RequestId", requestID)
	h.Set("X-Amzn-ErrorType", err.code)
	w.WriteHeader(err.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"Message": err.message})
}

func writeResult(w http.ResponseWriter, requestID string, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Amzn-RequestId", requestID)
	w.WriteHeader(http.StatusOK)
	if v == nil {
		v = struct{}{}
	}
	_ = json.NewEncoder(w).Encode(v)
}
