package pipes

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/arn"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/sqssend"
	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
)

// The model's limits (Smithy length, range and pattern traits) and the
// defaults AWS applies.
const (
	maxNameLength          = 64
	maxDescriptionLength   = 512
	maxArnLength           = 1600
	maxKmsKeyLength        = 2048
	maxTags                = 50
	maxTagKeyLength        = 128
	maxTagValueLength      = 256
	maxFilters             = 5
	maxPatternLength       = 4096
	maxInputTemplateLength = 8192
	maxBatchSize           = 10000
	maxBatchingWindow      = 300
	maxHTTPParameterLength = 512
	maxGroupIDLength       = 100
	maxDetailTypeLength    = 128
	maxBusSourceLength     = 256
	maxEndpointIDLength    = 50
	maxBusResources        = 10
	maxJSONPathLength      = 256
	// defaultSQSBatchSize is BatchSize when an SQS source gives none.
	defaultSQSBatchSize = 10
	// maxPipes is the pipes an account may have in a Region.
	maxPipes = 1000
)

// The model's patterns, anchored: Smithy patterns match the whole value.
var (
	namePattern       = regexp.MustCompile(`^[\.\-_A-Za-z0-9]+$`)
	arnPattern        = regexp.MustCompile(`^arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-]+):([a-z]{2,4}((-gov)|(-de)|(-iso([a-z]?)))?-[a-z]+(-\d{1})?)?:(\d{12})?:(.+)$`)
	smkPattern        = regexp.MustCompile(`^smk://(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]):[0-9]{1,5}$`)
	roleArnPattern    = regexp.MustCompile(`^arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role/?[a-zA-Z0-9+=,.@\-_/]+$`)
	kmsKeyPattern     = regexp.MustCompile(`^[a-zA-Z0-9_\-/:]*$`)
	jsonPathPattern   = regexp.MustCompile(`^\$(\.[\w/_-]+(\[(\d+|\*)\])*)*$`)
	endpointIDPattern = regexp.MustCompile(`^[A-Za-z0-9\-]+[\.][A-Za-z0-9\-]+$`)
	headerKeyPattern  = regexp.MustCompile(`^[!#$%&'*+\-.^_` + "`" + `|~0-9a-zA-Z]+$`)
)

// Model texts, as Coral writes them.
const (
	arnPatternText  = `arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-]+):([a-z]{2,4}((-gov)|(-de)|(-iso([a-z]?)))?-[a-z]+(-\d{1})?)?:(\d{12})?:(.+)`
	rolePatternText = `arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role/?[a-zA-Z0-9+=,.@\-_/]+`
	pathPatternText = `\$(\.[\w/_-]+(\[(\d+|\*)\])*)*`
)

func lengthBetween(lo, hi int) string {
	return fmt.Sprintf("Member must have length between %d and %d", lo, hi)
}

// checkName checks a pipe name (the request's path).
func checkName(name string) *awsjson.Error {
	var v violations
	switch {
	case len(name) < 1 || len(name) > maxNameLength:
		v.add(&name, "name", lengthBetween(1, maxNameLength))
	case !namePattern.MatchString(name):
		v.add(&name, "name", awsjson.Pattern(`[\.\-_A-Za-z0-9]+`))
	}
	return v.err()
}

// checkMembers checks every member constraint of a CreatePipe or
// UpdatePipe body, reporting them all at once as AWS does. create says
// which operation: Source and Target are required by CreatePipe only.
func checkMembers(in *pipeInput, create bool) *awsjson.Error {
	var v violations
	if in.Description != nil && len(*in.Description) > maxDescriptionLength {
		v.addSecret("description", lengthBetween(0, maxDescriptionLength))
	}
	if s := in.DesiredState; s != nil && *s != stateRunning && *s != stateStopped {
		v.add(s, "desiredState", awsjson.Enum(stateRunning, stateStopped))
	}
	switch {
	case create && in.Source == nil:
		v.required("source")
	case in.Source != nil && (len(*in.Source) < 1 || len(*in.Source) > maxArnLength):
		v.add(in.Source, "source", lengthBetween(1, maxArnLength))
	case in.Source != nil && !arnPattern.MatchString(*in.Source) && !smkPattern.MatchString(*in.Source):
		v.add(in.Source, "source", awsjson.Pattern(`smk://(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]):[0-9]{1,5}|`+arnPatternText))
	}
	if e := in.Enrichment; e != nil {
		switch {
		case len(*e) > maxArnLength:
			v.add(e, "enrichment", lengthBetween(0, maxArnLength))
		case *e != "" && !arnPattern.MatchString(*e):
			v.add(e, "enrichment", awsjson.Pattern("$|"+arnPatternText))
		}
	}
	switch {
	case create && in.Target == nil:
		v.required("target")
	case in.Target != nil && (len(*in.Target) < 1 || len(*in.Target) > maxArnLength):
		v.add(in.Target, "target", lengthBetween(1, maxArnLength))
	case in.Target != nil && !arnPattern.MatchString(*in.Target):
		v.add(in.Target, "target", awsjson.Pattern(arnPatternText))
	}
	switch r := in.RoleArn; {
	case r == nil:
		v.required("roleArn")
	case len(*r) < 1 || len(*r) > maxArnLength:
		v.add(r, "roleArn", lengthBetween(1, maxArnLength))
	case !roleArnPattern.MatchString(*r):
		v.add(r, "roleArn", awsjson.Pattern(rolePatternText))
	}
	if in.Tags != nil {
		checkTags(&v, "tags", in.Tags)
	}
	if k := in.KmsKeyIdentifier; k != nil {
		switch {
		case len(*k) > maxKmsKeyLength:
			v.add(k, "kmsKeyIdentifier", lengthBetween(0, maxKmsKeyLength))
		case !kmsKeyPattern.MatchString(*k):
			v.add(k, "kmsKeyIdentifier", awsjson.Pattern(`[a-zA-Z0-9_\-/:]*`))
		}
	}
	checkSourceParameters(&v, in.SourceParameters)
	if p := in.EnrichmentParameters; p != nil {
		checkTemplate(&v, "enrichmentParameters.inputTemplate", p.InputTemplate)
		checkHTTP(&v, "enrichmentParameters.httpParameters", p.HttpParameters)
	}
	checkTargetParameters(&v, in.TargetParameters)
	checkLogConfiguration(&v, in.LogConfiguration)
	return v.err()
}

func checkTags(v *violations, path string, tags map[string]string) {
	if len(tags) < 1 || len(tags) > maxTags {
		v.add(nil, path, lengthBetween(1, maxTags))
		return
	}
	for k, val := range tags {
		if len(k) < 1 || len(k) > maxTagKeyLength {
			v.add(&k, path+".member.key", lengthBetween(1, maxTagKeyLength))
		}
		if len(val) > maxTagValueLength {
			v.addSecret(path+".member.value", lengthBetween(0, maxTagValueLength))
		}
	}
}

func checkSourceParameters(v *violations, p *sourceParameters) {
	if p == nil {
		return
	}
	if fc := p.FilterCriteria; fc != nil {
		if len(fc.Filters) > maxFilters {
			v.add(nil, "sourceParameters.filterCriteria.filters", lengthBetween(0, maxFilters))
		}
		for i, f := range fc.Filters {
			if f.Pattern != nil && len(*f.Pattern) > maxPatternLength {
				v.addSecret(fmt.Sprintf("sourceParameters.filterCriteria.filters.%d.member.pattern", i+1), lengthBetween(0, maxPatternLength))
			}
		}
	}
	if q := p.SqsQueueParameters; q != nil {
		checkRange(v, "sourceParameters.sqsQueueParameters.batchSize", q.BatchSize, 1, maxBatchSize)
		checkRange(v, "sourceParameters.sqsQueueParameters.maximumBatchingWindowInSeconds", q.MaximumBatchingWindowInSeconds, 0, maxBatchingWindow)
	}
}

func checkRange(v *violations, path string, n *int32, lo, hi int) {
	if n == nil {
		return
	}
	shown := strconv.Itoa(int(*n))
	switch {
	case int(*n) < lo:
		v.add(&shown, path, awsjson.MinValue(lo))
	case int(*n) > hi:
		v.add(&shown, path, awsjson.MaxValue(hi))
	}
}

func checkTemplate(v *violations, path string, tpl *string) {
	if tpl != nil && len(*tpl) > maxInputTemplateLength {
		v.addSecret(path, lengthBetween(0, maxInputTemplateLength))
	}
}

func checkHTTP(v *violations, path string, p *httpParameters) {
	if p == nil {
		return
	}
	for i, s := range p.PathParameterValues {
		if strings.TrimSpace(s) == "" {
			v.addSecret(fmt.Sprintf("%s.pathParameterValues.%d.member", path, i+1), awsjson.Pattern(`(?!\s*$).+|`+pathPatternText))
		}
	}
	for k, val := range p.HeaderParameters {
		if len(k) > maxHTTPParameterLength || !headerKeyPattern.MatchString(k) && !jsonPathPattern.MatchString(k) {
			v.add(&k, path+".headerParameters.member.key", awsjson.Pattern(`[!#$%&'*+-.^_`+"`"+`|~0-9a-zA-Z]+|`+pathPatternText))
		}
		if len(val) > maxHTTPParameterLength || strings.ContainsAny(val, "\r\n\x00") {
			v.addSecret(path+".headerParameters.member.value", awsjson.Pattern(`[ \t]*[\x20-\x7E]+([ \t]+[\x20-\x7E]+)*[ \t]*|`+pathPatternText))
		}
	}
	for k, val := range p.QueryStringParameters {
		if len(k) > maxHTTPParameterLength || k == "" {
			v.add(&k, path+".queryStringParameters.member.key", lengthBetween(1, maxHTTPParameterLength))
		}
		if len(val) > maxHTTPParameterLength {
			v.addSecret(path+".queryStringParameters.member.value", lengthBetween(0, maxHTTPParameterLength))
		}
	}
}

func checkTargetParameters(v *violations, p *targetParameters) {
	if p == nil {
		return
	}
	checkTemplate(v, "targetParameters.inputTemplate", p.InputTemplate)
	checkHTTP(v, "targetParameters.httpParameters", p.HttpParameters)
	for path, ip := range map[string]*invocationParameters{
		"targetParameters.lambdaFunctionParameters.invocationType":           p.LambdaFunctionParameters,
		"targetParameters.stepFunctionStateMachineParameters.invocationType": p.StepFunctionStateMachineParameters,
	} {
		if ip != nil && ip.InvocationType != nil && *ip.InvocationType != "REQUEST_RESPONSE" && *ip.InvocationType != "FIRE_AND_FORGET" {
			v.add(ip.InvocationType, path, awsjson.Enum("REQUEST_RESPONSE", "FIRE_AND_FORGET"))
		}
	}
	if q := p.SqsQueueParameters; q != nil {
		if q.MessageGroupId != nil && len(*q.MessageGroupId) > maxGroupIDLength {
			v.addSecret("targetParameters.sqsQueueParameters.messageGroupId", lengthBetween(0, maxGroupIDLength))
		}
		if q.MessageDeduplicationId != nil && len(*q.MessageDeduplicationId) > maxGroupIDLength {
			v.addSecret("targetParameters.sqsQueueParameters.messageDeduplicationId", lengthBetween(0, maxGroupIDLength))
		}
	}
	if b := p.EventBridgeEventBusParameters; b != nil {
		const at = "targetParameters.eventBridgeEventBusParameters."
		if e := b.EndpointId; e != nil && (len(*e) < 1 || len(*e) > maxEndpointIDLength || !endpointIDPattern.MatchString(*e)) {
			v.addSecret(at+"endpointId", awsjson.Pattern(`[A-Za-z0-9\-]+[\.][A-Za-z0-9\-]+`))
		}
		if d := b.DetailType; d != nil && (len(*d) < 1 || len(*d) > maxDetailTypeLength) {
			v.addSecret(at+"detailType", lengthBetween(1, maxDetailTypeLength))
		}
		if s := b.Source; s != nil && !validBusSource(*s) {
			v.addSecret(at+"source", awsjson.Pattern(`.*(?=[/\.\-_A-Za-z0-9]+)((?!aws\.).*)|`+pathPatternText+`.*`))
		}
		if len(b.Resources) > maxBusResources {
			v.add(nil, at+"resources", lengthBetween(0, maxBusResources))
		}
		for i, r := range b.Resources {
			if !arnPattern.MatchString(r) && !jsonPathPattern.MatchString(r) {
				v.add(&r, fmt.Sprintf("%sresources.%d.member", at, i+1), awsjson.Pattern(arnPatternText+"|("+pathPatternText+")"))
			}
		}
		if t := b.Time; t != nil && (len(*t) < 1 || len(*t) > maxJSONPathLength || !jsonPathPattern.MatchString(*t)) {
			v.add(t, at+"time", awsjson.Pattern(pathPatternText))
		}
	}
}

// validBusSource is the model's pattern for an event's source, which RE2
// cannot compile (it looks ahead): 1 to 256 characters, at least one of
// them a letter, digit or one of /._-, not starting with "aws.", unless it
// is a JSON path.
func validBusSource(s string) bool {
	if len(s) < 1 || len(s) > maxBusSourceLength {
		return false
	}
	if strings.HasPrefix(s, "$") {
		return true
	}
	return !strings.HasPrefix(s, "aws.") && strings.ContainsFunc(s, func(r rune) bool {
		return r == '/' || r == '.' || r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	})
}

// logLevels is the LogLevel enum.
var logLevels = []string{"OFF", "ERROR", "INFO", "TRACE"}

func checkLogConfiguration(v *violations, raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var lc struct {
		Level *string `json:"Level"`
	}
	_ = json.Unmarshal(raw, &lc) // its shape was checked when the body was read
	switch {
	case lc.Level == nil:
		v.required("logConfiguration.level")
	case !contains(logLevels, *lc.Level):
		v.add(lc.Level, "logConfiguration.level", awsjson.Enum(logLevels...))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// settings is a pipe's validated configuration: what DescribePipe shows
// (in, with AWS's defaults filled in) and what the pipe runs on.
type settings struct {
	in        pipeInput
	source    sourceKind
	batchSize int
	window    time.Duration
	// filters are FilterCriteria's patterns, OR-ed; nil: none.
	filters    *pattern.Matcher
	enrichment *step // nil: none
	target     step
}

// step is an enrichment or a target: what it invokes and how.
type step struct {
	kind stepKind
	arn  string
	a    arn.ARN
}

// validate checks a pipe's whole configuration as AWS does once each
// member has passed its own constraints (checkMembers), and fills in the
// defaults. key is the pipe's account and Region.
func validate(in pipeInput, key tenantKey) (settings, *awsjson.Error) {
	st := settings{in: in}
	kind, ok := sourceKindOf(*in.Source)
	if !ok {
		return st, validation("Source %s is not a resource EventBridge Pipes can read: use an Amazon SQS queue, a Kinesis or DynamoDB stream, an Amazon MQ broker, an Amazon MSK cluster or a self-managed Apache Kafka cluster (smk://).", *in.Source)
	}
	st.source = kind
	if err := checkSourceParametersFit(kind, in.SourceParameters); err != nil {
		return st, err
	}
	if kind == sourceSQS {
		st.batchSize, st.window = defaultSQSBatchSize, 0
		sp := in.SourceParameters
		if sp == nil {
			sp = &sourceParameters{}
		}
		q := sqsQueueParameters{}
		if sp.SqsQueueParameters != nil {
			q = *sp.SqsQueueParameters
		}
		if q.BatchSize == nil {
			q.BatchSize = ptr(int32(defaultSQSBatchSize))
		}
		if q.MaximumBatchingWindowInSeconds == nil {
			q.MaximumBatchingWindowInSeconds = ptr(int32(0))
		}
		st.batchSize = int(*q.BatchSize)
		st.window = time.Duration(*q.MaximumBatchingWindowInSeconds) * time.Second
		cp := *sp
		cp.SqsQueueParameters = &q
		st.in.SourceParameters = &cp
	}
	if sp := in.SourceParameters; sp != nil && sp.FilterCriteria != nil {
		for i, f := range sp.FilterCriteria.Filters {
			text := ""
			if f.Pattern != nil {
				text = *f.Pattern
			}
			p, err := pattern.Parse(text)
			if err != nil {
				return st, validation("Invalid filter pattern definition in FilterCriteria.Filters[%d]: %s", i, err.Error())
			}
			if st.filters == nil {
				st.filters = pattern.NewMatcher()
			}
			st.filters.Add(strconv.Itoa(i), p)
		}
	}
	if e := in.Enrichment; e != nil && *e != "" {
		a, _ := arn.Parse(*e)
		k, ok := enrichmentKindOf(a)
		if !ok {
			return st, validation("Enrichment %s is not a resource EventBridge Pipes can enrich with: use an API destination, an API Gateway REST API, a Lambda function or a Step Functions state machine.", *e)
		}
		st.enrichment = &step{kind: k, arn: *e, a: a}
	} else {
		st.in.Enrichment = nil
	}
	ta, _ := arn.Parse(*in.Target)
	tk, ok := targetKindOf(ta)
	if !ok {
		return st, validation("Target %s is not a resource EventBridge Pipes can send to.", *in.Target)
	}
	st.target = step{kind: tk, arn: *in.Target, a: ta}
	return st, checkTarget(st, key)
}

// checkSourceParametersFit refuses parameters of another kind of source.
func checkSourceParametersFit(kind sourceKind, p *sourceParameters) *awsjson.Error {
	if p == nil {
		return nil
	}
	given := map[sourceKind]bool{
		sourceSQS:              p.SqsQueueParameters != nil,
		sourceKinesis:          len(p.KinesisStreamParameters) > 0,
		sourceDynamoDB:         len(p.DynamoDBStreamParameters) > 0,
		sourceMQ:               len(p.ActiveMQBrokerParameters) > 0 || len(p.RabbitMQBrokerParameters) > 0,
		sourceMSK:              len(p.ManagedStreamingKafkaParameters) > 0,
		sourceSelfManagedKafka: len(p.SelfManagedKafkaParameters) > 0,
	}
	for k, set := range given {
		if set && k != kind {
			return validation("SourceParameters.%s cannot be used with a %s source.", sourceNames[k].member, sourceNames[kind].service)
		}
	}
	return nil
}

// checkTarget checks what a target needs: an event bus of the pipe's own
// account and Region, a FIFO queue's message group, and a batch no larger
// than the target takes.
func checkTarget(st settings, key tenantKey) *awsjson.Error {
	t := st.target
	tp := st.in.TargetParameters
	switch t.kind {
	case stepEventBus:
		if t.a.AccountID != key.account || t.a.Region != key.region {
			return validation("The event bus %s must be in the pipe's account (%s) and Region (%s).", t.arn, key.account, key.region)
		}
	case stepSQS:
		if sqssend.IsFIFO(t.arn) && (tp == nil || tp.SqsQueueParameters == nil || tp.SqsQueueParameters.MessageGroupId == nil || *tp.SqsQueueParameters.MessageGroupId == "") {
			return validation("TargetParameters.SqsQueueParameters.MessageGroupId is required for the FIFO queue %s.", t.arn)
		}
	}
	if most := maxTargetBatch(t.kind, t.a); most > 1 && st.batchSize > most {
		return validation("The batch size of the source (%d) is larger than the target %s takes in one invocation (%d).", st.batchSize, t.arn, most)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
