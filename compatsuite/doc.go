// Package compatsuite is GridBridge's compatibility suite: it builds and starts
// the emulator binary, drives it with the official JS SDKs (compatsuite/js,
// through Node's test runner), the AWS CLI and Debian's Python SDKs
// (compatsuite/python/suite.py on /usr/bin/python3: python3-azure,
// python3-boto3), and checks that the README's
// compatibility table says exactly what the suite proved.
//
// Run it with ./scripts/test.sh ./compatsuite/... -v, which installs the
// pinned SDKs, the pinned Node.js and an SQS server. When the table in
// README.md (between <!-- compat:begin --> and <!-- compat:end -->) differs
// from the results, the test fails with a diff; GRIDBRIDGE_UPDATE_README=1
// rewrites the table instead.
package compatsuite
