package eventsv2

import (
	"fmt"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// scope is where resources live: names are unique per account and region.
type scope struct {
	account, region string
}

// ARN resource types of v2 buses and subscribers. Both carry a generated id
// after the name, so a re-created resource never answers to a stale ARN.
const (
	busResourceType        = "event-busv2"
	subscriberResourceType = "subscriber"
)

func busARN(sc scope, name, id string) string {
	return fmt.Sprintf("arn:aws:events:%s:%s:%s/%s/%s", sc.region, sc.account, busResourceType, name, id)
}

func subscriberARN(sc scope, name, id string) string {
	return fmt.Sprintf("arn:aws:events:%s:%s:%s/%s/%s", sc.region, sc.account, subscriberResourceType, name, id)
}

// arnParts is an ARN split at its colons.
type arnParts struct {
	partition, service, region, account, resource string
}

func splitARN(s string) (arnParts, bool) {
	parts := strings.SplitN(s, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || !strings.HasPrefix(parts[1], "aws") || parts[2] == "" || parts[5] == "" {
		return arnParts{}, false
	}
	return arnParts{partition: parts[1], service: parts[2], region: parts[3], account: parts[4], resource: parts[5]}, true
}

// eventsRef is a parsed v2 bus or subscriber ARN.
type eventsRef struct {
	scope    scope
	name, id string
}

// parseEventsARN reads arn:aws:events:<region>:<account>:<resourceType>/<name>/<id>.
func parseEventsARN(s, resourceType string) (eventsRef, bool) {
	a, ok := splitARN(s)
	if !ok || a.service != "events" || a.region == "" || !awsjson.IsAccountID(a.account) {
		return eventsRef{}, false
	}
	rest, found := strings.CutPrefix(a.resource, resourceType+"/")
	if !found {
		return eventsRef{}, false
	}
	name, id, found := strings.Cut(rest, "/")
	if !found || name == "" || id == "" || strings.Contains(id, "/") {
		return eventsRef{}, false
	}
	return eventsRef{scope: scope{account: a.account, region: a.region}, name: name, id: id}, true
}

// isQueueARN reports whether s names an SQS queue:
// arn:aws:sqs:<region>:<account>:<queue name>.
func isQueueARN(s string) bool {
	a, ok := splitARN(s)
	return ok && a.service == "sqs" && a.region != "" && awsjson.IsAccountID(a.account) &&
		!strings.ContainsAny(a.resource, ":/")
}

// isRoleARN reports whether s names an IAM role: arn:aws:iam::<account>:role/<name>.
func isRoleARN(s string) bool {
	a, ok := splitARN(s)
	return ok && a.service == "iam" && a.region == "" && awsjson.IsAccountID(a.account) &&
		strings.HasPrefix(a.resource, "role/") && len(a.resource) > len("role/")
}

// isFIFOQueueARN reports whether a queue ARN names a FIFO queue.
func isFIFOQueueARN(s string) bool {
	return isQueueARN(s) && strings.HasSuffix(s, ".fifo")
}
