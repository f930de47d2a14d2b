package eventbridge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

// The 256 KB PutEvents limit is counted as AWS documents: 14 bytes for a
// Time, plus the UTF-8 bytes of Source, DetailType, Detail and each
// Resource, summed over the entries; JSON framing does not count.
func TestPutEventsEntrySizeBoundary(t *testing.T) {
	h, c := startTest(t)
	const limit = 256 * 1024
	// padded returns an entry with a Time and a resource whose counted size is n.
	padded := func(n int) types.PutEventsRequestEntry {
		e := types.PutEventsRequestEntry{
			Source: aws.String("src"), DetailType: aws.String("dt"), Time: aws.Time(time.Unix(1, 0)),
			Resources: []string{"arn:aws:s3:::bucket"},
		}
		fixed := len("src") + len("dt") + 14 + len("arn:aws:s3:::bucket") + len(`{"p":""}`)
		e.Detail = aws.String(`{"p":"` + strings.Repeat("é", (n-fixed)/2) + strings.Repeat("a", (n-fixed)%2) + `"}`)
		return e
	}
	half := limit / 2
	ok := must[*ebsdk.PutEventsOutput](t)(h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{padded(half), padded(half)}}))
	if ok.FailedEntryCount != 0 {
		t.Fatalf("two entries of exactly 128 KB each: %+v", ok.Entries)
	}
	_, err := h.client.PutEvents(c, &ebsdk.PutEventsInput{Entries: []types.PutEventsRequestEntry{padded(half), padded(half + 1)}})
	apiError(t, err, "ValidationException", "Total size of the entries in the request is over the limit.")
}
