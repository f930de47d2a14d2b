package eventgrid_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
)

// A topic goes through create (201, Succeeded, https endpoint), get, patch,
// listKeys, regenerateKey and delete (204, then 404) with armeventgrid.
func TestTopicLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.topics()

	created := h.createTopic("orders", armeventgrid.InputSchemaEventGridSchema, nil)
	if *created.ID != topicID("orders") || *created.Type != "Microsoft.EventGrid/topics" || *created.Location != "westus2" {
		t.Fatalf("created topic = %s %s %s", *created.ID, *created.Type, *created.Location)
	}
	p := created.Properties
	if *p.ProvisioningState != armeventgrid.TopicProvisioningStateSucceeded {
		t.Fatalf("provisioningState = %s", *p.ProvisioningState)
	}
	if *p.Endpoint != h.endpoint("orders") || !strings.HasPrefix(*p.Endpoint, "https://") {
		t.Fatalf("endpoint = %s, want %s", *p.Endpoint, h.endpoint("orders"))
	}
	if *p.InputSchema != armeventgrid.InputSchemaEventGridSchema || *p.PublicNetworkAccess != armeventgrid.PublicNetworkAccessEnabled {
		t.Fatalf("defaults: inputSchema=%s publicNetworkAccess=%s", *p.InputSchema, *p.PublicNetworkAccess)
	}

	got, err := c.Get(ctx(t), resourceGroup, "orders", nil)
	if err != nil || *got.Name != "orders" {
		t.Fatalf("get: %v", err)
	}

	poller, err := c.BeginUpdate(ctx(t), resourceGroup, "orders", armeventgrid.TopicUpdateParameters{
		Tags:       map[string]*string{"env": to.Ptr("test")},
		Properties: &armeventgrid.TopicUpdateParameterProperties{DisableLocalAuth: to.Ptr(false), PublicNetworkAccess: to.Ptr(armeventgrid.PublicNetworkAccessDisabled)},
	}, nil)
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	updated, err := poller.PollUntilDone(ctx(t), nil)
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if *updated.Tags["env"] != "test" || *updated.Properties.PublicNetworkAccess != armeventgrid.PublicNetworkAccessDisabled {
		t.Fatalf("update not applied: %+v", updated.Properties)
	}

	key1, key2 := h.keys("orders")
	if len(key1) != 44 || len(key2) != 44 || key1 == key2 {
		t.Fatalf("keys %q %q: want two distinct 44-character base64 keys", key1, key2)
	}
	regen, err := c.BeginRegenerateKey(ctx(t), resourceGroup, "orders", armeventgrid.TopicRegenerateKeyRequest{KeyName: to.Ptr("key1")}, nil)
	if err != nil {
		t.Fatalf("regenerateKey: %v", err)
	}
	keys, err := regen.PollUntilDone(ctx(t), nil)
	if err != nil {
		t.Fatalf("regenerateKey: %v", err)
	}
	if *keys.Key1 == key1 || *keys.Key2 != key2 {
		t.Fatalf("regenerateKey key1: key1 changed=%v key2 kept=%v", *keys.Key1 != key1, *keys.Key2 == key2)
	}

	del, err := c.BeginDelete(ctx(t), resourceGroup, "orders", nil)
	if err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := del.PollUntilDone(ctx(t), nil); err != nil {
		t.Fatalf("delete: %v", err)
	}
	_, err = c.Get(ctx(t), resourceGroup, "orders", nil)
	if status, code := responseErrorCode(t, err); status != http.StatusNotFound || code != "ResourceNotFound" {
		t.Fatalf("get after delete: %d %s", status, code)
	}
	// DELETE is idempotent: a second one is 204 too.
	if _, err := c.BeginDelete(ctx(t), resourceGroup, "orders", nil); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

// Lists by resource group and by subscription follow absolute nextLinks
// page by page ($top), and $filter=contains(name,'x') narrows them.
func TestTopicListsPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, name := range []string{"alpha", "beta", "gamma"} {
		h.createTopic(name, armeventgrid.InputSchemaEventGridSchema, nil)
	}
	collect := func(pages interface {
		More() bool
	}, next func() ([]*armeventgrid.Topic, error)) (names []string, pageCount int) {
		for pages.More() {
			items, err := next()
			if err != nil {
				t.Fatal(err)
			}
			pageCount++
			for _, tp := range items {
				names = append(names, *tp.Name)
			}
		}
		return names, pageCount
	}

	byRG := h.topics().NewListByResourceGroupPager(resourceGroup, &armeventgrid.TopicsClientListByResourceGroupOptions{Top: to.Ptr[int32](2)})
	names, pages := collect(byRG, func() ([]*armeventgrid.Topic, error) {
		p, err := byRG.NextPage(ctx(t))
		return p.Value, err
	})
	if strings.Join(names, ",") != "alpha,beta,gamma" || pages != 2 {
		t.Fatalf("by resource group: %v in %d pages, want alpha,beta,gamma in 2", names, pages)
	}

	bySub := h.topics().NewListBySubscriptionPager(&armeventgrid.TopicsClientListBySubscriptionOptions{Top: to.Ptr[int32](1)})
	names, pages = collect(bySub, func() ([]*armeventgrid.Topic, error) {
		p, err := bySub.NextPage(ctx(t))
		return p.Value, err
	})
	if len(names) != 3 || pages != 3 {
		t.Fatalf("by subscription: %v in %d pages, want 3 in 3", names, pages)
	}

	filtered := h.topics().NewListBySubscriptionPager(&armeventgrid.TopicsClientListBySubscriptionOptions{Filter: to.Ptr("contains(name,'AM')")})
	names, _ = collect(filtered, func() ([]*armeventgrid.Topic, error) {
		p, err := filtered.NextPage(ctx(t))
		return p.Value, err
	})
	if strings.Join(names, ",") != "gamma" {
		t.Fatalf("filtered: %v, want gamma", names)
	}
}

// Topic PUTs Azure refuses are 400s (bad name, no location, changed input
// schema) or a 409 (name taken in another resource group).
func TestTopicPutRejections(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.topics()
	h.createTopic("taken", armeventgrid.InputSchemaEventGridSchema, nil)

	cases := []struct {
		name, rg, topic string
		body            armeventgrid.Topic
		status          int
	}{
		{"name too short", resourceGroup, "ab", armeventgrid.Topic{Location: to.Ptr("westus2")}, 400},
		{"reserved prefix", resourceGroup, "microsoft-x", armeventgrid.Topic{Location: to.Ptr("westus2")}, 400},
		{"no location", resourceGroup, "nolocation", armeventgrid.Topic{}, 400},
		{"input schema change", resourceGroup, "taken", armeventgrid.Topic{Location: to.Ptr("westus2"),
			Properties: &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaCloudEventSchemaV10)}}, 400},
		{"name taken elsewhere", "rg2", "taken", armeventgrid.Topic{Location: to.Ptr("westus2")}, 409},
	}
	for _, tc := range cases {
		_, err := c.BeginCreateOrUpdate(ctx(t), tc.rg, tc.topic, tc.body, nil)
		if status, _ := responseErrorCode(t, err); status != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, status, tc.status)
		}
	}
}
