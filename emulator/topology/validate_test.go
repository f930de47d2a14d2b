package topology_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/emulator/topology"
)

// yamlLines joins lines into a file, so each case shows its line numbers
// by position.
func yamlLines(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// mustParse parses src as the topology file name, failing the test if it
// is refused.
func mustParse(t *testing.T, name, src string) *topology.File {
	t.Helper()
	f, err := topology.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseReportsEveryProblemWithItsLineAndField(t *testing.T) {
	t.Parallel()
	const arn = "arn:aws:sqs:us-east-1:000000000000:q"
	tests := []struct {
		name, file, src string
		want            []string // without the "file:" prefix
	}{
		// The file as a whole.
		{"YAML syntax", "t.yaml", yamlLines("eventgrid:", "  topics: ["),
			[]string{"2: YAML syntax error: did not find expected node content"}},
		{"JSON syntax, with JSON's own message", "t.json", yamlLines(`{`, `  "eventgrid": {`, `    "topics": [`, `      {"name": "orders",}`, `    ]`, `  }`, `}`),
			[]string{"4: JSON syntax error: invalid character '}' looking for beginning of object key string"}},
		{"empty", "t.yaml", "", []string{" is empty; declare eventgrid and/or eventbridge resources"}},
		{"only comments", "t.yaml", "# nothing yet\n", []string{" is empty; declare eventgrid and/or eventbridge resources"}},
		{"two documents", "t.yaml", yamlLines("eventgrid: {}", "---", "eventbridge: {}"),
			[]string{"2: holds more than one YAML document (---); put everything in one"}},
		{"not a mapping", "t.yaml", yamlLines("- eventgrid"), []string{"1: must be a mapping, not a list"}},
		{"nothing declared", "t.yaml", "{}\n", []string{"1: declares nothing; expected eventgrid and/or eventbridge"}},

		// Unknown fields.
		{"unknown field near a known one", "t.yaml", yamlLines("eventgird: {}"),
			[]string{"1: eventgird: unknown field; did you mean eventgrid?"}},
		{"unknown field far from any", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: orders", "      colour: blue"),
			[]string{"4: eventgrid.topics[0].colour: unknown field; the fields here are name, inputSchema, inputSchemaMapping, keys, subscriptions"}},
		{"a typo in a subscription", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhok: http://app/events"),
			[]string{
				"5: eventgrid.topics[0].subscriptions[0]: needs webhook (an http(s) URL) or destination (an ARM destination object)",
				"6: eventgrid.topics[0].subscriptions[0].webhok: unknown field; did you mean webhook?",
			}},
		{"camelCase and PascalCase of one member", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          EventPattern: {source: [a]}", "          eventPattern: {source: [b]}"),
			[]string{`7: eventbridge.buses[0].rules[0].eventPattern: "EventPattern" and "eventPattern" name the same field (first at line 6)`}},
		{"unknown AWS member", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern: {source: [a]}", "          targets:",
				"            - { id: a, arn: '"+arn+"', retryPolicy: { maxAge: 5 } }"),
			[]string{"8: eventbridge.buses[0].rules[0].targets[0].retryPolicy.maxAge: unknown field; the fields here are maximumRetryAttempts, maximumEventAgeInSeconds"}},

		// Types.
		{"a mapping where a list belongs", "t.yaml", yamlLines("eventgrid:", "  topics:", "    name: orders"),
			[]string{"2: eventgrid.topics: must be a list, not a mapping"}},
		{"a list where text belongs", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: [orders]"),
			[]string{"3: eventgrid.topics[0].name: must be text, not a list"}},
		{"text where a number belongs", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: http://app/events", "          retryPolicy: { maxDeliveryAttempts: five }"),
			[]string{`7: eventgrid.topics[0].subscriptions[0].retryPolicy.maxDeliveryAttempts: must be a whole number, not the text "five"`}},
		{"quoted text where a boolean belongs", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: http://app/events", `          skipValidation: "yes"`),
			[]string{`7: eventgrid.topics[0].subscriptions[0].skipValidation: must be true or false, not the text "yes"`}},
		{"an empty value where a pattern belongs", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern:"),
			[]string{"6: eventbridge.buses[0].rules[0].eventPattern: must be a mapping or JSON object text, not an empty value"}},
		{"a list where a text map belongs", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern: {source: [a]}", "          targets:",
				"            - id: a", "              arn: "+arn, "              inputTransformer: { inputPathsMap: { t: [x] }, inputTemplate: '<t>' }"),
			[]string{"10: eventbridge.buses[0].rules[0].targets[0].inputTransformer.inputPathsMap.t: must be text, not a list"}},
		{"an event pattern that is neither a mapping nor JSON", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", `          eventPattern: "{source: [a]}"`),
			[]string{"6: eventbridge.buses[0].rules[0].eventPattern: must be JSON text or a mapping; the text is not JSON: invalid character 's' looking for beginning of object key string"}},

		// Names.
		{"a missing name", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - inputSchema: EventGridSchema"),
			[]string{"3: eventgrid.topics[0].name: is required"}},
		{"an empty name", "t.yaml", yamlLines("eventbridge:", "  buses:", `    - name: ""`),
			[]string{"3: eventbridge.buses[0].name: is required"}},
		{"a name Azure refuses", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: system-orders", "    - name: o_1"),
			[]string{
				"3: eventgrid.topics[0].name: must not start with Microsoft, EventGrid or System (Azure reserves them)",
				"4: eventgrid.topics[1].name: must be 3 to 50 letters, digits and hyphens",
			}},
		{"Azure names are the same in any case", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: orders", "    - name: Orders"),
			[]string{`4: eventgrid.topics[1].name: duplicate topic name "Orders" (first at line 3)`}},
		{"a duplicate rule name on one bus", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - { name: r1, eventPattern: {source: [a]} }", "        - { name: r1, eventPattern: {source: [b]} }"),
			[]string{`6: eventbridge.buses[0].rules[1].name: duplicate rule name "r1" (first at line 5)`}},
		{"subscriber names are unique across v2 buses", "t.yaml",
			yamlLines("eventbridge:", "  v2:", "    buses:", "      - name: b1", "        subscribers:", "          - { name: s1, invokeConfiguration: { targetArn: '"+arn+"' } }",
				"      - name: b2", "        subscribers:", "          - { name: s1, invokeConfiguration: { targetArn: '"+arn+"' } }"),
			[]string{`9: eventbridge.v2.buses[1].subscribers[0].name: duplicate subscriber name "s1" (first at line 6)`}},
		{"a key written twice", "t.yaml", yamlLines("eventgrid:", "  location: westus", "  location: eastus"),
			[]string{"3: eventgrid.location: duplicate key (first at line 2)"}},

		// Values.
		{"a webhook that is not http(s)", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: ftp://app/events"),
			[]string{"6: eventgrid.topics[0].subscriptions[0].webhook: must be an http(s) URL"}},
		{"webhook and destination together", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: http://app/events", "          destination: { endpointType: WebHook }"),
			[]string{"7: eventgrid.topics[0].subscriptions[0].destination: cannot be set together with webhook (webhook is the short form of a WebHook destination)"}},
		{"an input schema ARM does not know", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: orders", "      inputSchema: CustomInputSchema", "    - name: events", "      inputSchema: CloudEvents"),
			[]string{
				"4: eventgrid.topics[0].inputSchema: must be one of EventGridSchema, CloudEventSchemaV1_0, CustomEventSchema; did you mean CustomEventSchema?",
				"6: eventgrid.topics[1].inputSchema: must be one of EventGridSchema, CloudEventSchemaV1_0, CustomEventSchema",
			}},
		{"a key that is not base64", "t.yaml", yamlLines("eventgrid:", "  topics:", "    - name: orders", "      keys: { key1: not-base64! }"),
			[]string{"4: eventgrid.topics[0].keys.key1: must be a base64 key, e.g. the output of `openssl rand -base64 32`"}},
		{"Azure's limits and storage names", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: http://app/events",
				"          retryPolicy: { maxDeliveryAttempts: 31 }", "          deadLetter: { account: Dev_Account, container: dl }"),
			[]string{
				"7: eventgrid.topics[0].subscriptions[0].retryPolicy.maxDeliveryAttempts: must be between 1 and 30",
				"8: eventgrid.topics[0].subscriptions[0].deadLetter.account: must be a storage account name: 3 to 24 lowercase letters and digits",
				"8: eventgrid.topics[0].subscriptions[0].deadLetter.container: must be a blob container name: 3 to 63 lowercase letters, digits and single hyphens",
			}},
		{"an ARN that is not one", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern: {source: [a]}", "          targets:", "            - id: q1", "              arn: sqs-orders"),
			[]string{"9: eventbridge.buses[0].rules[0].targets[0].arn: must be an ARN such as arn:aws:sqs:us-east-1:000000000000:orders"}},
		{"a region and an account AWS would not have", "t.yaml", yamlLines("eventbridge:", "  region: useast1", "  account: 1234"),
			[]string{"2: eventbridge.region: must be an AWS region such as us-east-1", "3: eventbridge.account: must be a 12-digit AWS account id"}},
		{"a rule with neither pattern nor schedule", "t.yaml", yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1"),
			[]string{"5: eventbridge.buses[0].rules[0]: needs eventPattern or scheduleExpression (or both)"}},
		{"a schedule off the default bus", "t.yaml", yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          scheduleExpression: rate(1 minute)"),
			[]string{`6: eventbridge.buses[0].rules[0].scheduleExpression: is supported only on the default bus (AWS refuses a schedule on bus "shop")`}},
		{"two inputs on one target", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern: {source: [a]}", "          targets:",
				"            - id: q1", "              arn: "+arn, "              input: '{}'", "              inputPath: $.detail"),
			[]string{"8: eventbridge.buses[0].rules[0].targets[0]: input, inputPath and inputTransformer exclude each other; set one"}},
		{"a sixth target and a duplicate id", "t.yaml",
			yamlLines("eventbridge:", "  buses:", "    - name: shop", "      rules:", "        - name: r1", "          eventPattern: {source: [a]}", "          targets:",
				"            - {id: a, arn: '"+arn+"'}", "            - {id: b, arn: '"+arn+"'}", "            - {id: c, arn: '"+arn+"'}",
				"            - {id: d, arn: '"+arn+"'}", "            - {id: e, arn: '"+arn+"'}", "            - {id: a, arn: '"+arn+"'}"),
			[]string{
				"7: eventbridge.buses[0].rules[0].targets: has 6 targets; a rule has at most 5",
				`13: eventbridge.buses[0].rules[0].targets[5].id: duplicate target id "a" (first at line 8)`,
			}},
		{"a required AWS member", "t.yaml", yamlLines("eventbridge:", "  v2:", "    buses:", "      - name: b1", "        subscribers:", "          - name: s1"),
			[]string{"6: eventbridge.v2.buses[0].subscribers[0].invokeConfiguration: is required"}},
		{"push without a webhook", "t.yaml",
			yamlLines("eventgrid:", "  namespaces:", "    - name: shop", "      topics:", "        - name: orders", "          subscriptions:", "            - name: pusher", "              push: { maxDeliveryCount: 3 }"),
			[]string{"8: eventgrid.namespaces[0].topics[0].subscriptions[0].push: needs webhook, the URL to push to"}},
		{"a number JSON cannot hold", "t.yaml",
			yamlLines("eventgrid:", "  topics:", "    - name: orders", "      subscriptions:", "        - name: audit", "          webhook: http://app/events",
				"          filter:", "            advancedFilters: [{ key: data.n, operatorType: NumberLessThan, value: .inf }]"),
			[]string{"8: eventgrid.topics[0].subscriptions[0].filter.advancedFilters[0].value: is not a number JSON can hold: .inf"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, err := topology.Parse(tc.file, []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse accepted the file: %+v", f)
			}
			var invalid *topology.InvalidFileError
			if !errors.As(err, &invalid) {
				t.Fatalf("error is %T, want *topology.InvalidFileError: %v", err, err)
			}
			// A problem of the whole file has no line: its want starts
			// with the space after "file:".
			want := make([]string, len(tc.want))
			for i, w := range tc.want {
				want[i] = tc.file + ":" + w
			}
			if got := err.Error(); got != strings.Join(want, "\n") {
				t.Errorf("Parse error:\n got %s\nwant %s", got, strings.Join(want, "\n"))
			}
		})
	}
}
