// Package awsjson speaks the AWS JSON 1.1 protocol the way EventBridge does
// for GridBridge: it decodes request bodies, writes results and errors in the
// shape every official client understands, reads the caller's account and
// region from the request signature, and converts epoch-second timestamps.
//
// Errors carry their code in both the X-Amzn-ErrorType header and the body's
// __type, because the Go SDK reads the header first while the JS SDK and the
// AWS CLI read only the body; the two always agree.
package awsjson
