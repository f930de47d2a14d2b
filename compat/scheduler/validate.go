package scheduler

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/retry"
)

// settings is a schedule's validated configuration.
type settings struct {
	in    scheduleInput // as given, with defaults filled in
	expr  expression
	win   window
	kind  targetKind
	retry retryLimits
}

type retryLimits struct{ maxAttempts, maxAgeSeconds int32 }

var namePattern = regexp.MustCompile(`^[0-9a-zA-Z\-_.]+$`)

// AWS's limits on a schedule's members.
const (
	maxNameLength        = 64
	maxExpressionLength  = 256
	maxDescriptionLength = 512
	maxInputLength       = 8192
	maxWindowMinutes     = 1440
	// startDateGrace is how far in the past a StartDate may be.
	startDateGrace = 5 * time.Minute
)

func checkName(member, v string) *awsjson.Error {
	if len(v) < 1 || len(v) > maxNameLength {
		return validation("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must have length between 1 and %d", v, member, maxNameLength)
	}
	if !namePattern.MatchString(v) {
		return validation("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-zA-Z-_.]+", v, member)
	}
	return nil
}

// validateSchedule checks a CreateSchedule or UpdateSchedule body as AWS
// does and fills in the defaults GetSchedule reports.
func validateSchedule(in scheduleInput, now time.Time) (settings, *awsjson.Error) {
	st := settings{in: in}
	switch {
	case in.FlexibleTimeWindow == nil:
		return st, required("flexibleTimeWindow")
	case in.ScheduleExpression == nil:
		return st, required("scheduleExpression")
	case in.Target == nil:
		return st, required("target")
	case in.Target.Arn == nil:
		return st, required("target.arn")
	case in.Target.RoleArn == nil:
		return st, required("target.roleArn")
	}
	expr := *in.ScheduleExpression
	if len(expr) < 1 || len(expr) > maxExpressionLength {
		return st, validation("1 validation error detected: Value at 'scheduleExpression' failed to satisfy constraint: Member must have length between 1 and %d", maxExpressionLength)
	}
	if in.Description != nil && len(*in.Description) > maxDescriptionLength {
		return st, validation("1 validation error detected: Value at 'description' failed to satisfy constraint: Member must have length less than or equal to %d", maxDescriptionLength)
	}
	zone := deref(in.ScheduleExpressionTimezone)
	e, err := parseExpression(expr, zone)
	if err != nil {
		return st, err
	}
	st.expr = e
	if zone == "" {
		st.in.ScheduleExpressionTimezone = strPtr("UTC")
	}

	if err := checkWindow(in.FlexibleTimeWindow); err != nil {
		return st, err
	}
	if err := checkEnum(&st.in.State, "state", "ENABLED", "DISABLED"); err != nil {
		return st, err
	}
	if err := checkEnum(&st.in.ActionAfterCompletion, "actionAfterCompletion", "NONE", "DELETE"); err != nil {
		return st, err
	}

	if in.StartDate != nil {
		st.win.start = in.StartDate.Time
		if !e.oneTime() && st.win.start.Before(now.Add(-startDateGrace)) {
			return st, validation("The StartDate you specify cannot be earlier than 5 minutes ago.")
		}
	}
	if in.EndDate != nil {
		st.win.end = in.EndDate.Time
		if !e.oneTime() && !st.win.end.After(now) {
			return st, validation("The EndDate you specify cannot be earlier than the current time.")
		}
		if !st.win.start.IsZero() && !st.win.end.After(st.win.start) {
			return st, validation("The EndDate must be later than the StartDate.")
		}
	}
	if e.oneTime() {
		// One-time schedules ignore StartDate and EndDate.
		st.win = window{}
	}

	kind, err := checkTarget(in.Target)
	if err != nil {
		return st, err
	}
	st.kind = kind
	lim, err := checkRetry(in.Target.RetryPolicy)
	if err != nil {
		return st, err
	}
	st.retry = lim
	st.in.Target.RetryPolicy = &awsjson.RetryPolicy{MaximumEventAgeInSeconds: &lim.maxAgeSeconds, MaximumRetryAttempts: &lim.maxAttempts}
	return st, nil
}

func checkWindow(w *flexibleTimeWindow) *awsjson.Error {
	switch w.Mode {
	case "OFF":
		if w.MaximumWindowInMinutes != nil {
			return validation("MaximumWindowInMinutes can only be specified when the FlexibleTimeWindow Mode is FLEXIBLE.")
		}
	case "FLEXIBLE":
		if w.MaximumWindowInMinutes == nil {
			return validation("MaximumWindowInMinutes must be specified when the FlexibleTimeWindow Mode is FLEXIBLE.")
		}
		if m := *w.MaximumWindowInMinutes; m < 1 || m > maxWindowMinutes {
			return validation("1 validation error detected: Value '%d' at 'flexibleTimeWindow.maximumWindowInMinutes' failed to satisfy constraint: Member must have value between 1 and %d", m, maxWindowMinutes)
		}
	case "":
		return required("flexibleTimeWindow.mode")
	default:
		return enumViolation(w.Mode, "flexibleTimeWindow.mode", "OFF", "FLEXIBLE")
	}
	return nil
}

// checkEnum checks an enum member: one of allowed, or absent ("") and then
// set to allowed[0], the default.
func checkEnum(v *string, member string, allowed ...string) *awsjson.Error {
	if *v == "" {
		*v = allowed[0]
		return nil
	}
	if !slices.Contains(allowed, *v) {
		return enumViolation(*v, member, allowed...)
	}
	return nil
}

// enumViolation is the ValidationException for a value of member that is
// not one of allowed.
func enumViolation(v, member string, allowed ...string) *awsjson.Error {
	return validation("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]", v, member, strings.Join(allowed, ", "))
}

var (
	sqsArnPattern  = regexp.MustCompile(`^arn:aws(-[a-z]+)?:sqs:[a-z0-9\-]+:\d{12}:[a-zA-Z0-9\-_]+(\.fifo)?$`)
	roleArnPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)?:iam::\d{12}:role/[\w+=,.@/-]+$`)
)

func checkTarget(t *targetShape) (targetKind, *awsjson.Error) {
	arn := *t.Arn
	if len(arn) < 1 || len(arn) > 1600 {
		return 0, validation("1 validation error detected: Value at 'target.arn' failed to satisfy constraint: Member must have length between 1 and 1600")
	}
	if !roleArnPattern.MatchString(*t.RoleArn) {
		return 0, validation("1 validation error detected: Value '%s' at 'target.roleArn' failed to satisfy constraint: Member must satisfy regular expression pattern: ^arn:aws(-[a-z]+)?:iam::\\d{12}:role\\/[\\w+=,.@\\/-]+$", *t.RoleArn)
	}
	if t.Input != nil && (len(*t.Input) < 1 || len(*t.Input) > maxInputLength) {
		return 0, validation("1 validation error detected: Value at 'target.input' failed to satisfy constraint: Member must have length between 1 and %d", maxInputLength)
	}
	if d := t.DeadLetterConfig; d != nil && d.Arn != nil {
		if !sqsArnPattern.MatchString(*d.Arn) {
			return 0, validation("1 validation error detected: Value '%s' at 'target.deadLetterConfig.arn' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:aws(-[a-z]+)?:sqs:[a-z0-9\\-]+:\\d{12}:[a-zA-Z0-9\\-_]+", *d.Arn)
		}
		if strings.HasSuffix(*d.Arn, ".fifo") {
			return 0, validation("EventBridge Scheduler does not support a FIFO queue as a dead-letter queue: %s.", *d.Arn)
		}
	}
	kind, ok := kindOf(arn)
	if !ok {
		return 0, validation("Invalid target ARN %s.", arn)
	}
	switch kind {
	case targetSQS:
		if !sqsArnPattern.MatchString(arn) {
			return 0, validation("Invalid target ARN %s.", arn)
		}
		if strings.HasSuffix(arn, ".fifo") && t.MessageGroup() == "" {
			return 0, validation("SqsParameters.MessageGroupId is required for the FIFO queue %s.", arn)
		}
	case targetEventBus:
		p := t.EventBridgeParameters
		if p == nil {
			return 0, validation("EventBridgeParameters are required for the event bus target %s.", arn)
		}
		if deref(p.DetailType) == "" {
			return 0, required("target.eventBridgeParameters.detailType")
		}
		if deref(p.Source) == "" {
			return 0, required("target.eventBridgeParameters.source")
		}
	case targetAPIDestination:
		return 0, validation("EventBridge Scheduler does not support the API destination %s as a target; target an event bus whose rule calls it.", arn)
	}
	return kind, nil
}

func checkRetry(p *awsjson.RetryPolicy) (retryLimits, *awsjson.Error) {
	lim := retryLimits{maxAttempts: retry.DefaultMaximumRetryAttempts, maxAgeSeconds: retry.DefaultMaximumEventAgeInSeconds}
	if p == nil {
		return lim, nil
	}
	if v := p.MaximumEventAgeInSeconds; v != nil {
		if *v < retry.MinMaximumEventAgeInSeconds || *v > retry.MaxMaximumEventAgeInSeconds {
			return lim, validation("1 validation error detected: Value '%d' at 'target.retryPolicy.maximumEventAgeInSeconds' failed to satisfy constraint: Member must have value between %d and %d",
				*v, retry.MinMaximumEventAgeInSeconds, retry.MaxMaximumEventAgeInSeconds)
		}
		lim.maxAgeSeconds = *v
	}
	if v := p.MaximumRetryAttempts; v != nil {
		if *v < 0 || *v > retry.MaxMaximumRetryAttempts {
			return lim, validation("1 validation error detected: Value '%d' at 'target.retryPolicy.maximumRetryAttempts' failed to satisfy constraint: Member must have value between 0 and %d",
				*v, retry.MaxMaximumRetryAttempts)
		}
		lim.maxAttempts = *v
	}
	return lim, nil
}

func strPtr(s string) *string { return &s }
