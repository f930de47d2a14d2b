package eventsv2

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

// Requests are checked the way AWS does: first every member constraint at
// once, in Coral's "N validation errors detected: …" form with lower-camel
// paths; then the rules between members, one sentence each; then the event
// patterns (InvalidEventPatternException).

const namePattern = `[\.\-_A-Za-z0-9]+`

// Compiled once and never changed; regexp values are safe for concurrent use.
var (
	nameSyntax = regexp.MustCompile(`^` + namePattern + `$`)
	// jsonPathSyntax is the JSONPath subset Input and InputPathsMap accept:
	// $, $.a.b, $.detail-type, $.resources[0], $['a b'].
	jsonPathSyntax = regexp.MustCompile(`^\$(\.[^.\[\]]+|\[[0-9]+\]|\['[^']*'\]|\["[^"]*"\])*$`)
)

func matchesName(s string) bool { return nameSyntax.MatchString(s) }

func validJSONPath(s string) bool { return jsonPathSyntax.MatchString(s) }

func invalidParameter(member, reason string) error {
	return awsjson.Validation("Parameter %s is not valid. Reason: %s", member, reason)
}

// checkName adds the violations of a resource name.
func checkName(v *awsjson.Violations, value *string, path string, maxLen int) {
	switch {
	case value == nil:
		v.Required(path)
	case len(*value) < 1:
		v.Add(value, path, awsjson.MinLength(1))
	case len(*value) > maxLen:
		v.Add(value, path, awsjson.MaxLength(maxLen))
	case !matchesName(*value):
		v.Add(value, path, awsjson.Pattern(namePattern))
	}
}

func checkLength(v *awsjson.Violations, value *string, path string, minLen, maxLen int) {
	if value == nil {
		return
	}
	if len(*value) < minLen {
		v.Add(value, path, awsjson.MinLength(minLen))
	} else if len(*value) > maxLen {
		v.Add(value, path, awsjson.MaxLength(maxLen))
	}
}

func checkRange(v *awsjson.Violations, value *int32, path string, lo, hi int) {
	if value == nil {
		return
	}
	shown := strconv.Itoa(int(*value))
	if int(*value) < lo {
		v.Add(&shown, path, awsjson.MinValue(lo))
	} else if int(*value) > hi {
		v.Add(&shown, path, awsjson.MaxValue(hi))
	}
}

func checkEnum(v *awsjson.Violations, value *string, path string, allowed ...string) {
	if value == nil {
		return
	}
	for _, a := range allowed {
		if *value == a {
			return
		}
	}
	v.Add(value, path, awsjson.Enum(allowed...))
}

func checkPointInTime(v *awsjson.Violations, p *pointInTimeShape) {
	if p == nil {
		return
	}
	awsjson.Require(v, p.PointType, "pointInTimeConfiguration.pointType")
	checkEnum(v, p.PointType, "pointInTimeConfiguration.pointType", PointTypeTimestamp)
	awsjson.Require(v, p.StartingPoint, "pointInTimeConfiguration.startingPoint")
}

func checkFilters(v *awsjson.Violations, fc *filterConfigurationShape) {
	if fc == nil {
		return
	}
	switch {
	case fc.Filters == nil:
		v.Required("filterConfiguration.filters")
		return
	case len(fc.Filters) < 1:
		v.Add(ptr("[]"), "filterConfiguration.filters", awsjson.MinLength(1))
	case len(fc.Filters) > maxFilters:
		v.Add(ptr(fmt.Sprintf("[%d filters]", len(fc.Filters))), "filterConfiguration.filters", awsjson.MaxLength(maxFilters))
	}
	for i, f := range fc.Filters {
		path := fmt.Sprintf("filterConfiguration.filters.%d.member", i+1)
		if f.Scope == nil {
			v.Required(path + ".scope")
		}
		checkEnum(v, f.Scope, path+".scope", ScopeEvent, ScopeSystemMetadata)
		if f.Pattern == nil {
			v.Required(path + ".pattern")
		}
		checkLength(v, f.Pattern, path+".pattern", 1, maxPatternLength)
	}
}

func checkInvoke(v *awsjson.Violations, inv *invokeConfigurationShape) {
	if inv == nil {
		return
	}
	awsjson.Require(v, inv.TargetArn, "invokeConfiguration.targetArn")
	checkLength(v, inv.TargetArn, "invokeConfiguration.targetArn", 1, maxTargetArnLen)
	checkLength(v, inv.RoleArn, "invokeConfiguration.roleArn", 1, maxTargetArnLen)
	checkRange(v, inv.InvocationTimeoutSeconds, "invokeConfiguration.invocationTimeoutSeconds", minInvocationTimeoutSeconds, maxInvocationTimeoutSeconds)
	checkRange(v, inv.MaxBatchSize, "invokeConfiguration.maxBatchSize", minBatchSize, maxBatchSize)
	checkLength(v, inv.Input, "invokeConfiguration.input", 1, maxInputPathLen)
	if t := inv.Transformer; t != nil {
		awsjson.Require(v, t.InputTemplate, "invokeConfiguration.transformer.inputTemplate")
		checkLength(v, t.InputTemplate, "invokeConfiguration.transformer.inputTemplate", 1, maxTemplateLen)
		if len(t.InputPathsMap) > maxPathsMapSize {
			v.Add(ptr(fmt.Sprintf("{%d entries}", len(t.InputPathsMap))), "invokeConfiguration.transformer.inputPathsMap", awsjson.MaxLength(maxPathsMapSize))
		}
	}
}

func checkRetry(v *awsjson.Violations, r *retryPolicyShape) {
	if r == nil {
		return
	}
	checkRange(v, r.MaxRetryAttempts, "retryPolicy.maxRetryAttempts", minRetryAttempts, maxRetryAttempts)
	checkRange(v, r.MaxEventAgeInSeconds, "retryPolicy.maxEventAgeInSeconds", minEventAgeSeconds, maxEventAgeSeconds)
}

func checkOnFailure(v *awsjson.Violations, o *awsjson.DeadLetterConfig) {
	if o == nil {
		return
	}
	checkLength(v, o.Arn, "onFailureConfiguration.arn", 0, maxTargetArnLen)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
