package armmodel

import (
	"time"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/filter"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/isoduration"
)

// Settings are a subscription's validated delivery settings, in the terms the
// delivery code needs.
type Settings struct {
	// Push is true for deliveryMode Push, false for Queue.
	Push bool
	// LockDuration is the queue lock (queue only).
	LockDuration time.Duration
	// MaxDeliveryCount bounds receives (queue) or attempts (push).
	MaxDeliveryCount int
	// TimeToLive is eventTimeToLive, never longer than the topic's retention.
	TimeToLive time.Duration
	// DeadLetter is nil when the subscription has no dead-letter destination.
	DeadLetter *DeadLetterTarget
	// Webhook is the push destination (push only).
	Webhook *WebhookTarget
	// Filter selects the events the subscription takes; nil takes all.
	Filter *filter.Filter
}

// Ranges of the delivery settings [SRC SDK docs, DOC].
const (
	minLockSeconds, maxLockSeconds, defaultLockSeconds = 60, 300, 60
	minDeliveryCount, maxDeliveryCount, defaultCount   = 1, 10, 10
	minTimeToLive                                      = time.Minute
)

// Settings validates the stored properties against the topic's retention,
// fills defaults into them and canonicalises their enums.
func (s *EventSubscription) Settings(retention time.Duration) (Settings, *arm.Error) {
	p := &s.Properties
	schema, ok := canonical(p.EventDeliverySchema, "CloudEventSchemaV1_0")
	if !ok {
		return Settings{}, arm.BadRequest("The eventDeliverySchema '%s' is not supported: namespace subscriptions deliver CloudEventSchemaV1_0.", p.EventDeliverySchema)
	}
	p.EventDeliverySchema = schema
	if p.ExpirationTimeUTC != nil {
		if _, err := time.Parse(time.RFC3339Nano, *p.ExpirationTimeUTC); err != nil {
			return Settings{}, arm.BadRequest("The expirationTimeUtc '%s' is not an RFC 3339 time.", *p.ExpirationTimeUTC)
		}
	}
	var set Settings
	compiled, ferr := p.FiltersConfiguration.compile()
	if ferr != nil {
		return Settings{}, ferr
	}
	set.Filter = compiled
	dc := p.DeliveryConfiguration
	if dc == nil {
		return Settings{}, arm.BadRequest("The deliveryConfiguration of the event subscription is required.")
	}
	mode, ok := canonical(dc.DeliveryMode, "Queue", "Push")
	if !ok {
		return Settings{}, arm.BadRequest("The deliveryMode '%s' is invalid: use Queue or Push.", dc.DeliveryMode)
	}
	dc.DeliveryMode = mode
	var err *arm.Error
	if mode == "Queue" {
		err = dc.queueSettings(&set, retention)
	} else {
		err = dc.pushSettings(&set, retention)
	}
	if err != nil {
		return Settings{}, err
	}
	return set, nil
}

func (dc *DeliveryConfiguration) queueSettings(set *Settings, retention time.Duration) *arm.Error {
	q := dc.Queue
	if q == nil {
		return arm.BadRequest("deliveryConfiguration.queue is required when deliveryMode is Queue.")
	}
	dc.Push = nil
	lock := intOr(&q.ReceiveLockDurationInSeconds, defaultLockSeconds)
	if lock < minLockSeconds || lock > maxLockSeconds {
		return arm.BadRequest("The receiveLockDurationInSeconds value %d is out of range: it must be between %d and %d.", lock, minLockSeconds, maxLockSeconds)
	}
	set.LockDuration = time.Duration(lock) * time.Second
	count, err := deliveryCount(&q.MaxDeliveryCount)
	if err != nil {
		return err
	}
	set.MaxDeliveryCount = count
	if set.TimeToLive, err = timeToLive(&q.EventTimeToLive, retention); err != nil {
		return err
	}
	if set.TimeToLive < set.LockDuration {
		return arm.BadRequest("The eventTimeToLive '%s' is shorter than the receive lock duration of %d seconds.", *q.EventTimeToLive, lock)
	}
	if q.DeadLetter != nil {
		if set.DeadLetter, err = q.DeadLetter.validate(); err != nil {
			return err
		}
	}
	return nil
}

func (dc *DeliveryConfiguration) pushSettings(set *Settings, retention time.Duration) *arm.Error {
	p := dc.Push
	if p == nil {
		return arm.BadRequest("deliveryConfiguration.push is required when deliveryMode is Push.")
	}
	dc.Queue = nil
	set.Push = true
	count, err := deliveryCount(&p.MaxDeliveryCount)
	if err != nil {
		return err
	}
	set.MaxDeliveryCount = count
	if set.TimeToLive, err = timeToLive(&p.EventTimeToLive, retention); err != nil {
		return err
	}
	dest := p.Destination
	if dest == nil && p.DeliveryWithResourceIdentity != nil {
		dest = p.DeliveryWithResourceIdentity.Destination
	}
	if dest == nil {
		return arm.BadRequest("A push subscription must specify push.destination or push.deliveryWithResourceIdentity.destination.")
	}
	if set.Webhook, err = dest.validate(); err != nil {
		return err
	}
	if p.DeadLetter != nil {
		if set.DeadLetter, err = p.DeadLetter.validate(); err != nil {
			return err
		}
	}
	return nil
}

func deliveryCount(v **int) (int, *arm.Error) {
	n := intOr(v, defaultCount)
	if n < minDeliveryCount || n > maxDeliveryCount {
		return 0, arm.BadRequest("The maxDeliveryCount value %d is out of range: it must be between %d and %d.", n, minDeliveryCount, maxDeliveryCount)
	}
	return n, nil
}

// timeToLive parses eventTimeToLive, defaulting it to the topic's retention
// [DOC: default min(7 days, retention)], and checks it lies between one
// minute and the retention.
func timeToLive(v **string, retention time.Duration) (time.Duration, *arm.Error) {
	if *v == nil {
		s := isoduration.Format(retention)
		*v = &s
		return retention, nil
	}
	d, err := isoduration.Parse(**v)
	if err != nil {
		return 0, arm.BadRequest("The eventTimeToLive is invalid: %v.", err)
	}
	if d < minTimeToLive {
		return 0, arm.BadRequest("The eventTimeToLive '%s' is shorter than the minimum of one minute (PT1M).", **v)
	}
	if d > retention {
		return 0, arm.BadRequest("The eventTimeToLive '%s' is longer than the topic's event retention of %d day(s).", **v, int(retention/(24*time.Hour)))
	}
	return d, nil
}

// intOr returns *v, storing def there first when it is unset, so the stored
// resource shows the default in force.
func intOr(v **int, def int) int {
	if *v == nil {
		n := def
		*v = &n
	}
	return **v
}
