package transform

import (
	"bytes"
	"encoding/json"
	"regexp"
	"time"
)

// An EventBridge pipe's InputTemplate (EnrichmentParameters and
// TargetParameters) names its values directly, with no InputPathsMap: a
// placeholder is a JSON path into the event (<$.body.orderId>,
// <$.attributes.MessageGroupId>, <$.items[*].id>) or one of the pipe's
// reserved variables (<aws.pipes.pipe-arn>, …). Values are written into the
// template as an InputTransformer writes its own (see the package doc).

// pipePlaceholder is AWS's JSON path pattern for pipes, or a variable.
var pipePlaceholder = regexp.MustCompile(`<(\$(?:\.[\w/\-]+(?:\[(?:\d+|\*)\])*)*|aws\.pipes\.[A-Za-z.\-]+)>`)

// The reserved variables of a pipe's InputTemplate.
const (
	PipeArn           = "aws.pipes.pipe-arn"
	PipeName          = "aws.pipes.pipe-name"
	PipeSourceArn     = "aws.pipes.source-arn"
	PipeEnrichmentArn = "aws.pipes.enrichment-arn"
	PipeTargetArn     = "aws.pipes.target-arn"
	PipeIngestionTime = "aws.pipes.event.ingestion-time"
	PipeWholeEvent    = "aws.pipes.event"
	PipeEventJSON     = "aws.pipes.event.json"
)

// PipeEvent is one event a pipe's template is filled from.
type PipeEvent struct {
	// Event is the event as the step receives it, JSON.
	Event []byte
	// Paths is what JSON paths read: Event, or Event with an SQS message's
	// body parsed when it holds JSON (AWS's implicit body parsing); nil
	// means Event.
	Paths []byte
	// Pipe gives the values of the pipe's ARN variables: PipeArn,
	// PipeName, PipeSourceArn, PipeEnrichmentArn, PipeTargetArn.
	Pipe map[string]string
	// IngestionTime is when the pipe read the event from its source.
	IngestionTime time.Time
}

// RenderPipe fills a pipe's InputTemplate from ev. A JSON template that
// does not come out as JSON is ErrInvalidJSON.
func RenderPipe(tpl string, ev PipeEvent) ([]byte, error) {
	paths := ev.Paths
	if paths == nil {
		paths = ev.Event
	}
	return fill(tpl, pipePlaceholder, len(ev.Event), func(name string) (json.RawMessage, bool, bool) {
		if name[0] == '$' {
			v, found := LookupPipe(paths, name)
			return v, true, found
		}
		switch name {
		case PipeIngestionTime:
			return quote(ev.IngestionTime.UTC().Format(ingestionTimeLayout)), true, true
		case PipeWholeEvent, PipeEventJSON:
			return ev.Event, true, true
		}
		if v, ok := ev.Pipe[name]; ok {
			return quote(v), true, true
		}
		return nil, false, false
	})
}

// LookupPipe is Lookup with a pipe's JSON paths, where [*] takes every
// element of an array: the values found under it are returned as one JSON
// array.
func LookupPipe(doc []byte, path string) (json.RawMessage, bool) {
	segs, ok := parsePathOf(path, true)
	if !ok {
		return nil, false
	}
	return lookupSegments(json.RawMessage(bytes.TrimSpace(doc)), segs)
}

func lookupSegments(cur json.RawMessage, segs []segment) (json.RawMessage, bool) {
	for i, s := range segs {
		var next json.RawMessage
		ok := false
		switch {
		case s.every:
			var items []json.RawMessage
			if len(cur) == 0 || cur[0] != '[' || json.Unmarshal(cur, &items) != nil {
				return nil, false
			}
			found := make([]json.RawMessage, 0, len(items))
			for _, item := range items {
				if v, ok := lookupSegments(item, segs[i+1:]); ok {
					found = append(found, v)
				}
			}
			out, err := json.Marshal(found)
			return out, err == nil
		case s.isIdx:
			next, ok = element(cur, s.index)
		default:
			next, ok = member(cur, s.name)
		}
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}
