package sqs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits and defaults of SQS queues (Amazon SQS Developer Guide, quotas).
const (
	maxMessageSize       = 1 << 20 // 1 MiB, a message and a whole batch
	defaultVisibility    = 30 * time.Second
	maxVisibility        = 12 * time.Hour
	defaultRetention     = 4 * 24 * time.Hour
	minRetention         = time.Minute
	maxRetention         = 14 * 24 * time.Hour
	maxDelay             = 15 * time.Minute
	maxWait              = 20 * time.Second
	dedupInterval        = 5 * time.Minute
	maxBatchEntries      = 10
	maxReceiveMessages   = 10
	maxQueueNameLength   = 80
	fifoSuffix           = ".fifo"
	maxRedriveReceiveMax = 1000
)

// queueConfig is a queue's settable attributes, parsed.
type queueConfig struct {
	delay        time.Duration
	maxSize      int
	retention    time.Duration
	visibility   time.Duration
	receiveWait  time.Duration
	fifo         bool
	contentDedup bool
	// arn is the queue's own ARN, which its RedrivePolicy may not name.
	arn     string
	redrive *redrivePolicy
	// raw keeps every attribute as given (Policy, RedriveAllowPolicy, KMS
	// settings, ...) so GetQueueAttributes answers what was set.
	raw map[string]string
}

// redrivePolicy is RedrivePolicy: after maxReceiveCount receives a message
// moves to the queue deadLetterTargetArn.
type redrivePolicy struct {
	DeadLetterTargetArn string `json:"deadLetterTargetArn"`
	MaxReceiveCount     int    `json:"maxReceiveCount"`
}

func defaultConfig(k queueKey) queueConfig {
	c := queueConfig{
		maxSize: maxMessageSize, retention: defaultRetention, visibility: defaultVisibility,
		fifo: k.fifo(), arn: k.arn(), raw: map[string]string{},
	}
	return c
}

// settable lists the attributes CreateQueue and SetQueueAttributes accept;
// fifoOnly ones are refused on a standard queue.
var settable = map[string]bool{
	"DelaySeconds": true, "MaximumMessageSize": true, "MessageRetentionPeriod": true, "Policy": true,
	"ReceiveMessageWaitTimeSeconds": true, "VisibilityTimeout": true, "RedrivePolicy": true,
	"RedriveAllowPolicy": true, "KmsMasterKeyId": true, "KmsDataKeyReusePeriodSeconds": true,
	"SqsManagedSseEnabled": true, "FifoQueue": true, "ContentBasedDeduplication": true,
	"DeduplicationScope": true, "FifoThroughputLimit": true,
}

var fifoOnly = map[string]bool{"ContentBasedDeduplication": true, "DeduplicationScope": true, "FifoThroughputLimit": true}

// apply validates attrs and sets them on c. create is true for CreateQueue,
// where FifoQueue may be given; SetQueueAttributes cannot change it.
func (c *queueConfig) apply(attrs map[string]string, create bool) error {
	next := *c
	next.raw = make(map[string]string, len(c.raw)+len(attrs))
	for k, v := range c.raw {
		next.raw[k] = v
	}
	for name, value := range attrs {
		if !settable[name] {
			return errInvalidAttributeName(name)
		}
		if fifoOnly[name] && !next.fifo && !(create && attrs["FifoQueue"] == "true") {
			return errInvalidAttributeName(name)
		}
		var err error
		switch name {
		case "DelaySeconds":
			next.delay, err = seconds(name, value, 0, maxDelay)
		case "MaximumMessageSize":
			var n int
			n, err = intAttr(name, value, 1024, maxMessageSize)
			next.maxSize = n
		case "MessageRetentionPeriod":
			next.retention, err = seconds(name, value, minRetention, maxRetention)
		case "VisibilityTimeout":
			next.visibility, err = seconds(name, value, 0, maxVisibility)
		case "ReceiveMessageWaitTimeSeconds":
			next.receiveWait, err = seconds(name, value, 0, maxWait)
		case "FifoQueue":
			if !create {
				return errInvalidAttributeName(name)
			}
			if value != "true" && value != "false" {
				return errInvalidAttributeValue("Invalid value for the parameter FifoQueue.")
			}
			if (value == "true") != next.fifo {
				return errInvalidParameter("The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.")
			}
		case "ContentBasedDeduplication":
			if value != "true" && value != "false" {
				return errInvalidAttributeValue("Invalid value for the parameter ContentBasedDeduplication.")
			}
			next.contentDedup = value == "true"
		case "RedrivePolicy":
			if value == "" {
				next.redrive = nil
				break
			}
			if next.redrive, err = parseRedrive(value); err == nil {
				err = next.checkDeadLetterTarget(value)
			}
		}
		if err != nil {
			return err
		}
		if value == "" {
			delete(next.raw, name)
		} else {
			next.raw[name] = value
		}
	}
	*c = next
	return nil
}

func parseRedrive(value string) (*redrivePolicy, error) {
	// maxReceiveCount arrives as a number or a string; both are accepted.
	var raw struct {
		DeadLetterTargetArn string          `json:"deadLetterTargetArn"`
		MaxReceiveCount     json.RawMessage `json:"maxReceiveCount"`
	}
	if err := json.Unmarshal([]byte(value), &raw); err != nil {
		return nil, errInvalidParameter("Value %s for parameter RedrivePolicy is invalid. Reason: Invalid value for the parameter RedrivePolicy.", value)
	}
	n, err := strconv.Atoi(strings.Trim(string(raw.MaxReceiveCount), `"`))
	if err != nil || n < 1 || n > maxRedriveReceiveMax {
		return nil, errInvalidParameter("Value %s for parameter RedrivePolicy is invalid. Reason: Invalid value for maxReceiveCount: %s, valid values are from 1 to 1000 both inclusive.", value, raw.MaxReceiveCount)
	}
	if _, err := parseQueueARN(raw.DeadLetterTargetArn); err != nil {
		return nil, errInvalidParameter("Value %s for parameter RedrivePolicy is invalid. Reason: Invalid value for deadLetterTargetArn.", value)
	}
	return &redrivePolicy{DeadLetterTargetArn: raw.DeadLetterTargetArn, MaxReceiveCount: n}, nil
}

// checkDeadLetterTarget applies SQS's rules for the queue a RedrivePolicy
// (given as value) names: of the same type as this queue, FIFO or standard,
// and not this queue itself.
func (c *queueConfig) checkDeadLetterTarget(value string) error {
	target := c.redrive.DeadLetterTargetArn
	if target == c.arn {
		return errInvalidParameter("Value %s for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own dead-letter queue.", value)
	}
	if strings.HasSuffix(target, fifoSuffix) != c.fifo {
		return errInvalidParameter("Value %s for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the source..", value)
	}
	return nil
}

func seconds(name, value string, lo, hi time.Duration) (time.Duration, error) {
	n, err := intAttr(name, value, int(lo/time.Second), int(hi/time.Second))
	return time.Duration(n) * time.Second, err
}

func intAttr(name, value string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < lo || n > hi {
		return 0, errInvalidAttributeValue("Invalid value for the parameter %s.", name)
	}
	return n, nil
}

// readable lists every attribute GetQueueAttributes knows, for "All" and to
// reject unknown names.
var readable = []string{
	"Policy", "VisibilityTimeout", "MaximumMessageSize", "MessageRetentionPeriod",
	"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp",
	"LastModifiedTimestamp", "QueueArn", "ApproximateNumberOfMessagesDelayed", "DelaySeconds",
	"ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "FifoQueue", "ContentBasedDeduplication",
	"KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "DeduplicationScope", "FifoThroughputLimit",
	"RedriveAllowPolicy", "SqsManagedSseEnabled",
}

// attributes renders the queue's attributes named in names ("All" for all);
// an unknown name is an error. Attributes with no value are left out.
func (q *Queue) attributes(names []string) (map[string]string, error) {
	want := map[string]bool{}
	for _, n := range names {
		if n == "All" {
			for _, r := range readable {
				want[r] = true
			}
			continue
		}
		if !contains(readable, n) {
			return nil, errInvalidAttributeName(n)
		}
		want[n] = true
	}
	out := map[string]string{}
	if len(want) == 0 {
		return out, nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.store.clock.Now()
	visible, inflight, delayed := q.countsLocked(now)
	c := q.cfg
	all := map[string]string{
		"QueueArn":                              q.arn,
		"ApproximateNumberOfMessages":           strconv.Itoa(visible),
		"ApproximateNumberOfMessagesNotVisible": strconv.Itoa(inflight),
		"ApproximateNumberOfMessagesDelayed":    strconv.Itoa(delayed),
		"CreatedTimestamp":                      strconv.FormatInt(q.created.Unix(), 10),
		"LastModifiedTimestamp":                 strconv.FormatInt(q.modified.Unix(), 10),
		"VisibilityTimeout":                     strconv.Itoa(int(c.visibility / time.Second)),
		"MaximumMessageSize":                    strconv.Itoa(c.maxSize),
		"MessageRetentionPeriod":                strconv.Itoa(int(c.retention / time.Second)),
		"DelaySeconds":                          strconv.Itoa(int(c.delay / time.Second)),
		"ReceiveMessageWaitTimeSeconds":         strconv.Itoa(int(c.receiveWait / time.Second)),
		"SqsManagedSseEnabled":                  "true",
	}
	if c.fifo {
		all["FifoQueue"] = "true"
		all["ContentBasedDeduplication"] = strconv.FormatBool(c.contentDedup)
		all["DeduplicationScope"] = "queue"
		all["FifoThroughputLimit"] = "perQueue"
	}
	for k, v := range c.raw {
		switch k {
		case "Policy", "RedriveAllowPolicy", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds",
			"DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled":
			all[k] = v
		}
	}
	if c.redrive != nil {
		b, _ := json.Marshal(c.redrive)
		all["RedrivePolicy"] = string(b)
	}
	for k := range want {
		if v, ok := all[k]; ok {
			out[k] = v
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validQueueName checks SQS's naming rule: 1 to 80 alphanumerics, hyphens
// and underscores, a FIFO queue's name ending in .fifo.
func validQueueName(name string) error {
	base := strings.TrimSuffix(name, fifoSuffix)
	if name == "" || len(name) > maxQueueNameLength || base == "" || !isIDChars(base) {
		return errInvalidParameter("Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length")
	}
	return nil
}

func isIDChars(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// parseQueueARN splits arn:aws:sqs:<region>:<account>:<name>.
func parseQueueARN(arn string) (queueKey, error) {
	// Split into an array: every message an AWS face sends names its
	// queue by ARN. A seventh field holds whatever follows a sixth colon.
	var fields [7]string
	parts := fields[:0]
	rest := arn
	for len(parts) < len(fields)-1 {
		f, after, ok := strings.Cut(rest, ":")
		if !ok {
			break
		}
		parts, rest = append(parts, f), after
	}
	parts = append(parts, rest)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[2] != "sqs" || parts[3] == "" || parts[4] == "" {
		return queueKey{}, fmt.Errorf("%q is not an SQS queue ARN (arn:aws:sqs:<region>:<account>:<name>)", arn)
	}
	if err := validQueueName(parts[5]); err != nil {
		return queueKey{}, fmt.Errorf("%q is not an SQS queue ARN: bad queue name", arn)
	}
	return queueKey{partition: parts[1], region: parts[3], account: parts[4], name: parts[5]}, nil
}
