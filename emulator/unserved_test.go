package emulator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	azruntime "github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// signed is a request signed with SigV4 for service, as the AWS SDKs and
// CLI send it.
func signed(t *testing.T, service, method, target, contentType, body string, header map[string]string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	sum := sha256.Sum256([]byte(body))
	creds := aws.Credentials{AccessKeyID: "test", SecretAccessKey: "test"}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), service, "us-east-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	return req
}

func do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// A call to an AWS service GridBridge does not emulate is answered in that
// service's own protocol with 501 NotImplemented (which no SDK retries),
// naming the service and what GridBridge does instead; the services it
// emulates still answer, SQS's query protocol included.
func TestCallsToAWSServicesNotEmulatedNameTheService(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	base := s.URL()
	form := "application/x-www-form-urlencoded; charset=utf-8"

	t.Run("query protocol (STS, IAM)", func(t *testing.T) {
		for service, action := range map[string]string{"sts": "GetCallerIdentity", "iam": "ListUsers"} {
			resp, body := do(t, signed(t, service, http.MethodPost, base+"/", form, "Action="+action+"&Version=2011-06-15", nil))
			var doc struct {
				XMLName xml.Name `xml:"ErrorResponse"`
				Error   struct{ Type, Code, Message string }
				ID      string `xml:"RequestId"`
			}
			if err := xml.Unmarshal(body, &doc); err != nil || resp.StatusCode != http.StatusNotImplemented {
				t.Fatalf("%s %s: %d %v %s", service, action, resp.StatusCode, err, body)
			}
			if doc.Error.Code != "NotImplemented" || doc.Error.Type != "Sender" || doc.ID == "" ||
				!strings.Contains(doc.Error.Message, "GridBridge does not emulate AWS "+strings.ToUpper(service)) || !strings.Contains(doc.Error.Message, action) {
				t.Errorf("%s %s: %+v", service, action, doc)
			}
		}
	})
	t.Run("REST-JSON (Lambda)", func(t *testing.T) {
		resp, body := do(t, signed(t, "lambda", http.MethodGet, base+"/2015-03-31/functions", "", "", nil))
		var doc struct{ Message string }
		if err := json.Unmarshal(body, &doc); err != nil || resp.StatusCode != http.StatusNotImplemented || resp.Header.Get("X-Amzn-ErrorType") != "NotImplemented" {
			t.Fatalf("lambda: %d %v %v %s", resp.StatusCode, err, resp.Header, body)
		}
		if !strings.Contains(doc.Message, "GridBridge does not emulate AWS Lambda") || !strings.Contains(doc.Message, "recorded in the journal") {
			t.Errorf("lambda: %q", doc.Message)
		}
	})
	t.Run("AWS JSON (DynamoDB)", func(t *testing.T) {
		resp, body := do(t, signed(t, "dynamodb", http.MethodPost, base+"/", "application/x-amz-json-1.0", "{}", map[string]string{"X-Amz-Target": "DynamoDB_20120810.ListTables"}))
		var doc struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(body, &doc); err != nil || resp.StatusCode != http.StatusNotImplemented || doc.Type != "NotImplemented" ||
			!strings.Contains(doc.Message, `the AWS service "dynamodb"`) || !strings.Contains(doc.Message, "ListTables") {
			t.Fatalf("dynamodb: %d %v %s", resp.StatusCode, err, body)
		}
	})
	t.Run("an emulated service's target signed for another", func(t *testing.T) {
		// The signature names the service: DynamoDB's answer, not SQS's.
		resp, body := do(t, signed(t, "dynamodb", http.MethodPost, base+"/", "application/x-amz-json-1.0", "{}", map[string]string{"X-Amz-Target": "AmazonSQS.ListQueues"}))
		if resp.StatusCode != http.StatusNotImplemented || !strings.Contains(string(body), `the AWS service \"dynamodb\"`) {
			t.Fatalf("dynamodb-signed AmazonSQS.ListQueues: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("REST-XML (S3)", func(t *testing.T) {
		resp, body := do(t, signed(t, "s3", http.MethodGet, base+"/", "", "", nil))
		var doc struct {
			XMLName xml.Name `xml:"Error"`
			Code    string
			Message string
		}
		if err := xml.Unmarshal(body, &doc); err != nil || resp.StatusCode != http.StatusNotImplemented || doc.Code != "NotImplemented" || !strings.Contains(doc.Message, "Amazon S3") {
			t.Fatalf("s3: %d %v %s", resp.StatusCode, err, body)
		}
	})
	t.Run("emulated services still answer", func(t *testing.T) {
		resp, body := do(t, signed(t, "events", http.MethodPost, base+"/", "application/x-amz-json-1.1", "{}", map[string]string{"X-Amz-Target": "AWSEvents.ListEventBuses"}))
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"EventBuses"`) {
			t.Errorf("events ListEventBuses: %d %s", resp.StatusCode, body)
		}
		resp, body = do(t, signed(t, "sqs", http.MethodPost, base+"/", "application/x-amz-json-1.0", "{}", map[string]string{"X-Amz-Target": "AmazonSQS.ListQueues"}))
		if resp.StatusCode != http.StatusOK || resp.Header.Get("x-amzn-RequestId") == "" {
			t.Errorf("sqs ListQueues (JSON protocol): %d %v %s", resp.StatusCode, resp.Header, body)
		}
		// Another service's target on "/" is left to the routes after the
		// AWS JSON ones: here, SQS's query protocol takes nothing it lacks.
		resp, body = do(t, signed(t, "sqs", http.MethodPost, base+"/", "application/x-amz-json-1.0", "{}", map[string]string{"X-Amz-Target": "AmazonSQSX.ListQueues"}))
		if resp.StatusCode == http.StatusOK {
			t.Errorf("an unknown X-Amz-Target was served: %d %s", resp.StatusCode, body)
		}
		resp, body = do(t, signed(t, "sqs", http.MethodPost, base+"/", form, "Action=ListQueues&Version=2012-11-05", nil))
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "ListQueuesResponse") {
			t.Errorf("sqs ListQueues (query protocol): %d %s", resp.StatusCode, body)
		}
		resp, body = do(t, signed(t, "scheduler", http.MethodGet, base+"/schedule-groups", "", "", nil))
		if resp.StatusCode != http.StatusOK {
			t.Errorf("scheduler ListScheduleGroups: %d %s", resp.StatusCode, body)
		}
	})
}

// A Resource Manager path no face serves gets ARM's error, with its code in
// x-ms-error-code, which azcore reads: a provider GridBridge does not
// emulate is named as such, an unknown Event Grid type is
// InvalidResourceType.
func TestUnservedARMRoutesAnswerInARMShape(t *testing.T) {
	t.Parallel()
	s := startVirtual(t)
	sub := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/"
	for _, c := range []struct{ path, code, says string }{
		{sub + "Microsoft.ServiceBus/namespaces/bus?api-version=2021-11-01", "NoRegisteredProviderFound", "GridBridge does not emulate the resource provider Microsoft.ServiceBus"},
		{sub + "Microsoft.Storage/storageAccounts/acct?api-version=2023-01-01", "NoRegisteredProviderFound", "--azure-storage"},
		{"/providers/Microsoft.Web/sites?api-version=2022-03-01", "NoRegisteredProviderFound", "Microsoft.Web"},
		{sub + "Microsoft.EventGrid/partnerNamespaces/p?api-version=2025-02-15", "InvalidResourceType", "'partnerNamespaces' could not be found in the namespace 'Microsoft.EventGrid'"},
		{"/nothing/here", "NotFound", "No resource matches GET /nothing/here"},
	} {
		req, err := http.NewRequest(http.MethodGet, s.URL()+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusNotFound || resp.Header.Get("x-ms-error-code") != c.code || resp.Header.Get("x-ms-request-id") == "" {
			t.Errorf("GET %s: %d, x-ms-error-code %q; want 404 %s with a request id", c.path, resp.StatusCode, resp.Header.Get("x-ms-error-code"), c.code)
		}
		var re *azcore.ResponseError
		if err := azruntime.NewResponseError(resp); !errors.As(err, &re) || re.ErrorCode != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("GET %s: azcore reads %v, want code %s saying %q", c.path, err, c.code, c.says)
		}
		resp.Body.Close()
	}
	// A served path answers as before.
	u, _ := url.Parse(s.URL() + sub + "Microsoft.EventGrid/topics/missing?api-version=2025-02-15")
	get(t, u.String(), http.StatusNotFound)
}
