// Package awsjson speaks AWS's JSON protocols for GridBridge's AWS faces:
// JSON 1.1 (EventBridge and event buses v2) and REST-JSON (EventBridge
// Scheduler). It gives each its request frame (Frame, RESTFrame), decodes
// request bodies, writes results and errors in the shape every official
// client understands, reads the caller's account and region from the
// request signature, and converts epoch-second timestamps.
//
// JSON 1.1 errors carry their code in both the X-Amzn-ErrorType header and
// the body's __type, because the Go SDK reads the header first while the JS
// SDK and the AWS CLI read only the body; the two always agree. REST-JSON
// errors carry it in the header, and the message in the body.
package awsjson
