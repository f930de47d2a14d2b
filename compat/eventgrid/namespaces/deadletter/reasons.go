package deadletter

// deadletterreason values. The first two are the cloud's own wording (the
// delivery page's capture and the dead-letter page's example); the others
// are UNCONFIRMED and follow the reference's suggestions in the same style.
const (
	// ReasonMaxDeliveryAttempts: the last allowed delivery was not settled
	// (pull) or failed (push) [DOC capture].
	ReasonMaxDeliveryAttempts = "Maximum delivery attempts was exceeded."
	// ReasonClientError: the push endpoint answered with a status that is
	// never retried [DOC example].
	ReasonClientError = "Undeliverable due to client error"
	// ReasonRejected: the consumer rejected the event (UNCONFIRMED).
	ReasonRejected = "Rejected by client."
	// ReasonTimeToLive: the event's time to live or the topic's retention
	// ran out before it was settled or delivered (UNCONFIRMED).
	ReasonTimeToLive = "Time to live exceeded."
)

// deliveryresult values for pull subscriptions (push records carry the
// outcome name of the last HTTP attempt, e.g. "Unauthorized").
const (
	// ResultNotSettled: received but neither acknowledged nor rejected [DOC capture].
	ResultNotSettled = "Event was not acknowledged nor rejected."
	// ResultRejected: the last receive was answered with reject (UNCONFIRMED).
	ResultRejected = "Rejected"
	// ResultReleased: the last receive was answered with release (UNCONFIRMED).
	ResultReleased = "Released"
	// ResultNeverDelivered: no receive or push ever took the event (UNCONFIRMED).
	ResultNeverDelivered = "Event was never delivered."
)
