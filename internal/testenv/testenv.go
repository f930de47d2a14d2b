// Package testenv hands tests the addresses of the real services that
// ./scripts/test.sh starts (Azurite and an SQS server). Without them a test
// skips, so a plain `go test ./...` still works on a developer's machine; under
// CI it fails instead, so that CI can never pass by skipping.
package testenv

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// Names of the environment variables that ./scripts/test.sh sets.
const (
	// AzureStorageVar holds an Azure Storage connection string for Azurite,
	// with BlobEndpoint and QueueEndpoint.
	AzureStorageVar = "GRIDBRIDGE_TEST_AZURE_STORAGE"
	// SQSEndpointVar holds the base URL of an SQS-compatible server, e.g.
	// "http://127.0.0.1:4566".
	SQSEndpointVar = "GRIDBRIDGE_TEST_SQS_ENDPOINT"
	// NodeVar holds the path of the pinned Node.js binary that runs the
	// compatibility suite's JS SDK tests.
	NodeVar = "GRIDBRIDGE_TEST_NODE"
)

// AzureStorage returns the Azurite connection string, or skips t (fails it
// under CI) when none is set.
func AzureStorage(t testing.TB) string {
	t.Helper()
	return require(t, AzureStorageVar, "Azurite")
}

// SQSEndpoint returns the SQS server's base URL, or skips t (fails it under
// CI) when none is set.
func SQSEndpoint(t testing.TB) string {
	t.Helper()
	return require(t, SQSEndpointVar, "an SQS server")
}

// Node returns the pinned Node.js binary, or skips t (fails it under CI).
func Node(t testing.TB) string {
	t.Helper()
	return require(t, NodeVar, "the compatibility suite's Node.js")
}

// AWSCLI returns the path of the AWS CLI, or skips t (fails it under CI)
// when it is not installed.
func AWSCLI(t testing.TB) string {
	t.Helper()
	return installed(t, "aws", "the AWS CLI", "awscli")
}

// DebianPython is the interpreter Debian's python3-azure and python3-boto3
// install for; a python3 earlier on PATH (pyenv) does not see them.
const DebianPython = "/usr/bin/python3"

// PythonSDKs returns DebianPython when it imports the Azure and AWS Python
// SDKs the compatibility suite drives, or skips t (fails it under CI).
func PythonSDKs(t testing.TB) string {
	t.Helper()
	out, err := exec.Command(DebianPython, "-c", "import azure.eventgrid, azure.identity, azure.mgmt.eventgrid, azure.mgmt.resource, azure.storage.blob, boto3").CombinedOutput()
	if err == nil {
		return DebianPython
	}
	const how = "./scripts/test.sh installs them when run as root (apt-get install python3-azure python3-boto3)"
	if inCI() {
		t.Fatalf("%s cannot import the Python SDKs (%v: %s), and CI=%s: %s", DebianPython, err, out, os.Getenv("CI"), how)
	}
	t.Skipf("%s cannot import the Python SDKs (%v): %s", DebianPython, err, how)
	return ""
}

// Chromium returns the path of Debian's chromium, which the dashboard's
// browser tests drive headless, or skips t (fails it under CI) when it is not
// installed.
func Chromium(t testing.TB) string {
	t.Helper()
	return installed(t, "chromium", "chromium", "chromium")
}

// Curl returns the path of curl, which the shell quick starts call to move
// the virtual clock, or skips t (fails it under CI) when it is not
// installed.
func Curl(t testing.TB) string {
	t.Helper()
	return installed(t, "curl", "curl", "curl")
}

// installed returns the path of command, which ./scripts/test.sh installs
// with apt-get (package pkg) when run as root, or skips t (fails it under
// CI) when it is not on PATH; what names it in the message.
func installed(t testing.TB, command, what, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(command)
	if err == nil {
		return path
	}
	if inCI() {
		t.Fatalf("%s is not installed, and CI=%s: ./scripts/test.sh installs it (apt-get install %s) when run as root", what, os.Getenv("CI"), pkg)
	}
	t.Skipf("%s is not installed: ./scripts/test.sh installs it when run as root (apt-get install %s)", what, pkg)
	return ""
}

func require(t testing.TB, name, service string) string {
	t.Helper()
	if v := os.Getenv(name); v != "" {
		return v
	}
	if inCI() {
		t.Fatalf("%s is not set, and CI=%s: run the tests with ./scripts/test.sh, which starts %s and sets it (CI must not skip these tests)", name, os.Getenv("CI"), service)
		return ""
	}
	t.Skipf("%s is not set: run ./scripts/test.sh, which starts %s and sets it", name, service)
	return ""
}

// inCI reads CI as the CI systems set it ("true", "1"); anything else, or
// nothing, means a developer's machine.
func inCI() bool {
	ci, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && ci
}
