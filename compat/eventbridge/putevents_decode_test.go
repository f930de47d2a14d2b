package eventbridge

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

// sameAsEncodingJSON fails t unless body, when readPutEvents takes it,
// decodes to exactly what awsjson.Decode (encoding/json) makes of it. It
// reports whether readPutEvents took it.
func sameAsEncodingJSON(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := readPutEvents(body)
	if !ok {
		return false
	}
	var want putEventsInput
	if err := awsjson.Decode(body, &want); err != nil {
		t.Fatalf("readPutEvents took %q, which encoding/json refuses: %v", body, err)
	}
	if !reflect.DeepEqual(fast, &want) {
		t.Fatalf("readPutEvents(%q) = %s, encoding/json: %s", body, dump(fast), dump(&want))
	}
	return true
}

func dump(in *putEventsInput) string {
	var b strings.Builder
	b.WriteString("{Entries:")
	if in.Entries == nil {
		b.WriteString("nil")
	}
	for _, e := range in.Entries {
		if e == nil {
			b.WriteString(" nil")
			continue
		}
		b.WriteString(" {")
		for _, f := range []struct {
			name string
			v    *string
		}{{"Source", e.Source}, {"DetailType", e.DetailType}, {"Detail", e.Detail}, {"EventBusName", e.EventBusName}, {"TraceHeader", e.TraceHeader}} {
			if f.v != nil {
				b.WriteString(f.name + "=" + *f.v + " ")
			}
		}
		if e.Time != nil {
			b.WriteString("Time=" + e.Time.String() + " ")
		}
		if e.Resources != nil {
			b.WriteString("Resources=[" + strings.Join(e.Resources, ",") + "]")
		}
		b.WriteString("}")
	}
	if in.EndpointId != nil {
		b.WriteString(" EndpointId=" + *in.EndpointId)
	}
	return b.String() + "}"
}

// The plain-shape reader takes what the SDKs send, with whatever a string
// may hold, and decodes it as encoding/json does; everything else goes to
// encoding/json.
func TestPutEventsReaderAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	taken := []string{
		`{"Entries":[{"Source":"shop","DetailType":"OrderPlaced","Detail":"{\"a\":1}"}]}`,
		` { "Entries" : [ { "Source" : "s" , "DetailType" : "d" , "Detail" : "{}" } , {"Source":"t"} ] , "EndpointId" : "e" } ` + "\n\t\r",
		`{"Entries":[]}`, `{}`, `{"Entries":[{}]}`,
		`{"Entries":[{"Resources":[],"Source":"s"}]}`,
		`{"Entries":[{"Resources":["arn:a","arn:b"],"EventBusName":"arn:aws:events:us-east-1:123456789012:event-bus/b","TraceHeader":"t"}]}`,
		`{"Entries":[{"Time":1772366400},{"Time":1772366400.123},{"Time":-1.5e3},{"Time":0},{"Time":1E2}]}`,
		`{"Entries":[{"Detail":"esc \" \\ \/ \b \f \n \r \t end"}]}`,
		`{"Entries":[{"Detail":"\u00e9\u4e2d \ud83d\ude00 \u003c\u003E\u0026 \u0000"}]}`,
		`{"Entries":[{"Detail":"lone \ud83d then \u0041, reversed \ude00\ud83d, twice \ud83d\ud83d\ude00"}]}`,
		`{"Entries":[{"Detail":"été 中文 😀 \ufffd` + "\uFFFD" + `"}]}`,
		`{"Entries":[{"Source":"` + strings.Repeat("x", 5000) + `"}]}`,
		`{"Entries":[{"Source":"a"},{"Source":"b"},{"Source":"c"},{"Source":"d"},{"Source":"e"},{"Source":"f"},{"Source":"g"},{"Source":"h"},{"Source":"i"},{"Source":"j"},{"Source":"k"}]}`,
	}
	left := []string{
		``, ` `, `[]`, `{`, `{"Entries":[}`, `{"Entries":[{"Source":"s"}]} x`, `{"Entries":[{"Source":"s"}]}{}`,
		`{"Entries":null}`, `{"Entries":[null]}`, `{"Entries":[{"Source":null}]}`, `{"Entries":[{"Resources":null}]}`,
		`{"Entries":[{"Resources":[null]}]}`, `{"Entries":[{"Resources":[1]}]}`, `{"Entries":[{"Source":1}]}`,
		`{"Entries":[{"Source":true}]}`, `{"Entries":[{"Source":{}}]}`, `{"Entries":["x"]}`, `{"Entries":{}}`,
		`{"entries":[]}`, `{"Entries":[{"source":"s"}]}`, `{"Entries":[{"SOURCE":"s"}]}`, `{"Entries":[{"Sourc\u0065":"s"}]}`,
		`{"Entries":[],"Entries":[]}`, `{"Entries":[{"Source":"a","Source":"b"}]}`, `{"Entries":[{"Time":1,"Time":2}]}`,
		`{"Entries":[{"Resources":[],"Resources":[]}]}`, `{"EndpointId":"a","EndpointId":"b"}`,
		`{"Entries":[{"Other":"x"}]}`, `{"Other":1}`, `{"EndpointId":null}`,
		`{"Entries":[{"Time":"2026-01-01T00:00:00Z"}]}`, `{"Entries":[{"Time":null}]}`, `{"Entries":[{"Time":1e400}]}`,
		`{"Entries":[{"Time":01}]}`, `{"Entries":[{"Time":-}]}`, `{"Entries":[{"Time":1.}]}`, `{"Entries":[{"Time":1e}]}`,
		`{"Entries":[{"Detail":"bad \x escape"}]}`, `{"Entries":[{"Detail":"\u12"}]}`, `{"Entries":[{"Detail":"\ud83d\u"}]}`, `{"Entries":[{"Detail":"\uzzzz"}]}`,
		"{\"Entries\":[{\"Detail\":\"raw \x01 control\"}]}", "{\"Entries\":[{\"Detail\":\"bad \xff utf-8\"}]}",
		"{\"Entries\":[{\"Detail\":\"cut \xe4\xb8\"}]}", "{\"Entries\":[{\"Detail\":\"esc \\n bad \xff\"}]}",
		`{"Entries":[{"Detail":"unterminated}]}`, `{"Entries":[{"Detail":"x\`, "\f{}", "\u00a0{}",
		`{"Entries":[{"Source":"s"},]}`, `{"Entries":[{"Source":"s",}]}`, `{"Entries":[{"Source" "s"}]}`,
	}
	for _, body := range taken {
		if !sameAsEncodingJSON(t, []byte(body)) {
			t.Errorf("readPutEvents left %q to encoding/json; it is the plain shape", body)
		}
	}
	for _, body := range left {
		if sameAsEncodingJSON(t, []byte(body)) {
			t.Errorf("readPutEvents took %q; it must go to encoding/json", body)
		}
	}
}

// What the Go SDK sends is the plain shape, whatever its entries hold.
func TestPutEventsReaderTakesTheSDKsRequest(t *testing.T) {
	t.Parallel()
	bodies := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies <- body
		w.Header().Set("Content-Type", awsjson.ContentType)
		_, _ = io.WriteString(w, `{"FailedEntryCount":0,"Entries":[]}`)
	}))
	defer srv.Close()
	client := ebsdk.New(facetest.EventBridgeOptions(srv.URL, "123456789012", "us-east-1", srv.Client()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := client.PutEvents(ctx, &ebsdk.PutEventsInput{EndpointId: aws.String("abc.def"), Entries: []types.PutEventsRequestEntry{
		{Source: aws.String("shop.orders"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"order":{"id":"o-1","total":12.5}}`)},
		{
			Source: aws.String("a <b> & \"c\""), DetailType: aws.String("été 😀\n\t"), Detail: aws.String(`{"html":"<p>&amp;</p>","ctl":"\u0001"}`),
			EventBusName: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/orders"), Resources: []string{"arn:aws:s3:::b", ""},
			Time: aws.Time(time.Date(2026, 3, 1, 12, 0, 0, 250e6, time.UTC)), TraceHeader: aws.String("Root=1-abc"),
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	body := <-bodies
	if !sameAsEncodingJSON(t, body) {
		t.Fatalf("readPutEvents left the SDK's request to encoding/json: %s", body)
	}
}

// FuzzPutEventsReader: whatever readPutEvents takes, encoding/json takes
// too and decodes to the same input.
func FuzzPutEventsReader(f *testing.F) {
	for _, body := range []string{
		`{"Entries":[{"Source":"shop","DetailType":"d","Detail":"{\"a\":1}","Resources":["r"],"Time":1.5}],"EndpointId":"e"}`,
		`{"Entries":[{"Detail":"\ud83d\ude00 \ud83d \u00e9 \\ \/"}]}`,
		`{"Entries":[{"EventBusName":"b","TraceHeader":"t"}]}`, `{}`, `{"Entries":[null]}`,
	} {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsEncodingJSON(t, body)
	})
}
