package cloudevent

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseBatch is a publish's decode: ten events as the SDK sends
// them.
func BenchmarkParseBatch(b *testing.B) {
	var evs []string
	for i := range 10 {
		evs = append(evs, fmt.Sprintf(`{"specversion":"1.0","id":"e-%d","source":"/shop","type":"Order.Placed","time":"2026-01-02T03:04:05.123Z","datacontenttype":"application/json","data":{"orderId":%d,"total":42.5,"currency":"EUR"}}`, i, i))
	}
	body := []byte("[" + strings.Join(evs, ",") + "]")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseBatch(body); err != nil {
			b.Fatal(err)
		}
	}
}
