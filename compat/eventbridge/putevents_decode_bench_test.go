package eventbridge

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkReadPutEvents is the cost of reading a PutEvents request of ten
// entries as the SDK sends them (Detail an escaped JSON string, Resources
// and Time set on some).
func BenchmarkReadPutEvents(b *testing.B) {
	var s strings.Builder
	s.WriteString(`{"Entries":[`)
	for i := range 10 {
		if i > 0 {
			s.WriteByte(',')
		}
		id := strconv.Itoa(i)
		s.WriteString(`{"Detail":"{\"order\":{\"id\":\"o-` + id + `\",\"total\":12.5,\"items\":[\"a\",\"b\"]}}","DetailType":"OrderPlaced","EventBusName":"bench","Source":"shop"`)
		if i%2 == 0 {
			s.WriteString(`,"Resources":["arn:aws:s3:::bucket-` + id + `"],"Time":1700000000`)
		}
		s.WriteByte('}')
	}
	s.WriteString(`]}`)
	body := []byte(s.String())
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, ok := readPutEvents(body); !ok {
			b.Fatalf("readPutEvents refused %s", body)
		}
	}
}
