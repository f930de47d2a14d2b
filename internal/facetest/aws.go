package facetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
)

// AWSJSONContentType is the content type of the AWS JSON 1.1 protocol.
const AWSJSONContentType = "application/x-amz-json-1.1"

// EventBridgeOptions point an aws-sdk-go-v2 EventBridge client at endpoint,
// signing as accessKey in region (GridBridge reads a twelve-digit access
// key id as the account it acts for), sending through client.
func EventBridgeOptions(endpoint, accessKey, region string, client *http.Client) eventbridge.Options {
	return eventbridge.Options{
		BaseEndpoint: aws.String(endpoint),
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		HTTPClient:   client,
		// Quota errors are LimitExceededException, which the SDK retries
		// with back-off; one attempt keeps the tests fast.
		RetryMaxAttempts: 1,
	}
}

// AWSJSONRequest is a hand-made AWS JSON 1.1 call of target (such as
// "AWSEvents.PutRule") to endpoint, unsigned.
func AWSJSONRequest(endpoint, target string, body []byte) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", AWSJSONContentType)
	req.Header.Set("X-Amz-Target", target)
	return req, nil
}

// AWSError is an AWS JSON error answer: its status, its __type and message.
type AWSError struct {
	Status  int
	Code    string
	Message string
}

func (e *AWSError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// DecodeAWSJSON decodes an AWS JSON answer: a 200 into out (nil: ignore the
// body), anything else into *AWSError, after checking that the
// X-Amzn-ErrorType header and the body's __type agree, as the SDKs expect.
func DecodeAWSJSON(resp Response, out any) error {
	if resp.Status == http.StatusOK {
		if out == nil {
			return nil
		}
		return json.Unmarshal(resp.Body, out)
	}
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(resp.Body, &e); err != nil {
		return fmt.Errorf("error body is not JSON (%d): %s", resp.Status, resp.Body)
	}
	if got := resp.Header.Get("X-Amzn-ErrorType"); got != e.Type {
		return fmt.Errorf("X-Amzn-ErrorType %q and __type %q disagree", got, e.Type)
	}
	return &AWSError{Status: resp.Status, Code: e.Type, Message: e.Message}
}

// WantAWSError fails the test unless err is a 4xx *AWSError with code whose
// message contains each of fragments (bad input never earns a 5xx); what
// names the call in a failure.
func WantAWSError(t testing.TB, what string, err error, code string, fragments ...string) *AWSError {
	t.Helper()
	ae, ok := err.(*AWSError)
	if !ok {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
	if ae.Code != code || ae.Status < 400 || ae.Status >= 500 {
		t.Fatalf("%s: got %v, want a 4xx %s", what, ae, code)
	}
	for _, f := range fragments {
		if !strings.Contains(ae.Message, f) {
			t.Fatalf("%s: message %q does not contain %q", what, ae.Message, f)
		}
	}
	return ae
}
