// Package publish serves the data plane of Event Grid basic topics: the
// POST a publisher sends to a topic's endpoint. It authenticates the
// request (access key, SAS token, bearer token), reads and validates the
// events in the topic's input schema and hands accepted events on; every
// refusal is a 4xx with the service's error body, never a 5xx (the SDKs
// retry 5xx slowly).
package publish
