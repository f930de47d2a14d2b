package deadletter

import (
	"strconv"
	"strings"
	"time"
)

// BlobPath names a dead-letter blob inside its container (EG-23):
// "<SUBSCRIPTION-NAME>/<yyyy>/<M>/<d>/<H>/<id>.json", the subscription's name
// upper-cased, the UTC date and hour not zero-padded, e.g.
// "MY-BLOB-SUBSCRIPTION/2019/8/8/5/<guid>.json".
func BlobPath(subscriptionName string, t time.Time, id string) string {
	t = t.UTC()
	b := make([]byte, 0, len(subscriptionName)+len(id)+24)
	b = append(b, strings.ToUpper(subscriptionName)...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Year()), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Month()), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Day()), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Hour()), 10)
	b = append(b, '/')
	b = append(b, id...)
	b = append(b, ".json"...)
	return string(b)
}
