package armspec_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel/modeltest"
	"github.com/gridbridge/gridbridge/compat/azure/armspec"
	"github.com/gridbridge/gridbridge/testkit"
)

// Where each resource type of the table is PUT.
var resourcePaths = func() map[string]string {
	rg := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/constraints/providers/Microsoft.EventGrid"
	return map[string]string{
		"topics":                            rg + "/topics/topic1",
		"domains":                           rg + "/domains/domain1",
		"domains_topics":                    rg + "/domains/domain1/topics/topic1",
		"systemTopics":                      rg + "/systemTopics/systopic1",
		"topics_eventSubscriptions":         rg + "/topics/topic1/eventSubscriptions/sub1",
		"domains_eventSubscriptions":        rg + "/domains/domain1/eventSubscriptions/sub1",
		"domains_topics_eventSubscriptions": rg + "/domains/domain1/topics/topic1/eventSubscriptions/sub1",
		"systemTopics_eventSubscriptions":   rg + "/systemTopics/systopic1/eventSubscriptions/sub1",
	}
}()

var trackedResources = map[string]bool{"topics": true, "domains": true, "systemTopics": true}

// TestEventGridARMEnforcesTheSpecification sends a PUT per constraint of
// the table (a missing required member, one past each bound, a value
// outside each enum and pattern, everything else valid) to the emulator as
// testkit starts it, and checks ARM's answer: 400 InvalidRequest in ARM's
// error shape, its message naming the member.
func TestEventGridARMEnforcesTheSpecification(t *testing.T) {
	t.Parallel()
	emu := testkit.Start(t)
	put := func(path, body string) *http.Response {
		req, err := http.NewRequest(http.MethodPut, emu.TLSURL()+path+"?api-version=2025-02-15", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer x")
		req.Header.Set("Content-Type", "application/json")
		resp, err := emu.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	// The parents of the nested resources exist, so that what answers is
	// the body's check, not a missing parent.
	for _, parent := range []string{resourcePaths["topics"], resourcePaths["domains"], resourcePaths["domains_topics"]} {
		body := `{"location":"westus"}`
		if strings.HasSuffix(parent, "/topics/topic1") && strings.Contains(parent, "/domains/") {
			body = `{}`
		}
		resp := put(parent, body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("PUT %s: %d", parent, resp.StatusCode)
		}
	}
	cases, _ := modeltest.Cases(armspec.EventGrid(), armspec.Wording())
	for _, c := range cases {
		path, ok := resourcePaths[c.Op]
		if !ok {
			t.Fatalf("no path for %s", c.Op)
		}
		t.Run(c.Name(), func(t *testing.T) {
			t.Parallel()
			// A tracked resource's location, which the template schema the
			// table comes from leaves out of its required members.
			if _, ok := c.Body["location"]; !ok && trackedResources[c.Op] {
				c.Body["location"] = "westus"
			}
			body, _ := json.Marshal(c.Body)
			resp := put(path, string(body))
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			_ = json.Unmarshal(raw, &e)
			// The member is named by its name: the face's own checks, which
			// the table's run before, write paths from the properties down.
			if resp.StatusCode != http.StatusBadRequest || e.Error.Code != "InvalidRequest" || !strings.Contains(e.Error.Message, c.Want.Member) {
				t.Errorf("want 400 InvalidRequest naming %s (%s)\nsent PUT %s: %.300s\ngot %d: %.300s", c.Want.Member, c.Want.Path, path, body, resp.StatusCode, raw)
			}
		})
	}
}

// TestTableCounts logs what the table holds and what no case is made for.
func TestTableCounts(t *testing.T) {
	t.Parallel()
	cases, skipped := modeltest.Cases(armspec.EventGrid(), armspec.Wording())
	made, left := modeltest.Counts(cases, skipped)
	t.Logf("Microsoft.EventGrid: %s constraints with a case, %s left out", made, left)
	for _, s := range skipped {
		t.Logf("left out %s %s %s: %s", s.Op, s.Path, s.Kind, s.Reason)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
}

// Every template the face PUTs to names a resource type of the table.
func TestResourceTypeOfTemplates(t *testing.T) {
	t.Parallel()
	for template, want := range map[string]string{
		"/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.EventGrid/topics/{topic}":                                                                      "topics",
		"/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.EventGrid/domains/{domain}/topics/{topic}":                                                     "domains_topics",
		"/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.EventGrid/topics/{topic}/providers/Microsoft.EventGrid/eventSubscriptions/{eventSubscription}": "topics_eventSubscriptions",
		"/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Storage/storageAccounts/{storageAccount}":                                                      "",
	} {
		if got := armspec.ResourceType(template); got != want {
			t.Errorf("%s: %q, want %q", template, got, want)
		}
	}
}
