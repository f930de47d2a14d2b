package sqs_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkQueryDecodeLargeBatch is one large query-protocol
// SendMessageBatch: "many-entries" names 1,900 entries of a few members each
// (about 580 KB, refused as TooManyEntriesInBatchRequest once decoded),
// "ten-entries" ten entries of 25 KB bodies, each with ten attributes
// (about 270 KB, accepted). The cost must grow with the request's size, not
// its square. Run it with
//
//	go test ./compat/sqs -run '^$' -bench QueryDecode -benchtime 10x
func BenchmarkQueryDecodeLargeBatch(b *testing.B) {
	for _, tc := range []struct {
		name       string
		entries    int
		bodySize   int
		wantStatus int
	}{{"many-entries", 1900, 16, http.StatusBadRequest}, {"ten-entries", 10, 25 << 10, http.StatusOK}} {
		b.Run(tc.name, func(b *testing.B) {
			h := newHarness(b)
			queue := h.createQueue("big", nil)
			form := url.Values{"Action": {"SendMessageBatch"}, "QueueUrl": {queue}}
			for i := 1; i <= tc.entries; i++ {
				p := fmt.Sprintf("SendMessageBatchRequestEntry.%d.", i)
				form.Set(p+"Id", fmt.Sprint("m", i))
				form.Set(p+"MessageBody", strings.Repeat("b", tc.bodySize))
				for a := 1; a <= 10 && tc.entries <= 10; a++ {
					ap := fmt.Sprintf("%sMessageAttribute.%d.", p, a)
					form.Set(ap+"Name", fmt.Sprint("attr", a))
					form.Set(ap+"Value.DataType", "String")
					form.Set(ap+"Value.StringValue", "v")
				}
				if tc.entries > 10 {
					form.Set(p+"MessageAttribute.1.Name", "a")
					form.Set(p+"MessageAttribute.1.Value.DataType", "String")
					form.Set(p+"MessageAttribute.1.Value.StringValue", "v")
				}
			}
			body := form.Encode()
			b.ResetTimer()
			for range b.N {
				req := h.rawRequest(b, http.MethodPost, "/", body)
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
				resp, err := h.Server.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				answer, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.wantStatus {
					b.Fatalf("%d %s", resp.StatusCode, answer)
				}
			}
			b.ReportMetric(float64(len(body))/1024, "request-KiB")
		})
	}
}
