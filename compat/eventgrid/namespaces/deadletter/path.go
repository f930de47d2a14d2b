package deadletter

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// BlobPath names a dead-letter blob inside its container (NS-6):
// <namespace>/<topic>/<subscription>/<year>/<month>/<day>/<UTC hour>/<guid>.json,
// numbers not zero-padded. Names keep the casing they were created with
// (whether the service upper-cases them, as the basic tier does for the
// subscription, is UNCONFIRMED for namespaces).
func BlobPath(namespace, topic, subscription string, at time.Time, guid string) string {
	at = at.UTC()
	var b strings.Builder
	b.Grow(len(namespace) + len(topic) + len(subscription) + len(guid) + 32)
	for _, part := range []string{namespace, topic, subscription} {
		b.WriteString(part)
		b.WriteByte('/')
	}
	for _, n := range []int{at.Year(), int(at.Month()), at.Day(), at.Hour()} {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte('/')
	}
	b.WriteString(guid)
	b.WriteString(".json")
	return b.String()
}

// SubscriptionPrefix is the blob-name prefix under which every dead letter
// of one subscription lies, for listing.
func SubscriptionPrefix(namespace, topic, subscription string) string {
	return namespace + "/" + topic + "/" + subscription + "/"
}

// Location is a parsed dead-letter blob name.
type Location struct {
	Namespace, Topic, Subscription string
	// Hour is the UTC hour the blob's folder names.
	Hour time.Time
	GUID string
}

// ParseBlobPath reads a name BlobPath wrote.
func ParseBlobPath(name string) (Location, error) {
	parts := strings.Split(name, "/")
	if len(parts) != 8 || !strings.HasSuffix(parts[7], ".json") {
		return Location{}, fmt.Errorf("deadletter: %q is not <namespace>/<topic>/<subscription>/<year>/<month>/<day>/<hour>/<guid>.json", name)
	}
	var nums [4]int
	for i := range nums {
		n, err := strconv.Atoi(parts[3+i])
		if err != nil || n < 0 {
			return Location{}, fmt.Errorf("deadletter: %q: %q is not a number", name, parts[3+i])
		}
		nums[i] = n
	}
	return Location{
		Namespace: parts[0], Topic: parts[1], Subscription: parts[2],
		Hour: time.Date(nums[0], time.Month(nums[1]), nums[2], nums[3], 0, 0, 0, time.UTC),
		GUID: strings.TrimSuffix(parts[7], ".json"),
	}, nil
}
