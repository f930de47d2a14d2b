package eventbridge_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

// BenchmarkPutEventsServe is the server's own cost of one PutEvents call of
// ten entries, from the request to the engine's queue, without HTTP or the
// SDK: the handler served directly.
func BenchmarkPutEventsServe(b *testing.B) {
	h := newHarness(b)
	b.Cleanup(h.settle)
	putRule(b, h, "r", "", orderPattern)
	putTargets(b, h, "r", types.Target{Id: aws.String("fn"), Arn: aws.String("arn:aws:lambda:us-east-1:123456789012:function:f")})
	body := []byte(`{"Entries":[` + strings.TrimSuffix(strings.Repeat(`{"Source":"shop.orders","DetailType":"OrderPlaced","Detail":"{\"order\":{\"id\":\"o-1\",\"total\":12.5,\"items\":[\"a\",\"b\"]}}"},`, 10), ",") + `]}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Amz-Target", "AWSEvents.PutEvents")
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
		rec := httptest.NewRecorder()
		h.svc.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	b.StopTimer()
}
