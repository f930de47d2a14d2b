package facetest

import (
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go"
)

// The account and region the AWS faces' tests sign as: GridBridge reads a
// twelve-digit access key id as the account it acts for.
const (
	AWSAccount = "123456789012"
	AWSRegion  = "us-east-1"
)

// AWSStart is where the AWS faces' test clocks begin.
var AWSStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// AWSFace is an AWS face under test: an Env starting at AWSStart whose
// router a plain HTTP server serves, as the AWS SDKs reach an endpoint. A
// face's harness embeds it beside its SDK client.
type AWSFace struct {
	*Env
	T      testing.TB
	Server *httptest.Server
}

// NewAWSFace builds the Env, lets mount create the face on its engine and
// register its routes on its router, and then serves the router.
func NewAWSFace(t testing.TB, mount func(env *Env)) *AWSFace {
	t.Helper()
	env := New(t, Options{Start: AWSStart})
	mount(env)
	return &AWSFace{Env: env, T: t, Server: env.ServeHTTP(t)}
}

// Config points an aws-sdk-go-v2 client (NewFromConfig) at the face,
// signing as accessKey in region.
func (f *AWSFace) Config(accessKey, region string) aws.Config {
	return AWSConfig(f.Server.URL, accessKey, region, f.Server.Client())
}

// WantAPIError fails the test unless err is an API error, as an
// aws-sdk-go-v2 client returns it, with code and, unless message is empty,
// exactly message.
func WantAPIError(t testing.TB, err error, code, message string) {
	t.Helper()
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want %s", err, code)
	}
	if apiErr.ErrorCode() != code || (message != "" && apiErr.ErrorMessage() != message) {
		t.Fatalf("got %s: %q, want %s: %q", apiErr.ErrorCode(), apiErr.ErrorMessage(), code, message)
	}
}
