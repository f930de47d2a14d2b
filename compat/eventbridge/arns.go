package eventbridge

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
)

// ARN formats of EventBridge resources (W-EB-2.1).

func busArn(t tenantKey, name string) string {
	return "arn:aws:events:" + t.region + ":" + t.account + ":event-bus/" + name
}

// ruleArn: rules on the default bus are rule/{name}; on a custom bus
// rule/{bus}/{name}.
func ruleArn(t tenantKey, bus, name string) string {
	if bus == defaultBus {
		return "arn:aws:events:" + t.region + ":" + t.account + ":rule/" + name
	}
	return "arn:aws:events:" + t.region + ":" + t.account + ":rule/" + bus + "/" + name
}

func archiveArn(t tenantKey, name string) string {
	return "arn:aws:events:" + t.region + ":" + t.account + ":archive/" + name
}

func replayArn(t tenantKey, name string) string {
	return "arn:aws:events:" + t.region + ":" + t.account + ":replay/" + name
}

func connectionArn(t tenantKey, name, id string) string {
	return "arn:aws:events:" + t.region + ":" + t.account + ":connection/" + name + "/" + id
}

func apiDestinationArn(t tenantKey, name, id string) string {
	return "arn:aws:events:" + t.region + ":" + t.account + ":api-destination/" + name + "/" + id
}

func connectionSecretArn(t tenantKey, name, id string) string {
	return "arn:aws:secretsmanager:" + t.region + ":" + t.account + ":secret:events!connection/" + name + "/" + id
}

// eventsResource splits an EventBridge ARN into its tenant and resource
// ("event-bus/name", "rule/bus/name", ...); ok is false for anything else.
func eventsResource(s string) (t tenantKey, resource string, ok bool) {
	a, err := arn.Parse(s)
	if err != nil || a.Service != "events" || a.Region == "" || a.AccountID == "" {
		return tenantKey{}, "", false
	}
	return tenantKey{account: a.AccountID, region: a.Region}, a.Resource, true
}

// parseBusArn reads an event bus ARN.
func parseBusArn(s string) (t tenantKey, name string, ok bool) {
	t, res, ok := eventsResource(s)
	if !ok || !strings.HasPrefix(res, "event-bus/") {
		return tenantKey{}, "", false
	}
	name = strings.TrimPrefix(res, "event-bus/")
	return t, name, name != ""
}

// parseRuleArn reads a rule ARN in either form.
func parseRuleArn(s string) (t tenantKey, bus, name string, ok bool) {
	t, res, ok := eventsResource(s)
	if !ok || !strings.HasPrefix(res, "rule/") {
		return tenantKey{}, "", "", false
	}
	rest := strings.TrimPrefix(res, "rule/")
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		bus, name = rest[:i], rest[i+1:]
	} else {
		bus, name = defaultBus, rest
	}
	return t, bus, name, bus != "" && name != ""
}

// parseNamedArn reads archive/{name}, replay/{name} and the
// connection/{name}/{id} and api-destination/{name}/{id} forms.
func parseNamedArn(s, kind string) (t tenantKey, name string, ok bool) {
	t, res, ok := eventsResource(s)
	if !ok || !strings.HasPrefix(res, kind+"/") {
		return tenantKey{}, "", false
	}
	name, _, _ = strings.Cut(strings.TrimPrefix(res, kind+"/"), "/")
	return t, name, name != ""
}
