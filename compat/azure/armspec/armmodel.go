// Package armspec checks Azure Resource Manager request bodies against
// Microsoft.EventGrid's REST specification: each resource type's required
// members, enums, length and value bounds and patterns, as a table
// generated from the resource manager template schema Azure generates from
// azure-rest-api-specs for the API version the Go SDK speaks (2025-02-15),
// never edited by hand. The table has the shape of the AWS models' tables
// (compat/aws/awsmodel), so one checker serves every cloud's model.
//
// To regenerate, with Azure/azure-resource-manager-schemas checked out:
//
//	go run ./compat/aws/awsmodel/gen -arm -api-version 2025-02-15 \
//	  -resources topics,domains,domains_topics,topics_eventSubscriptions,domains_eventSubscriptions,domains_topics_eventSubscriptions,systemTopics,systemTopics_eventSubscriptions \
//	  -model .../schemas/2025-02-15/Microsoft.EventGrid.json -func EventGrid -out compat/azure/armspec/eventgrid_table.go
package armspec

import (
	"fmt"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// Checker checks PUT bodies of Microsoft.EventGrid resources.
type Checker struct {
	model *awsmodel.Checker
}

// wording is how the table's violations are named, JSON paths
// ("properties.retryPolicy.maxDeliveryAttempts", "advancedFilters[0]"),
// and enums taken in any letter case, as ARM takes them.
var wording = awsmodel.Wording{JSONPaths: true, LengthBetween: true, ValueBetween: true, EnumsIgnoreCase: true}

// NewChecker returns a checker over the generated table.
func NewChecker() *Checker {
	return &Checker{model: awsmodel.NewChecker(EventGrid(), wording)}
}

// Wording is how the checker names members and words bounds.
func Wording() awsmodel.Wording { return wording }

// ResourceType is the table's name for what a PUT to an ARM path template
// creates: "topics", "domains_topics", "systemTopics"; every event
// subscription, nested or an extension resource, is
// "topics_eventSubscriptions", whose properties all forms share. "" for
// a template of no resource type in the table.
func ResourceType(template string) string {
	_, rest, ok := cutFold(template, "/providers/Microsoft.EventGrid/")
	if !ok {
		return ""
	}
	if strings.HasSuffix(strings.ToLower(template), "/eventsubscriptions/{eventsubscription}") {
		return "topics_eventSubscriptions"
	}
	var literals []string
	for _, seg := range strings.Split(rest, "/") {
		if !strings.HasPrefix(seg, "{") {
			literals = append(literals, seg)
		}
	}
	return strings.Join(literals, "_")
}

// CheckPut is an arm.Options.CheckBody: ARM's 400 InvalidRequest naming
// every member of a PUT body that breaks the specification, or nil.
func (c *Checker) CheckPut(method, template string, body []byte) *arm.Error {
	if method != "PUT" {
		return nil
	}
	vs := c.model.Check(ResourceType(template), awsmodel.Input{Body: body})
	if len(vs) == 0 {
		return nil
	}
	items := make([]string, len(vs))
	for i, v := range vs {
		shown := "null"
		switch {
		case v.Secret:
			shown = "(secret)"
		case v.Value != nil:
			shown = "'" + *v.Value + "'"
		}
		items[i] = fmt.Sprintf("the value %s of '%s' is not valid: %s", shown, v.Path, v.Constraint())
	}
	return arm.BadRequest("The request body does not satisfy the Microsoft.EventGrid specification: %s.", strings.Join(items, "; "))
}

func cutFold(s, sep string) (before, after string, found bool) {
	i := strings.Index(strings.ToLower(s), strings.ToLower(sep))
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
