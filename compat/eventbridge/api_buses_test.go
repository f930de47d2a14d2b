package eventbridge_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

func TestEventBusLifecycle(t *testing.T) {
	h, c := startTest(t)

	def := must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
	if aws.ToString(def.Name) != "default" || aws.ToString(def.Arn) != "arn:aws:events:us-east-1:123456789012:event-bus/default" {
		t.Fatalf("default bus: %s %s", aws.ToString(def.Name), aws.ToString(def.Arn))
	}
	if def.CreationTime == nil || !def.CreationTime.Equal(t0) || def.Policy != nil {
		t.Fatalf("default bus times/policy: %v %v", def.CreationTime, def.Policy)
	}

	created := must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{
		Name: aws.String("orders"), Description: aws.String("order events"),
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("a")}},
	}))
	if aws.ToString(created.EventBusArn) != "arn:aws:events:us-east-1:123456789012:event-bus/orders" || aws.ToString(created.Description) != "order events" {
		t.Fatalf("CreateEventBus: %+v", created)
	}
	_, err := h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("orders")})
	apiError(t, err, "ResourceAlreadyExistsException", "Event bus orders already exists.")
	_, err = h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("default")})
	apiError(t, err, "ResourceAlreadyExistsException", "Event bus default already exists.")
	_, err = h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("a/b")})
	apiError(t, err, "ValidationException", "Event bus name must not contain '/'.")

	// By ARN as well as by name.
	byArn := must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: created.EventBusArn}))
	if aws.ToString(byArn.Name) != "orders" || aws.ToString(byArn.Description) != "order events" {
		t.Fatalf("DescribeEventBus by ARN: %+v", byArn)
	}

	upd := must[*ebsdk.UpdateEventBusOutput](t)(h.client.UpdateEventBus(c, &ebsdk.UpdateEventBusInput{
		Name: aws.String("orders"), Description: aws.String("changed"),
	}))
	if aws.ToString(upd.Description) != "changed" || aws.ToString(upd.Name) != "orders" {
		t.Fatalf("UpdateEventBus: %+v", upd)
	}

	for _, n := range []string{"orders-eu", "payments"} {
		must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String(n)}))
	}
	list := must[*ebsdk.ListEventBusesOutput](t)(h.client.ListEventBuses(c, &ebsdk.ListEventBusesInput{NamePrefix: aws.String("orders")}))
	if len(list.EventBuses) != 2 || aws.ToString(list.EventBuses[0].Name) != "orders" || list.NextToken != nil {
		t.Fatalf("ListEventBuses by prefix: %+v", list.EventBuses)
	}
	page1 := must[*ebsdk.ListEventBusesOutput](t)(h.client.ListEventBuses(c, &ebsdk.ListEventBusesInput{Limit: aws.Int32(3)}))
	page2 := must[*ebsdk.ListEventBusesOutput](t)(h.client.ListEventBuses(c, &ebsdk.ListEventBusesInput{Limit: aws.Int32(3), NextToken: page1.NextToken}))
	if len(page1.EventBuses) != 3 || page1.NextToken == nil || len(page2.EventBuses) != 1 || page2.NextToken != nil {
		t.Fatalf("paging: %d %v / %d %v", len(page1.EventBuses), page1.NextToken, len(page2.EventBuses), page2.NextToken)
	}

	_, err = h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: aws.String("default")})
	apiError(t, err, "ValidationException", "Cannot delete event bus default.")
	// A bus with a rule stays until its rules are deleted.
	must[*ebsdk.PutRuleOutput](t)(h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String("r"), EventBusName: aws.String("orders"), EventPattern: aws.String(orderPattern)}))
	_, err = h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: aws.String("orders")})
	apiError(t, err, "ValidationException", "EventBus can't be deleted since it has rules.")
	must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: aws.String("orders")}))
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("r"), EventBusName: aws.String("orders")}))
	must[*ebsdk.DeleteEventBusOutput](t)(h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: aws.String("orders")}))
	_, err = h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: aws.String("orders")})
	apiError(t, err, "ResourceNotFoundException", "Event bus orders does not exist.")
	// Deleting a bus that is not there succeeds. DeleteEventBus takes a
	// name only: the model's pattern for it ([/\.\-_A-Za-z0-9]+) has no
	// room for an ARN, which is refused before anything is looked up.
	must[*ebsdk.DeleteEventBusOutput](t)(h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: aws.String("orders")}))
	_, err = h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: created.EventBusArn})
	apiError(t, err, "ValidationException", "1 validation error detected: Value '"+aws.ToString(created.EventBusArn)+"' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [/\\.\\-_A-Za-z0-9]+")
}

// TestPartnerEventBus: a partner bus needs its partner event source, and
// GridBridge has none.
func TestPartnerEventBus(t *testing.T) {
	h, c := startTest(t)
	source := "aws.partner/example.com/123/orders"
	_, err := h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String(source), EventSourceName: aws.String(source)})
	apiError(t, err, "ResourceNotFoundException", "Event source aws.partner/example.com/123/orders does not exist.")
	_, err = h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: aws.String(source)})
	apiError(t, err, "ResourceNotFoundException", "Event bus aws.partner/example.com/123/orders does not exist.")
}

func TestAccountsAndRegionsAreSeparate(t *testing.T) {
	h, c := startTest(t)
	other := h.clientFor("210987654321", "eu-west-1")
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("mine")}))
	_, err := other.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{Name: aws.String("mine")})
	apiError(t, err, "ResourceNotFoundException", "Event bus mine does not exist.")
	def := must[*ebsdk.DescribeEventBusOutput](t)(other.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
	if aws.ToString(def.Arn) != "arn:aws:events:eu-west-1:210987654321:event-bus/default" {
		t.Fatalf("other account's default bus: %s", aws.ToString(def.Arn))
	}
	// An access key that is not twelve digits acts for 000000000000.
	anon := h.clientFor("AKIDEXAMPLE", "us-west-2")
	def = must[*ebsdk.DescribeEventBusOutput](t)(anon.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
	if aws.ToString(def.Arn) != "arn:aws:events:us-west-2:000000000000:event-bus/default" {
		t.Fatalf("default account: %s", aws.ToString(def.Arn))
	}
}

func TestPermissions(t *testing.T) {
	h, c := startTest(t)
	must[*ebsdk.PutPermissionOutput](t)(h.client.PutPermission(c, &ebsdk.PutPermissionInput{
		Action: aws.String("events:PutEvents"), Principal: aws.String("111122223333"), StatementId: aws.String("s1"),
	}))
	def := must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
	want := `{"Version":"2012-10-17","Statement":[{"Sid":"s1","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"events:PutEvents","Resource":"arn:aws:events:us-east-1:123456789012:event-bus/default"}]}`
	if aws.ToString(def.Policy) != want {
		t.Fatalf("policy:\n got  %s\n want %s", aws.ToString(def.Policy), want)
	}
	_, err := h.client.RemovePermission(c, &ebsdk.RemovePermissionInput{StatementId: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Statement with the provided id does not exist.")
	must[*ebsdk.RemovePermissionOutput](t)(h.client.RemovePermission(c, &ebsdk.RemovePermissionInput{StatementId: aws.String("s1")}))
	def = must[*ebsdk.DescribeEventBusOutput](t)(h.client.DescribeEventBus(c, &ebsdk.DescribeEventBusInput{}))
	if def.Policy != nil {
		t.Fatalf("policy after removal: %s", aws.ToString(def.Policy))
	}
}
