package eventsv2

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
	"github.com/gridbridge/gridbridge/compat/eventbridge/transform"
)

// Building a subscriber's configuration from CreateSubscriber and
// UpdateSubscriber: the member checks of validate.go first, then the rules
// that tie members together, then the event patterns.

// newSubscriberConfig validates a CreateSubscriber request.
func newSubscriberConfig(in *createSubscriberInput) (*subscriberConfig, error) {
	var v awsjson.Violations
	checkName(&v, in.Name, "name", 64)
	awsjson.Require(&v, in.EventBusArn, "eventBusArn")
	checkLength(&v, in.EventBusArn, "eventBusArn", 1, maxTargetArnLen)
	checkLength(&v, in.Description, "description", 0, maxDescriptionLen)
	checkEnum(&v, in.StartingPosition, "startingPosition", StartingLatest, StartingPointInTime)
	checkPointInTime(&v, in.PointInTimeConfiguration)
	in.check(&v, true)
	if err := v.Err(); err != nil {
		return nil, err
	}

	cfg := &subscriberConfig{
		description:      deref(in.Description),
		startingPosition: StartingLatest,
		maxRetries:       defaultRetryAttempts,
		maxAge:           defaultEventAgeSecs * time.Second,
	}
	if in.StartingPosition != nil {
		cfg.startingPosition = *in.StartingPosition
	}
	switch {
	case cfg.startingPosition == StartingPointInTime && in.PointInTimeConfiguration == nil:
		return nil, invalidParameter("PointInTimeConfiguration", "StartingPosition POINT_IN_TIME requires a PointInTimeConfiguration.")
	case cfg.startingPosition == StartingLatest && in.PointInTimeConfiguration != nil:
		return nil, invalidParameter("PointInTimeConfiguration", "a PointInTimeConfiguration applies only to StartingPosition POINT_IN_TIME.")
	}
	if p := in.PointInTimeConfiguration; p != nil {
		w := &replayWindow{start: p.StartingPoint.Time, open: p.EndPoint == nil}
		if p.EndPoint != nil {
			w.end = p.EndPoint.Time
			if w.end.Before(w.start) {
				return nil, invalidParameter("PointInTimeConfiguration.EndPoint", "EndPoint must not be before StartingPoint.")
			}
		}
		cfg.window = w
	}
	if err := in.apply(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// updatedSubscriberConfig validates an UpdateSubscriber request against the
// subscriber's current settings: members given replace, the others stay.
func updatedSubscriberConfig(cur *subscriberConfig, in *updateSubscriberInput) (*subscriberConfig, error) {
	var v awsjson.Violations
	awsjson.Require(&v, in.Name, "name")
	checkLength(&v, in.Name, "name", 1, maxTargetArnLen)
	checkLength(&v, in.Description, "description", 0, maxDescriptionLen)
	in.check(&v, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	next := *cur
	if in.Description != nil {
		next.description = *in.Description
	}
	if err := in.apply(&next); err != nil {
		return nil, err
	}
	return &next, nil
}

// check applies the member checks of the settings; CreateSubscriber
// requires an InvokeConfiguration, UpdateSubscriber does not.
func (in *subscriberSettings) check(v *awsjson.Violations, invokeRequired bool) {
	checkFilters(v, in.FilterConfiguration)
	if invokeRequired && in.InvokeConfiguration == nil {
		v.Required("invokeConfiguration")
	}
	checkInvoke(v, in.InvokeConfiguration)
	checkRetry(v, in.RetryPolicy)
	checkOnFailure(v, in.OnFailureConfiguration)
}

// apply sets the settings given in cfg: the invoke, retry and dead-letter
// settings (applyUpdates), then the filters' compiled patterns.
func (in *subscriberSettings) apply(cfg *subscriberConfig) error {
	if err := applyUpdates(cfg, in.InvokeConfiguration, in.RetryPolicy, in.OnFailureConfiguration); err != nil {
		return err
	}
	if in.FilterConfiguration != nil {
		filters, err := compileFilters(in.FilterConfiguration)
		if err != nil {
			return err
		}
		cfg.filters = filters
	}
	return nil
}

// applyUpdates sets the invoke, retry and dead-letter settings that are
// given, then checks the rules that tie them together.
func applyUpdates(cfg *subscriberConfig, inv *invokeConfigurationShape, retry *retryPolicyShape, onFailure *awsjson.DeadLetterConfig) error {
	if inv != nil {
		settings, err := invokeSettingsOf(inv)
		if err != nil {
			return err
		}
		cfg.invoke = settings
	}
	if retry != nil {
		// Members left out take their defaults, as in a new policy.
		cfg.maxRetries = defaultRetryAttempts
		cfg.maxAge = defaultEventAgeSecs * time.Second
		if retry.MaxRetryAttempts != nil {
			cfg.maxRetries = int(*retry.MaxRetryAttempts)
		}
		if retry.MaxEventAgeInSeconds != nil {
			cfg.maxAge = time.Duration(*retry.MaxEventAgeInSeconds) * time.Second
		}
	}
	if onFailure != nil {
		cfg.deadLetterArn = deref(onFailure.Arn)
		if cfg.deadLetterArn != "" && !isQueueARN(cfg.deadLetterArn) {
			return invalidParameter("OnFailureConfiguration.Arn", fmt.Sprintf("%s is not an SQS queue ARN (arn:aws:sqs:<region>:<account>:<queue name>); dead-letter records go to SQS queues only.", cfg.deadLetterArn))
		}
	}
	// EB-10: a FIFO subscriber's records keep their group order only in a
	// FIFO queue.
	if isFIFOQueueARN(cfg.invoke.targetArn) && cfg.deadLetterArn != "" && !isFIFOQueueARN(cfg.deadLetterArn) {
		return invalidParameter("OnFailureConfiguration.Arn", fmt.Sprintf("the target %s is a FIFO queue, so the dead-letter queue must be a FIFO queue (a name ending in .fifo) too.", cfg.invoke.targetArn))
	}
	return nil
}

// invokeSettingsOf checks what InvokeConfiguration's members mean together.
func invokeSettingsOf(inv *invokeConfigurationShape) (invokeSettings, error) {
	s := invokeSettings{
		targetArn: deref(inv.TargetArn),
		roleArn:   deref(inv.RoleArn),
		timeout:   defaultInvocationTimeoutSeconds * time.Second,
		maxBatch:  defaultBatchSize,
		input:     deref(inv.Input),
	}
	if inv.InvocationTimeoutSeconds != nil {
		s.timeout = time.Duration(*inv.InvocationTimeoutSeconds) * time.Second
	}
	if inv.MaxBatchSize != nil {
		s.maxBatch = int(*inv.MaxBatchSize)
	}
	if !validTarget(s.targetArn) {
		return s, invalidParameter("InvokeConfiguration.TargetArn", fmt.Sprintf("%s is neither an ARN (arn:aws:<service>:<region>:<account>:<resource>) nor an http(s) URL.", s.targetArn))
	}
	if s.roleArn != "" && !isRoleARN(s.roleArn) {
		return s, invalidParameter("InvokeConfiguration.RoleArn", fmt.Sprintf("%s is not an IAM role ARN (arn:aws:iam::<account>:role/<name>).", s.roleArn))
	}
	if inv.Input != nil && inv.Transformer != nil {
		return s, awsjson.Validation("Only one of Input or Transformer may be provided in InvokeConfiguration.")
	}
	if inv.Input != nil && !validJSONPath(s.input) {
		return s, invalidParameter("InvokeConfiguration.Input", fmt.Sprintf("%s is not a JSONPath such as $.detail.", s.input))
	}
	if t := inv.Transformer; t != nil {
		tr := &transform.Transformer{PathsMap: t.InputPathsMap, Template: deref(t.InputTemplate)}
		for key, path := range tr.PathsMap {
			if !validJSONPath(path) {
				return s, invalidParameter("InvokeConfiguration.Transformer.InputPathsMap", fmt.Sprintf("the path %q of %s is not a JSONPath such as $.detail.", path, key))
			}
		}
		if err := transform.Validate(transform.Spec{Transformer: tr}, s.targetArn); err != nil {
			return s, awsjson.Validation("%s", err.Error())
		}
		s.transformer = tr
	}
	return s, nil
}

// validTarget accepts an ARN or an http(s) URL (a GridBridge extension for
// plain HTTP endpoints).
func validTarget(s string) bool {
	if _, ok := splitARN(s); ok {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// compileFilters parses every pattern; the first bad one is the answer.
func compileFilters(fc *filterConfigurationShape) ([]compiledFilter, error) {
	out := make([]compiledFilter, 0, len(fc.Filters))
	for _, f := range fc.Filters {
		p, err := pattern.Parse(*f.Pattern)
		if err != nil {
			var bad *pattern.InvalidPatternError
			if errors.As(err, &bad) {
				return nil, awsjson.NewError(awsjson.CodeInvalidEventPattern, bad.Message)
			}
			return nil, awsjson.NewError(awsjson.CodeInvalidEventPattern, "Event pattern is not valid. Reason: "+err.Error())
		}
		out = append(out, compiledFilter{scope: *f.Scope, source: *f.Pattern, pattern: p})
	}
	return out, nil
}
