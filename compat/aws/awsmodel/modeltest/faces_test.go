package modeltest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel/modeltest"
	"github.com/gridbridge/gridbridge/testkit"
)

// The constraint tests send every case of a model's table to the emulator
// as testkit starts it (the binary's wiring, in-process), in the service's
// own protocol, and check the answer: the model's error code, with a
// message naming the member.

func TestEventBridgeEnforcesTheModel(t *testing.T) {
	t.Parallel()
	runCases(t, awsmodel.EventBridge(), "events", jsonProtocol("AWSEvents.", "application/x-amz-json-1.1"), wantValidation)
}

func TestSchedulerEnforcesTheModel(t *testing.T) {
	t.Parallel()
	runCases(t, awsmodel.Scheduler(), "scheduler", restProtocol, wantValidation)
}

func TestPipesEnforcesTheModel(t *testing.T) {
	t.Parallel()
	runCases(t, awsmodel.Pipes(), "pipes", restProtocol, wantValidation)
}

func TestSQSEnforcesTheModel(t *testing.T) {
	t.Parallel()
	runCases(t, awsmodel.SQS(), "sqs", jsonProtocol("AmazonSQS.", "application/x-amz-json-1.0"), wantSQS)
}

// answer is an error answer as the SDKs read it.
type answer struct {
	status  int
	code    string
	message string
	raw     string
}

type protocol func(base string, op *awsmodel.Operation, c modeltest.Case) (*http.Request, error)

type expectation func(op *awsmodel.Operation, c modeltest.Case, a answer) string

func runCases(t *testing.T, svc *awsmodel.Service, signingName string, build protocol, want expectation) {
	emu := testkit.Start(t)
	cases, _ := modeltest.Cases(svc, awsmodel.Wording{})
	client := emu.HTTPClient()
	for _, c := range cases {
		op, _ := svc.Operation(c.Op)
		t.Run(c.Name(), func(t *testing.T) {
			t.Parallel()
			req, err := build(emu.URL(), op, c)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+testkit.AWSAccount+"/20260101/us-east-1/"+signingName+"/aws4_request, SignedHeaders=host, Signature=0")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			a := answer{status: resp.StatusCode, code: resp.Header.Get("X-Amzn-ErrorType"), raw: string(body)}
			var e struct {
				Type     string `json:"__type"`
				Message  string `json:"message"`
				MessageU string `json:"Message"`
			}
			_ = json.Unmarshal(body, &e)
			if a.code == "" {
				a.code = e.Type
			}
			a.code, _, _ = strings.Cut(a.code, ":")
			if i := strings.LastIndex(a.code, "#"); i >= 0 {
				a.code = a.code[i+1:]
			}
			a.message = e.Message + e.MessageU
			if problem := want(op, c, a); problem != "" {
				sent, _ := json.Marshal(c.Body)
				t.Errorf("%s\nsent %s %s labels %v query %v: %.300s\ngot %d %s: %.400s", problem, req.Method, req.URL.Path, c.Labels, c.Query, sent, a.status, a.code, a.raw)
			}
		})
	}
}

func jsonProtocol(prefix, contentType string) protocol {
	return func(base string, op *awsmodel.Operation, c modeltest.Case) (*http.Request, error) {
		body, err := json.Marshal(c.Body)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("X-Amz-Target", prefix+op.Name)
		return req, nil
	}
}

// restProtocol binds a case as restJson1 does: labels into the URI, query
// parameters, headers, and the other members as the JSON body.
func restProtocol(base string, op *awsmodel.Operation, c modeltest.Case) (*http.Request, error) {
	path, query, _ := strings.Cut(op.URI, "?")
	for name, value := range c.Labels {
		path = strings.Replace(path, "{"+name+"+}", url.PathEscape(value), 1)
		path = strings.Replace(path, "{"+name+"}", url.PathEscape(value), 1)
	}
	q := url.Values{}
	if query != "" {
		q, _ = url.ParseQuery(query)
	}
	for k, v := range c.Query {
		q.Set(k, v)
	}
	target := base + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body io.Reader
	if op.Method != http.MethodGet && op.Method != http.MethodDelete || len(c.Body) > 0 {
		b, err := json.Marshal(c.Body)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(op.Method, target, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	return req, nil
}

// wantValidation is the answer of EventBridge, Scheduler and Pipes: a 400
// ValidationException whose message names the member. (The constraint's
// sentence is not compared: AWS's own wording of a bound varies between
// services, "between 1 and 64" or "less than or equal to 64".)
func wantValidation(_ *awsmodel.Operation, c modeltest.Case, a answer) string {
	if a.status != http.StatusBadRequest || a.code != "ValidationException" {
		return "want 400 ValidationException"
	}
	if !strings.Contains(a.message, "'"+c.Want.Path+"'") {
		return "want the message to name " + c.Want.Path
	}
	return ""
}

// wantSQS is SQS's answer: a missing member is MissingParameter naming it;
// a value outside an enum is InvalidAttributeName naming the value where
// the operation declares that error, InvalidParameterValue naming the
// member elsewhere.
func wantSQS(op *awsmodel.Operation, c modeltest.Case, a answer) string {
	if a.status != http.StatusBadRequest {
		return "want 400"
	}
	switch c.Want.Kind {
	case awsmodel.Required:
		if a.code != "MissingParameter" || !strings.Contains(a.message, c.Want.Member) {
			return "want MissingParameter naming " + c.Want.Member
		}
	case awsmodel.Enum:
		if slices.Contains(op.Errors, "InvalidAttributeName") {
			if a.code != "InvalidAttributeName" || !strings.Contains(a.message, "NOT_A_MODEL_VALUE") {
				return "want InvalidAttributeName naming the value"
			}
			return ""
		}
		if a.code != "InvalidParameterValue" || !strings.Contains(a.message, c.Want.Member) {
			return "want InvalidParameterValue naming " + c.Want.Member
		}
	default:
		if a.code != "InvalidParameterValue" || !strings.Contains(a.message, c.Want.Member) {
			return "want InvalidParameterValue naming " + c.Want.Member
		}
	}
	return ""
}
