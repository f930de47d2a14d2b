package namespaces_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

func TestNamespaceLifecycleThroughTheSDKOneRequestPerOperation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	c := h.arm.NewNamespacesClient()
	name := uniqueName("ns-")

	before := h.armReqs.count()
	poller, err := c.BeginCreateOrUpdate(ctx, resourceGroup, name, armeventgrid.Namespace{
		Location: to.Ptr("westus"), Tags: map[string]*string{"team": to.Ptr("a")},
	}, nil)
	created := facetest.Await(t, "create namespace", poller, err)
	if n := h.armReqs.count() - before; n != 1 {
		t.Fatalf("create took %d requests, want 1", n)
	}
	wantHost := namespaces.Hostname(h.srv.Listener.Addr().String(), name)
	if got := *created.Properties.TopicsConfiguration.Hostname; got != wantHost || strings.Contains(got, "://") {
		t.Fatalf("hostname %q, want %q", got, wantHost)
	}
	if *created.Properties.ProvisioningState != armeventgrid.NamespaceProvisioningStateSucceeded ||
		*created.Type != "Microsoft.EventGrid/namespaces" || *created.SKU.Name != armeventgrid.SKUNameStandard ||
		*created.ID != "/subscriptions/"+subscriptionID+"/resourceGroups/"+resourceGroup+"/providers/Microsoft.EventGrid/namespaces/"+name {
		t.Fatalf("created %+v", created.Namespace)
	}

	before = h.armReqs.count()
	up, err := c.BeginUpdate(ctx, resourceGroup, name, armeventgrid.NamespaceUpdateParameters{Tags: map[string]*string{"team": to.Ptr("b")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	updated, err := up.PollUntilDone(ctx, nil)
	if err != nil || *updated.Tags["team"] != "b" || h.armReqs.count()-before != 1 {
		t.Fatalf("update: %v, tags %v, %d requests", err, updated.Tags, h.armReqs.count()-before)
	}

	got, err := c.Get(ctx, resourceGroup, name, nil)
	if err != nil || *got.Tags["team"] != "b" {
		t.Fatalf("get: %v", err)
	}
	for _, list := range []func() []*armeventgrid.Namespace{
		func() []*armeventgrid.Namespace {
			p := c.NewListByResourceGroupPager(resourceGroup, nil)
			page, err := p.NextPage(ctx)
			if err != nil || p.More() {
				t.Fatalf("list by group: %v, more=%v", err, p.More())
			}
			return page.Value
		},
		func() []*armeventgrid.Namespace {
			p := c.NewListBySubscriptionPager(nil)
			page, err := p.NextPage(ctx)
			if err != nil || p.More() {
				t.Fatalf("list by subscription: %v, more=%v", err, p.More())
			}
			return page.Value
		},
	} {
		if v := list(); len(v) != 1 || *v[0].Name != name {
			t.Fatalf("list %+v", v)
		}
	}

	keys, err := c.ListSharedAccessKeys(ctx, resourceGroup, name, nil)
	if err != nil || len(*keys.Key1) != 44 || *keys.Key1 == *keys.Key2 {
		t.Fatalf("keys: %v %+v", err, keys)
	}
	before = h.armReqs.count()
	regen, err := c.BeginRegenerateKey(ctx, resourceGroup, name, armeventgrid.NamespaceRegenerateKeyRequest{KeyName: to.Ptr("key1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	newKeys, err := regen.PollUntilDone(ctx, nil)
	if err != nil || *newKeys.Key1 == *keys.Key1 || *newKeys.Key2 != *keys.Key2 || h.armReqs.count()-before != 1 {
		t.Fatalf("regenerate: %v %+v", err, newKeys)
	}

	before = h.armReqs.count()
	del, err := c.BeginDelete(ctx, resourceGroup, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := del.PollUntilDone(ctx, nil); err != nil || h.armReqs.count()-before != 1 {
		t.Fatalf("delete: %v", err)
	}
	_, err = c.Get(ctx, resourceGroup, name, nil)
	requireStatus(t, err, http.StatusNotFound, "ResourceNotFound")
	del, err = c.BeginDelete(ctx, resourceGroup, name, nil)
	facetest.Await(t, "second delete", del, err)
}

func TestRegeneratedKeyStopsWorkingAtOnce(t *testing.T) {
	t.Parallel()
	h, p := newQueueHarness(t)
	ctx := context.Background()
	ev, _ := messaging.NewCloudEvent("src", "t", "x", nil)
	if _, err := p.sender.SendEvent(ctx, &ev, nil); err != nil {
		t.Fatal(err)
	}
	poller, err := h.arm.NewNamespacesClient().BeginRegenerateKey(ctx, resourceGroup, p.ns.name, armeventgrid.NamespaceRegenerateKeyRequest{KeyName: to.Ptr("key1")}, nil)
	facetest.Await(t, "regenerate key1", poller, err)
	_, err = p.sender.SendEvent(ctx, &ev, nil)
	requireStatus(t, err, http.StatusUnauthorized, "Unauthorized")
}

func TestTopicAndSubscriptionResourcesEchoWhatTheSDKReads(t *testing.T) {
	t.Parallel()
	h, ns := newNamespaceHarness(t)
	ctx := context.Background()
	topics := h.arm.NewNamespaceTopicsClient()

	poller, err := topics.BeginCreateOrUpdate(ctx, resourceGroup, ns.name, "topic1", armeventgrid.NamespaceTopic{}, nil)
	topic := facetest.Await(t, "create topic1", poller, err)
	tp := topic.Properties
	if *tp.EventRetentionInDays != 7 || *tp.InputSchema != armeventgrid.EventInputSchemaCloudEventSchemaV10 ||
		*tp.PublisherType != armeventgrid.PublisherTypeCustom || *tp.ProvisioningState != armeventgrid.NamespaceTopicProvisioningStateSucceeded {
		t.Fatalf("topic defaults %+v", tp)
	}
	up, err := topics.BeginUpdate(ctx, resourceGroup, ns.name, "topic1", armeventgrid.NamespaceTopicUpdateParameters{
		Properties: &armeventgrid.NamespaceTopicUpdateParameterProperties{EventRetentionInDays: to.Ptr[int32](2)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := up.PollUntilDone(ctx, nil); err != nil || *res.Properties.EventRetentionInDays != 2 {
		t.Fatalf("topic update: %v", err)
	}

	props := queueProps(120, 5, "P1D", blobDeadLetter("acct", "dls"))
	props.FiltersConfiguration = &armeventgrid.FiltersConfiguration{
		IncludedEventTypes: []*string{to.Ptr("order.created")},
		Filters: []armeventgrid.FilterClassification{
			&armeventgrid.StringBeginsWithFilter{Key: to.Ptr("subject"), OperatorType: to.Ptr(armeventgrid.FilterOperatorTypeStringBeginsWith), Values: []*string{to.Ptr("eu/")}},
			&armeventgrid.NumberInRangeFilter{Key: to.Ptr("data.n"), OperatorType: to.Ptr(armeventgrid.FilterOperatorTypeNumberInRange), Values: [][]*float64{{to.Ptr(1.0), to.Ptr(2.0)}}},
		},
	}
	sub := h.createSubscription(t, ns.name, "topic1", "sub1", props)
	q := sub.Properties.DeliveryConfiguration.Queue
	if *q.ReceiveLockDurationInSeconds != 120 || *q.MaxDeliveryCount != 5 || *q.EventTimeToLive != "P1D" ||
		*sub.Properties.ProvisioningState != armeventgrid.SubscriptionProvisioningStateSucceeded {
		t.Fatalf("queue %+v", q)
	}
	dl, ok := q.DeadLetterDestinationWithResourceIdentity.DeadLetterDestination.(*armeventgrid.StorageBlobDeadLetterDestination)
	if !ok || *dl.Properties.BlobContainerName != "dls" {
		t.Fatalf("dead letter %#v", q.DeadLetterDestinationWithResourceIdentity.DeadLetterDestination)
	}
	filters := sub.Properties.FiltersConfiguration.Filters
	if _, ok := filters[0].(*armeventgrid.StringBeginsWithFilter); !ok {
		t.Fatalf("filter 0 decoded as %T", filters[0])
	}
	if r, ok := filters[1].(*armeventgrid.NumberInRangeFilter); !ok || *r.Values[0][1] != 2 {
		t.Fatalf("filter 1 decoded as %#v", filters[1])
	}

	// Defaults of a bare queue subscription are shown as in force; the TTL
	// defaults to the topic's retention.
	bare := h.createSubscription(t, ns.name, "topic1", "sub2", armeventgrid.SubscriptionProperties{
		DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue), Queue: &armeventgrid.QueueInfo{}},
	})
	bq := bare.Properties.DeliveryConfiguration.Queue
	if *bq.ReceiveLockDurationInSeconds != 60 || *bq.MaxDeliveryCount != 10 || *bq.EventTimeToLive != "P2D" ||
		*bare.Properties.EventDeliverySchema != armeventgrid.DeliverySchemaCloudEventSchemaV10 {
		t.Fatalf("defaults %+v", bq)
	}

	subs := h.arm.NewNamespaceTopicEventSubscriptionsClient()
	up2, err := subs.BeginUpdate(ctx, resourceGroup, ns.name, "topic1", "sub2", armeventgrid.SubscriptionUpdateParameters{
		Properties: &armeventgrid.SubscriptionUpdateParametersProperties{
			DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue),
				Queue: &armeventgrid.QueueInfo{MaxDeliveryCount: to.Ptr[int32](3)}},
		}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := up2.PollUntilDone(ctx, nil); err != nil || *res.Properties.DeliveryConfiguration.Queue.MaxDeliveryCount != 3 {
		t.Fatalf("subscription update: %v", err)
	}
	pager := subs.NewListByNamespaceTopicPager(resourceGroup, ns.name, "topic1", nil)
	page, err := pager.NextPage(ctx)
	if err != nil || len(page.Value) != 2 || pager.More() {
		t.Fatalf("list: %v %d", err, len(page.Value))
	}
	del, err := subs.BeginDelete(ctx, resourceGroup, ns.name, "topic1", "sub2", nil)
	facetest.Await(t, "delete sub2", del, err)
	_, err = subs.Get(ctx, resourceGroup, ns.name, "topic1", "sub2", nil)
	requireStatus(t, err, http.StatusNotFound, "ResourceNotFound")
}

func TestPushSubscriptionShowsItsWebhookAndHidesSecrets(t *testing.T) {
	t.Parallel()
	h, ns := newNamespaceHarness(t)
	ctx := context.Background()
	h.createTopic(t, ns.name, "topic1")
	hook := newWebhook(t).srv.URL + "/api/updates"
	h.createSubscription(t, ns.name, "topic1", "hook", pushProps(hook+"?code=abc", 10, "PT1H",
		[]armeventgrid.DeliveryAttributeMappingClassification{
			&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("Custom-Header-1"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
				Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("value1")}},
			&armeventgrid.StaticDeliveryAttributeMapping{Name: to.Ptr("X-Secret"), Type: to.Ptr(armeventgrid.DeliveryAttributeMappingTypeStatic),
				Properties: &armeventgrid.StaticDeliveryAttributeMappingProperties{Value: to.Ptr("s3cret"), IsSecret: to.Ptr(true)}},
		}, nil))
	subs := h.arm.NewNamespaceTopicEventSubscriptionsClient()
	got, err := subs.Get(ctx, resourceGroup, ns.name, "topic1", "hook", nil)
	if err != nil {
		t.Fatal(err)
	}
	dest, ok := got.Properties.DeliveryConfiguration.Push.Destination.(*armeventgrid.WebHookEventSubscriptionDestination)
	if !ok || *dest.Properties.EndpointBaseURL != hook {
		t.Fatalf("destination %#v", got.Properties.DeliveryConfiguration.Push.Destination)
	}
	secret := dest.Properties.DeliveryAttributeMappings[1].(*armeventgrid.StaticDeliveryAttributeMapping)
	if secret.Properties.Value != nil {
		t.Fatalf("GET shows the secret value %q", *secret.Properties.Value)
	}
	attrs, err := subs.GetDeliveryAttributes(ctx, resourceGroup, ns.name, "topic1", "hook", nil)
	if err != nil || len(attrs.Value) != 2 || *attrs.Value[1].(*armeventgrid.StaticDeliveryAttributeMapping).Properties.Value != "s3cret" {
		t.Fatalf("delivery attributes: %v %+v", err, attrs)
	}
	full, err := subs.GetFullURL(ctx, resourceGroup, ns.name, "topic1", "hook", nil)
	if err != nil || *full.EndpointURL != hook+"?code=abc" {
		t.Fatalf("full url: %v", err)
	}
}

func TestOutOfRangeSubscriptionSettingsAreARM400s(t *testing.T) {
	t.Parallel()
	h, ns := newNamespaceHarness(t)
	ctx := context.Background()
	h.createTopic(t, ns.name, "topic1")
	cases := map[string]armeventgrid.SubscriptionProperties{
		"lock 59":      queueProps(59, 10, "", nil),
		"lock 301":     queueProps(301, 10, "", nil),
		"deliveries 0": queueProps(60, 0, "", nil),
		"ttl 30s":      queueProps(60, 10, "PT30S", nil),
		"ttl 8 days":   queueProps(60, 10, "P8D", nil),
	}
	for name, props := range cases {
		_, err := h.arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(ctx, resourceGroup, ns.name, "topic1", "sub1",
			armeventgrid.Subscription{Properties: &props}, nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != 400 || re.ErrorCode != "InvalidRequest" {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := h.arm.NewNamespaceTopicsClient().BeginCreateOrUpdate(ctx, resourceGroup, "no-such-ns", "topic1", armeventgrid.NamespaceTopic{}, nil)
	requireStatus(t, err, http.StatusNotFound, "ParentResourceNotFound")
	_, err = h.arm.NewNamespacesClient().BeginCreateOrUpdate(ctx, resourceGroup, "x", armeventgrid.Namespace{Location: to.Ptr("westus")}, nil)
	requireStatus(t, err, http.StatusBadRequest, "InvalidResourceName")
	_, err = h.arm.NewNamespacesClient().BeginCreateOrUpdate(ctx, resourceGroup, "no-location", armeventgrid.Namespace{}, nil)
	requireStatus(t, err, http.StatusBadRequest, "LocationRequired")
}

func TestSeedDeadLetterTemplateShapeIsAccepted(t *testing.T) {
	t.Parallel() // NS-9, both casings of StorageBlob
	h, ns := newNamespaceHarness(t)
	h.createTopic(t, ns.name, "topic1")
	for i, key := range []string{"StorageBlob", "storageBlob"} {
		body := `{"properties":{"deliveryConfiguration":{"deliveryMode":"Queue","queue":{"deadLetterDestinationWithResourceIdentity":{
		  "deliveryRetryPeriodInDays":2,"endpointType":"StorageBlob",
		  "` + key + `":{"blobContainerName":"data","resourceId":"/subscriptions/0/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/mystorageaccount"},
		  "identity":{"type":"UserAssigned","userAssignedIdentity":"/subscriptions/0/resourceGroups/g/providers/Microsoft.ManagedIdentity/userAssignedIdentities/myusermsi"}}}}}}`
		sub := []string{"seed-a", "seed-b"}[i]
		resp := h.rawRequest(t, http.MethodPut, armPath(ns.name, "/topics/topic1/eventSubscriptions/"+sub), http.Header{"Content-Type": {"application/json"}}, body)
		if resp.StatusCode != http.StatusCreated {
			b, _ := io.ReadAll(resp.Body)
			t.Fatalf("%s: %d %s", key, resp.StatusCode, b)
		}
		got, err := h.arm.NewNamespaceTopicEventSubscriptionsClient().Get(context.Background(), resourceGroup, ns.name, "topic1", sub, nil)
		if err != nil {
			t.Fatal(err)
		}
		dl := got.Properties.DeliveryConfiguration.Queue.DeadLetterDestinationWithResourceIdentity
		blob, ok := dl.DeadLetterDestination.(*armeventgrid.StorageBlobDeadLetterDestination)
		if !ok || *blob.Properties.BlobContainerName != "data" || *dl.Identity.Type != armeventgrid.EventSubscriptionIdentityTypeUserAssigned {
			t.Fatalf("%s: %#v", key, dl)
		}
	}
}

func TestARMPathsMatchAnyCaseAndNeedAnAPIVersion(t *testing.T) {
	t.Parallel()
	h, ns := newNamespaceHarness(t)
	path := "/SUBSCRIPTIONS/" + subscriptionID + "/resourcegroups/" + resourceGroup + "/PROVIDERS/microsoft.eventgrid/NameSpaces/" + ns.name
	if resp := h.rawRequest(t, http.MethodGet, path+"?api-version=2023-06-01-preview", nil, ""); resp.StatusCode != 200 {
		t.Fatalf("mixed case: %d", resp.StatusCode)
	}
	resp := h.rawRequest(t, http.MethodGet, path, nil, "")
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), `"code":"MissingApiVersionParameter"`) {
		t.Fatalf("no api-version: %d %s", resp.StatusCode, b)
	}
	resp = h.rawRequest(t, http.MethodPut, armPath(ns.name, ""), nil, `{"location":`)
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), `"code":"InvalidRequestContent"`) {
		t.Fatalf("bad JSON: %d %s", resp.StatusCode, b)
	}
}

func armPath(ns, rest string) string {
	return "/subscriptions/" + subscriptionID + "/resourceGroups/" + resourceGroup +
		"/providers/Microsoft.EventGrid/namespaces/" + ns + rest + "?api-version=2025-02-15"
}

func requireStatus(t *testing.T, err error, status int, code string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != status || re.ErrorCode != code {
		t.Fatalf("got %v, want HTTP %d %s", err, status, code)
	}
}

func pushProps(url string, maxDeliveries int32, ttl string, attrs []armeventgrid.DeliveryAttributeMappingClassification,
	dl *armeventgrid.DeadLetterWithResourceIdentity) armeventgrid.SubscriptionProperties {
	return armeventgrid.SubscriptionProperties{
		DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{
			DeliveryMode: to.Ptr(armeventgrid.DeliveryModePush),
			Push: &armeventgrid.PushInfo{
				MaxDeliveryCount: to.Ptr(maxDeliveries), EventTimeToLive: to.Ptr(ttl),
				DeadLetterDestinationWithResourceIdentity: dl,
				Destination: &armeventgrid.WebHookEventSubscriptionDestination{
					EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
					Properties: &armeventgrid.WebHookEventSubscriptionDestinationProperties{
						EndpointURL: to.Ptr(url), DeliveryAttributeMappings: attrs,
					},
				},
			},
		},
	}
}
