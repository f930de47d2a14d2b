package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

func staticHeader(name, value string, secret bool) *armeventgrid.StaticDeliveryAttributeMapping {
	return &armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr(name), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
		Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr(value), IsSecret: to.Ptr(secret)}}
}

func dynamicHeader(name, sourceField string) *armeventgrid.DynamicDeliveryAttributeMapping {
	return &armeventgrid.DynamicDeliveryAttributeMapping{Name: to.Ptr(name), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeDynamic),
		Properties: &armeventgrid.DynamicDeliveryAttributeMappingProperties{SourceField: to.Ptr(sourceField)}}
}

func withHeaders(url string, headers ...armeventgrid.DeliveryAttributeMappingClassification) *armeventgrid.WebHookEventSubscriptionDestination {
	d := testkit.WebHookDestination(url)
	d.Properties.DeliveryAttributeMappings = headers
	return d
}

// EG-26: custom delivery properties are sent as headers with every
// delivery, static and dynamic (from the event); a secret value is "Hidden"
// on GET, readable only through getDeliveryAttributes, and never written
// into a dead-letter record.
func TestEG26_CustomDeliveryPropertiesStaticDynamicAndSecret(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t, fakes.Script(fakes.Status(400)))
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: withHeaders(hook.URL(),
			staticHeader("X-Tenant", "contoso", false),
			staticHeader("X-Api-Key", "s3cr3t-value", true),
			dynamicHeader("X-Order", "data.id")),
		DeadLetterDestination: egDeadLetterTo("devstoreaccount1", "dead"),
	})
	egPublish(t, emu, "orders", egEvents("o-42")...)
	emu.Settle()
	emu.Advance(5 * time.Minute)

	d := hook.Deliveries()[0]
	for name, want := range map[string]string{"X-Tenant": "contoso", "X-Api-Key": "s3cr3t-value", "X-Order": "o-42"} {
		if got := d.Header.Get(name); got != want {
			t.Errorf("header %s = %q, want %q", name, got, want)
		}
	}

	ctx := context.Background()
	subs := emu.ARM().NewEventSubscriptionsClient()
	got, err := subs.Get(ctx, testkit.TopicID("orders"), "audit", nil)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for _, m := range got.Properties.Destination.(*armeventgrid.WebHookEventSubscriptionDestination).Properties.DeliveryAttributeMappings {
		if s, ok := m.(*armeventgrid.StaticDeliveryAttributeMapping); ok {
			shown[*s.Name] = *s.Properties.Value
		}
	}
	if shown["X-Api-Key"] != "Hidden" || shown["X-Tenant"] != "contoso" {
		t.Errorf("GET shows %v, want the secret as Hidden", shown)
	}
	full, err := subs.GetDeliveryAttributes(ctx, testkit.TopicID("orders"), "audit", nil)
	if err != nil {
		t.Fatal(err)
	}
	revealed := false
	for _, m := range full.Value {
		if s, ok := m.(*armeventgrid.StaticDeliveryAttributeMapping); ok && *s.Name == "X-Api-Key" {
			revealed = *s.Properties.Value == "s3cr3t-value"
		}
	}
	if !revealed {
		t.Errorf("getDeliveryAttributes does not return the secret value")
	}
	dead := emu.DeadLetters(testkit.Filter{Subscription: "audit"})
	if len(dead) != 1 || strings.Contains(string(dead[0].Body), "s3cr3t") {
		t.Fatalf("dead letters %+v, want one without the secret", dead)
	}
}

// EG-26: at most 10 headers, each value at most 4,096 bytes, none in the
// aeg- space; ARM refuses more with 400.
func TestEG26_DeliveryPropertyLimits(t *testing.T) {
	t.Parallel()
	emu := egOrdersTopic(t)
	hook := fakes.NewWebhook(t)
	headers := func(n, size int) []armeventgrid.DeliveryAttributeMappingClassification {
		out := make([]armeventgrid.DeliveryAttributeMappingClassification, n)
		for i := range out {
			out[i] = staticHeader(fmt.Sprintf("X-H%d", i), strings.Repeat("v", size), false)
		}
		return out
	}
	if _, err := emu.TryCreateEventSubscription("orders", "at-limits", armeventgrid.EventSubscriptionProperties{
		Destination: withHeaders(hook.URL(), headers(10, 4096)...)}); err != nil {
		t.Fatalf("10 headers of 4,096 bytes are allowed: %v", err)
	}
	for what, props := range map[string][]armeventgrid.DeliveryAttributeMappingClassification{
		"11 headers":         headers(11, 1),
		"a 4,097-byte value": headers(1, 4097),
		"an aeg- name":       {staticHeader("aeg-custom", "v", false)},
	} {
		_, err := emu.TryCreateEventSubscription("orders", "over", armeventgrid.EventSubscriptionProperties{Destination: withHeaders(hook.URL(), props...)})
		egWantARM400(t, what, err)
	}
}
