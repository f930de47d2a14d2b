package retry

// Error codes a failed target invocation reports, as EventBridge lists them
// for the ERROR_CODE attribute of a dead-letter message.
const (
	CodeConnectionFailure = "CONNECTION_FAILURE"
	CodeErrorFromTarget   = "ERROR_FROM_TARGET"
	CodeInternalError     = "INTERNAL_ERROR"
	CodeInvalidJSON       = "INVALID_JSON"
	CodeInvalidParameter  = "INVALID_PARAMETER"
	CodeNoPermissions     = "NO_PERMISSIONS"
	CodeNoResource        = "NO_RESOURCE"
	CodeModification      = "RESOURCE_MODIFICATION_COLLISION"
	CodeSDKClientError    = "SDK_CLIENT_ERROR"
	CodeThrottling        = "THROTTLING"
	CodeTimeout           = "TIMEOUT"
	CodeUnknown           = "UNKNOWN"
	// CodeLoopDetected is GridBridge's code for an event that would enter a
	// bus it already passed through (the name EventBridge uses for bus v2).
	CodeLoopDetected = "LOOP_DETECTED"
)

// notRetried are the codes EventBridge dead-letters without retrying: the
// invocation cannot succeed until someone fixes the cause.
var notRetried = map[string]bool{
	CodeNoPermissions:                true,
	CodeNoResource:                   true,
	CodeSDKClientError:               true,
	CodeInvalidJSON:                  true,
	CodeInvalidParameter:             true,
	CodeLoopDetected:                 true,
	"FAILED_TO_ASSUME_ROLE":          true,
	"RESOURCE_ALREADY_EXISTS":        true,
	"THIRD_ACCOUNT_HOP_DETECTED":     true,
	"THIRD_REGION_HOP_DETECTED":      true,
	"CROSS_ACCOUNT_INGESTION_FAILED": true,
	"CROSS_REGION_INGESTION_FAILED":  true,
}

// Retried reports whether a failure with this code is retried. Codes
// GridBridge does not know, such as a fault rule's own names, are retried.
func Retried(code string) bool { return !notRetried[code] }

// CodeForStatus names the failure of an invocation that answered with an
// HTTP status (or 0 for none), for targets that report one and for injected
// faults that name no code.
func CodeForStatus(status int) string {
	switch {
	case status == 0:
		return CodeInternalError
	case status == 401 || status == 403 || status == 407:
		return CodeNoPermissions
	case status == 404 || status == 410:
		return CodeNoResource
	case status == 408 || status == 504:
		return CodeTimeout
	case status == 409:
		return CodeModification
	case status == 429:
		return CodeThrottling
	case status >= 500:
		return CodeErrorFromTarget
	default:
		return CodeSDKClientError
	}
}
