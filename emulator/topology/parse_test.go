package topology_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/topology"
	"github.com/gridbridge/gridbridge/internal/facetest"
)

const sameAsYAML = `eventgrid:
  topics:
    - name: orders
      inputSchema: CloudEventSchemaV1_0
      keys: { key1: "a2V5LW9uZQ==" }
      subscriptions:
        - name: audit
          webhook: https://app:8443/events
          filter: { includedEventTypes: [a, b], isSubjectCaseSensitive: true }
          retryPolicy: { maxDeliveryAttempts: 3, eventTimeToLiveInMinutes: 30 }
  namespaces:
    - name: shop
      topics:
        - name: events
          subscriptions:
            - name: pusher
              webhook: https://app:8443/push
              push: { maxDeliveryCount: 4 }
eventbridge:
  buses:
    - name: shop
      rules:
        - name: big
          eventPattern: { source: [shop], detail: { n: [{ numeric: [">", 1.5] }] } }
          targets:
            - { id: q1, arn: "arn:aws:sqs:us-east-1:000000000000:q1", input: { a: [1, true, null] } }
  v2:
    buses:
      - name: orders
        subscribers:
          - name: s1
            invokeConfiguration: { targetArn: "arn:aws:sqs:us-east-1:000000000000:q" }
`

// sameAsJSON is testdata/same-as-yaml.json: the topology above spelled in JSON.
func sameAsJSON(t *testing.T) []byte {
	t.Helper()
	return facetest.Golden(t, "same-as-yaml.json")
}

// withoutSources clears what differs between two spellings of one file:
// its name and the lines resources are declared on.
func withoutSources(f *topology.File) *topology.File {
	c := *f
	c.Name = ""
	clear := func(s *topology.Source) { *s = topology.Source{} }
	if c.EventGrid != nil {
		eg := *c.EventGrid
		for i := range eg.Topics {
			clear(&eg.Topics[i].Source)
			for j := range eg.Topics[i].Subscriptions {
				clear(&eg.Topics[i].Subscriptions[j].Source)
			}
		}
		for i := range eg.Namespaces {
			clear(&eg.Namespaces[i].Source)
			for j := range eg.Namespaces[i].Topics {
				clear(&eg.Namespaces[i].Topics[j].Source)
				for k := range eg.Namespaces[i].Topics[j].Subscriptions {
					clear(&eg.Namespaces[i].Topics[j].Subscriptions[k].Source)
				}
			}
		}
		c.EventGrid = &eg
	}
	if c.EventBridge != nil {
		eb := *c.EventBridge
		for i := range eb.Buses {
			clear(&eb.Buses[i].Source)
			for j := range eb.Buses[i].Rules {
				clear(&eb.Buses[i].Rules[j].Source)
				for k := range eb.Buses[i].Rules[j].Targets {
					clear(&eb.Buses[i].Rules[j].Targets[k].Source)
				}
			}
		}
		for i := range eb.V2Buses {
			clear(&eb.V2Buses[i].Source)
			for j := range eb.V2Buses[i].Subscribers {
				clear(&eb.V2Buses[i].Subscribers[j].Source)
			}
		}
		c.EventBridge = &eb
	}
	return &c
}

func TestParseReadsJSONAndYAMLAlike(t *testing.T) {
	t.Parallel()
	fromYAML := mustParse(t, "t.yaml", sameAsYAML)
	fromJSON, err := topology.Parse("t.json", sameAsJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	y, _ := json.Marshal(withoutSources(fromYAML))
	j, _ := json.Marshal(withoutSources(fromJSON))
	if string(y) != string(j) {
		t.Errorf("the same topology differs by format:\nYAML %s\nJSON %s", y, j)
	}
	// JSON is recognised by its content too, whatever the file is called.
	if _, err := topology.Parse("topology.conf", sameAsJSON(t)); err != nil {
		t.Errorf("JSON in a file not named .json: %v", err)
	}
	if _, err := topology.Parse("t.json", append([]byte("\ufeff"), sameAsJSON(t)...)); err != nil {
		t.Errorf("JSON after a byte-order mark: %v", err)
	}
}

func TestParseFillsDefaultsAndRecordsWhereResourcesAre(t *testing.T) {
	t.Parallel()
	f := mustParse(t, "t.yaml", sameAsYAML)
	eg, eb := f.EventGrid, f.EventBridge
	if eg.SubscriptionID != topology.DefaultSubscriptionID || eg.ResourceGroup != "gridbridge" || eg.Location != "westus" {
		t.Errorf("Event Grid defaults: %q %q %q", eg.SubscriptionID, eg.ResourceGroup, eg.Location)
	}
	if eb.Region != "us-east-1" || eb.Account != "000000000000" {
		t.Errorf("EventBridge defaults: %q %q", eb.Region, eb.Account)
	}
	checks := []struct {
		got  topology.Source
		want topology.Source
	}{
		{eg.Topics[0].Source, topology.Source{Line: 3, Field: "eventgrid.topics[0]"}},
		{eg.Topics[0].Subscriptions[0].Source, topology.Source{Line: 7, Field: "eventgrid.topics[0].subscriptions[0]"}},
		{eg.Namespaces[0].Topics[0].Subscriptions[0].Source, topology.Source{Line: 16, Field: "eventgrid.namespaces[0].topics[0].subscriptions[0]"}},
		{eb.Buses[0].Rules[0].Targets[0].Source, topology.Source{Line: 26, Field: "eventbridge.buses[0].rules[0].targets[0]"}},
		{eb.V2Buses[0].Subscribers[0].Source, topology.Source{Line: 31, Field: "eventbridge.v2.buses[0].subscribers[0]"}},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("source %+v, want %+v", c.got, c.want)
		}
	}
	if got := eg.Topics[0].Keys; got != (topology.Keys{Key1: "a2V5LW9uZQ=="}) {
		t.Errorf("keys %+v: key2 must stay empty, to be generated", got)
	}
}

func TestParseTurnsMappingsIntoTheJSONTheAPIsTake(t *testing.T) {
	t.Parallel()
	src := yamlLines(
		"eventbridge:",
		"  account: 000000000000", // a number in YAML, text to AWS
		"  buses:",
		"    - name: default",
		"      rules:",
		"        - name: written-as-mapping",
		"          eventPattern: { source: [shop], detail: { n: [{ numeric: ['>', 0x10, '<=', 2.50] }], ok: [true], gone: [null] } }",
		"          scheduleExpression: rate(1 minute)",
		"        - name: written-as-text",
		`          eventPattern: '{ "source" : ["shop"] }'`,
	)
	f := mustParse(t, "t.yaml", src)
	eb := f.EventBridge
	if eb.Account != "000000000000" {
		t.Errorf("account %q", eb.Account)
	}
	rules := eb.Buses[0].Rules
	// Keys keep their order; numbers become JSON numbers (0x10 is 16).
	if want := `{"source":["shop"],"detail":{"n":[{"numeric":[">",16,"<=",2.50]}],"ok":[true],"gone":[null]}}`; rules[0].EventPattern != want {
		t.Errorf("pattern from a mapping:\n got %s\nwant %s", rules[0].EventPattern, want)
	}
	if want := `{ "source" : ["shop"] }`; rules[1].EventPattern != want {
		t.Errorf("pattern given as text must be sent verbatim: %s", rules[1].EventPattern)
	}
}

func TestParseFollowsAnchorsAndMergeKeys(t *testing.T) {
	t.Parallel()
	src := yamlLines(
		"eventgrid:",
		"  topics:",
		"    - name: orders",
		"      subscriptions:",
		"        - &hook",
		"          name: audit",
		"          webhook: http://app/events",
		"          retryPolicy: &retry { maxDeliveryAttempts: 3 }",
		"        - <<: *hook",
		"          name: audit-2", // the mapping's own key wins over the merged one
		"        - name: audit-3",
		"          webhook: http://app/other",
		"          retryPolicy: *retry",
	)
	f := mustParse(t, "t.yaml", src)
	subs := f.EventGrid.Topics[0].Subscriptions
	if len(subs) != 3 || subs[1].Name != "audit-2" || subs[1].Webhook != "http://app/events" || subs[2].RetryPolicy.MaxDeliveryAttempts != 3 {
		t.Errorf("subscriptions: %+v", subs)
	}
}

func TestParseRefusesAnAliasBomb(t *testing.T) {
	t.Parallel()
	// Each level doubles the one before: 2^40 values if expanded.
	var b strings.Builder
	b.WriteString("eventgrid:\n  topics:\n    - name: orders\n      subscriptions:\n        - name: audit\n          webhook: http://app/events\n          filter:\n            l0: &l0 [1, 1]\n")
	for i := 1; i <= 40; i++ {
		n, prev := strconv.Itoa(i), strconv.Itoa(i-1)
		b.WriteString("            l" + n + ": &l" + n + " [*l" + prev + ", *l" + prev + "]\n")
	}
	_, err := topology.Parse("t.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than 1000000 values") {
		t.Fatalf("Parse = %v, want the expansion refused", err)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "topology.json")
	if err := os.WriteFile(path, sameAsJSON(t), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := topology.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != path || len(f.EventGrid.Topics) != 1 {
		t.Errorf("Load read %+v", f)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("eventgrid:\n  topcis: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := topology.Load(bad); err == nil || err.Error() != bad+":2: eventgrid.topcis: unknown field; did you mean topics?" {
		t.Errorf("Load of a bad file: %v", err)
	}

	if _, err := topology.Load(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file = %v, want fs.ErrNotExist", err)
	}
}

func TestParseKeepsEveryTargetMember(t *testing.T) {
	t.Parallel()
	src := yamlLines(
		"eventbridge:",
		"  buses:",
		"    - name: shop",
		"      rules:",
		"        - name: r1",
		"          eventPattern: { source: [shop] }",
		"          targets:",
		"            - id: api",
		"              arn: arn:aws:events:us-east-1:000000000000:api-destination/orders/1",
		"              roleArn: arn:aws:iam::000000000000:role/events",
		"              httpParameters: { pathParameterValues: [a], headerParameters: { X-Token: t }, queryStringParameters: { q: '1' } }",
		"              kinesisParameters: { partitionKeyPath: $.id }",
		"              ecsParameters: { TaskDefinitionArn: arn, NetworkConfiguration: { awsvpcConfiguration: { Subnets: [s] } } }",
	)
	f := mustParse(t, "t.yaml", src)
	got, _ := json.Marshal(f.EventBridge.Buses[0].Rules[0].Targets[0].Members)
	want := `{"Arn":"arn:aws:events:us-east-1:000000000000:api-destination/orders/1",` +
		`"EcsParameters":{"TaskDefinitionArn":"arn","NetworkConfiguration":{"awsvpcConfiguration":{"Subnets":["s"]}}},` +
		`"HttpParameters":{"HeaderParameters":{"X-Token":"t"},"PathParameterValues":["a"],"QueryStringParameters":{"q":"1"}},` +
		`"Id":"api","KinesisParameters":{"PartitionKeyPath":"$.id"},"RoleArn":"arn:aws:iam::000000000000:role/events"}`
	if string(got) != want {
		t.Errorf("members:\n got %s\nwant %s", got, want)
	}
	if f.EventBridge.Buses[0].Rules[0].Targets[0].ID != "api" {
		t.Errorf("id %q", f.EventBridge.Buses[0].Rules[0].Targets[0].ID)
	}
}
