// Package e2e holds GridBridge's end-to-end tests: official SDKs against an
// emulator started in-process (testkit.Start) and as the built binary
// (testkit.Connect), with dead letters in the real Azurite and SQS servers
// that ./scripts/test.sh starts.
package e2e
