package filter

// CodeInvalidRequest is the ARM error code Event Grid uses for a request body
// it rejects, including filters over its limits (the one real message on
// record is "The maximum number of values allowed on an advanced filter is 5.",
// code InvalidRequest).
const CodeInvalidRequest = "InvalidRequest"

// ValidationError is a filter the service would refuse. The ARM face answers
// it as HTTP 400 with {"error":{"code":Code,"message":Message}}.
type ValidationError struct {
	Code    string
	Message string
}

func (e *ValidationError) Error() string { return e.Code + ": " + e.Message }

func invalid(message string) *ValidationError {
	return &ValidationError{Code: CodeInvalidRequest, Message: message}
}
