package retry

import (
	"fmt"
	"time"
)

// DestinationKind says what an event subscription delivers to. Event Grid
// treats some status codes differently for webhooks and for Azure resources
// (EG-6, EG-7).
type DestinationKind int

const (
	// Webhook is an HTTP endpoint the user runs (WebHook endpointType).
	Webhook DestinationKind = iota
	// AzureResource is an Azure service destination: Storage Queue, Service
	// Bus, Event Hubs, Azure Function, Hybrid Connection, …
	AzureResource
)

// Limits and defaults of an event subscription's retryPolicy (EG-11, EG-12).
const (
	MinMaxDeliveryAttempts     = 1
	MaxMaxDeliveryAttempts     = 30
	DefaultMaxDeliveryAttempts = 30

	MinEventTimeToLiveMinutes     = 1
	MaxEventTimeToLiveMinutes     = 1440
	DefaultEventTimeToLiveMinutes = 1440
)

// Config is one event subscription's retry settings.
type Config struct {
	// MaxDeliveryAttempts counts every attempt, the first included (EG-11).
	// 0 means the default, 30.
	MaxDeliveryAttempts int
	// EventTimeToLive is measured from the event's publish time (EG-12).
	// 0 means the default, 1440 minutes.
	EventTimeToLive time.Duration
	// Destination picks the status-code rules of EG-6 and EG-7.
	Destination DestinationKind
	// Jitter adds Event Grid's small random delay to every retry (EG-9).
	Jitter bool
	// Seed makes the jitter reproducible: the same seed gives every event the
	// same retry times on every run (see jitter.go for why a seed and not a
	// shared random stream).
	Seed uint64
	// Probation turns on probation (EG-18) and delayed delivery (EG-17).
	// Off, retries follow the plain schedule, as deterministic tests want.
	Probation bool
}

// withDefaults fills the zero values a caller left for "use Azure's default".
func (c Config) withDefaults() Config {
	if c.MaxDeliveryAttempts <= 0 {
		c.MaxDeliveryAttempts = DefaultMaxDeliveryAttempts
	}
	if c.EventTimeToLive <= 0 {
		c.EventTimeToLive = DefaultEventTimeToLiveMinutes * time.Minute
	}
	return c
}

// CodeInvalidRequest is the ARM error code Event Grid answers a request body
// it rejects with (HTTP 400).
const CodeInvalidRequest = "InvalidRequest"

// ValidationError is a retryPolicy the service would refuse. The ARM face
// answers it as HTTP 400 with {"error":{"code":Code,"message":Message}}.
type ValidationError struct {
	Code    string
	Message string
}

func (e *ValidationError) Error() string { return e.Code + ": " + e.Message }

// Validate checks the values of a retryPolicy a client sent at create or
// update. The ARM face fills absent values with the defaults before calling
// it: an explicit 0 is out of range, as it is in Azure. The first violation
// is reported, as ARM reports one error per request.
func Validate(maxAttempts, ttlMinutes int) error {
	if maxAttempts < MinMaxDeliveryAttempts || maxAttempts > MaxMaxDeliveryAttempts {
		return outOfRange("maxDeliveryAttempts", maxAttempts, MinMaxDeliveryAttempts, MaxMaxDeliveryAttempts)
	}
	if ttlMinutes < MinEventTimeToLiveMinutes || ttlMinutes > MaxEventTimeToLiveMinutes {
		return outOfRange("eventTimeToLiveInMinutes", ttlMinutes, MinEventTimeToLiveMinutes, MaxEventTimeToLiveMinutes)
	}
	return nil
}

func outOfRange(property string, value, lo, hi int) *ValidationError {
	return &ValidationError{
		Code: CodeInvalidRequest,
		Message: fmt.Sprintf("The value %d of retryPolicy.%s is invalid. The value must be between %d and %d.",
			value, property, lo, hi),
	}
}
