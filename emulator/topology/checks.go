package topology

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
)

// Each check returns a problem message, or "" when the value is fine. They
// repeat the clouds' documented naming rules so that a bad name is
// reported with its line before anything is created.

func checkHTTPURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an http(s) URL"
	}
	return ""
}

// checkARN accepts arn:<partition>:<service>:<region>:<account>:<resource>.
func checkARN(s string) string {
	parts := strings.SplitN(s, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[2] == "" || parts[5] == "" {
		return "must be an ARN such as arn:aws:sqs:us-east-1:000000000000:orders"
	}
	return ""
}

// checkARNOrURL is for a v2 subscriber's target: an ARN or an http(s) URL.
func checkARNOrURL(s string) string {
	if checkARN(s) == "" || checkHTTPURL(s) == "" {
		return ""
	}
	return "must be an ARN (arn:aws:sqs:us-east-1:000000000000:orders) or an http(s) URL"
}

// armName is Azure's rule for topic, namespace and event subscription names.
func armName(shortest, longest int) func(string) string {
	return func(s string) string {
		if len(s) < shortest || len(s) > longest || strings.Trim(s, "-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return fmt.Sprintf("must be %d to %d letters, digits and hyphens", shortest, longest)
		}
		return ""
	}
}

func checkTopicName(s string) string {
	if msg := armName(3, 50)(s); msg != "" {
		return msg
	}
	for _, reserved := range []string{"microsoft", "eventgrid", "system"} {
		if strings.HasPrefix(strings.ToLower(s), reserved) {
			return "must not start with Microsoft, EventGrid or System (Azure reserves them)"
		}
	}
	return ""
}

// checkSegment is for the Azure subscription id and resource group, which
// become segments of every ARM path.
func checkSegment(s string) string {
	if s == "" || strings.Trim(s, "-_.()0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return "must be letters, digits and - _ . ( ) only"
	}
	return ""
}

// awsName is EventBridge's name pattern [.\-_A-Za-z0-9]+ up to longest
// characters.
func awsName(longest int) func(string) string {
	return func(s string) string {
		if s == "" || len(s) > longest || strings.Trim(s, ".-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return fmt.Sprintf("must be 1 to %d letters, digits and . - _", longest)
		}
		return ""
	}
}

func checkBusName(s string) string {
	if strings.Contains(s, "/") {
		return "must not contain '/' (only partner buses have one)"
	}
	return awsName(256)(s)
}

// checkRegion accepts the shape of AWS region names: us-east-1,
// ap-southeast-2, us-gov-west-1.
func checkRegion(s string) string {
	parts := strings.Split(s, "-")
	ok := len(parts) >= 3 && len(parts[0]) == 2
	for i, p := range parts {
		letters := strings.Trim(p, "abcdefghijklmnopqrstuvwxyz") == ""
		digits := strings.Trim(p, "0123456789") == ""
		ok = ok && p != "" && (i < len(parts)-1 && letters || i == len(parts)-1 && digits)
	}
	if !ok {
		return "must be an AWS region such as us-east-1"
	}
	return ""
}

func checkAccount(s string) string {
	if len(s) != 12 || strings.Trim(s, "0123456789") != "" {
		return "must be a 12-digit AWS account id"
	}
	return ""
}

func checkSchedule(s string) string {
	if !(strings.HasPrefix(s, "rate(") || strings.HasPrefix(s, "cron(")) || !strings.HasSuffix(s, ")") {
		return "must be rate(…) or cron(…), e.g. rate(1 minute)"
	}
	return ""
}

// checkKey accepts what Azure's keys are: base64 text.
func checkKey(s string) string {
	if _, err := base64.StdEncoding.DecodeString(s); err != nil || s == "" {
		return "must be a base64 key, e.g. the output of `openssl rand -base64 32`"
	}
	return ""
}

// checkStorageAccount and checkContainer are Azure Storage's naming rules.
func checkStorageAccount(s string) string {
	if len(s) < 3 || len(s) > 24 || strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyz") != "" {
		return "must be a storage account name: 3 to 24 lowercase letters and digits"
	}
	return ""
}

func checkContainer(s string) string {
	if len(s) < 3 || len(s) > 63 || strings.Trim(s, "-0123456789abcdefghijklmnopqrstuvwxyz") != "" ||
		strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
		return "must be a blob container name: 3 to 63 lowercase letters, digits and single hyphens"
	}
	return ""
}

// oneOf returns the allowed value s names, or a problem message with the
// nearest allowed value.
func oneOf(s string, allowed ...string) (string, string) {
	for _, a := range allowed {
		if s == a {
			return a, ""
		}
	}
	msg := "must be one of " + strings.Join(allowed, ", ")
	if near := closest(s, allowed); near != "" {
		msg += "; did you mean " + near + "?"
	}
	return "", msg
}
