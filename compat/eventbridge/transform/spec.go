package transform

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"time"
)

// Spec is how one target wants its input: at most one of the three is set;
// none means the whole event.
type Spec struct {
	Input       *string
	InputPath   *string
	Transformer *Transformer
}

// Transformer is a target's InputTransformer.
type Transformer struct {
	PathsMap map[string]string
	Template string
}

// Event is what a target's input is made from.
type Event struct {
	// Envelope is the event as the bus delivers it, compact JSON.
	Envelope []byte
	RuleArn  string
	RuleName string
	// IngestionTime is when the bus accepted the event.
	IngestionTime time.Time
}

// Errors of Render: the target receives nothing. EventBridge reports both as
// an undeliverable event.
var (
	ErrNoValue     = errors.New("the InputPath matched nothing in the event")
	ErrInvalidJSON = errors.New("the InputTemplate produced invalid JSON")
)

// Predefined placeholder names, usable without an InputPathsMap entry.
const (
	RuleArn       = "aws.events.rule-arn"
	RuleName      = "aws.events.rule-name"
	IngestionTime = "aws.events.event.ingestion-time"
	WholeEvent    = "aws.events.event"
	EventJSON     = "aws.events.event.json"
)

func predefined(name string) bool {
	switch name {
	case RuleArn, RuleName, IngestionTime, WholeEvent, EventJSON:
		return true
	}
	return false
}

// placeholderPattern finds <name> in a template. Names in InputPathsMap are
// [A-Za-z0-9_-]+; the predefined ones add dots.
var placeholderPattern = regexp.MustCompile(`<([A-Za-z0-9_\-.]+)>`)

// Validate checks what PutTargets checks about a target's input, returning
// AWS's message for the first problem.
func Validate(s Spec, targetID string) error {
	set := 0
	for _, given := range []bool{s.Input != nil, s.InputPath != nil, s.Transformer != nil} {
		if given {
			set++
		}
	}
	if set > 1 {
		return fmt.Errorf("Only one of Input, InputPath, or InputTransformer must be provided for target %s.", targetID)
	}
	if s.Transformer == nil {
		return nil
	}
	var unknown []string
	for _, m := range placeholderPattern.FindAllStringSubmatch(s.Transformer.Template, -1) {
		name := m[1]
		if _, ok := s.Transformer.PathsMap[name]; !ok && !predefined(name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("InputTemplate for target %s contains invalid placeholder %s.", targetID, unknown[0])
	}
	return nil
}

// Render returns the bytes the target receives for ev.
func (s Spec) Render(ev Event) ([]byte, error) {
	switch {
	case s.Input != nil:
		return []byte(*s.Input), nil
	case s.InputPath != nil:
		v, ok := Lookup(ev.Envelope, *s.InputPath)
		if !ok {
			return nil, ErrNoValue
		}
		return v, nil
	case s.Transformer != nil:
		return s.Transformer.render(ev)
	}
	return ev.Envelope, nil
}
