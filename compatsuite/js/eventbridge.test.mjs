// @aws-sdk/client-eventbridge against GridBridge's EventBridge API: a custom
// bus, a rule with an SQS target, an event routed into the SQS server that
// GridBridge delivers to (read back with @aws-sdk/client-sqs), and the
// teardown. Skipped, and shown as "not yet" in the README, when the binary
// does not serve EventBridge.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CreateEventBusCommand,
  DeleteEventBusCommand,
  DeleteRuleCommand,
  DescribeEventBusCommand,
  DescribeRuleCommand,
  EventBridgeClient,
  ListEventBusesCommand,
  ListRulesCommand,
  ListTargetsByRuleCommand,
  PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
  TestEventPatternCommand,
} from "@aws-sdk/client-eventbridge";
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
import { AWS_ACCOUNT, AWS_CREDENTIALS, AWS_REGION, HTTP, deliveries, deliveryQueue, expectAWSError, skipUnlessServed } from "./helpers.mjs";

const EB = "@aws-sdk/client-eventbridge";
const SQS = "@aws-sdk/client-sqs";
const served = skipUnlessServed("EVENTBRIDGE");

const BUS = "compat-bus";
const RULE = "compat-orders";
const PATTERN = { source: ["compat.orders"], "detail-type": ["OrderPlaced"], detail: { total: [{ numeric: [">", 10] }] } };

const events = new EventBridgeClient({ endpoint: HTTP, region: AWS_REGION, credentials: AWS_CREDENTIALS, maxAttempts: 1 });
const queue = deliveryQueue("compat-orders", served);

const busArn = `arn:aws:events:${AWS_REGION}:${AWS_ACCOUNT}:event-bus/${BUS}`;
const ruleArn = `arn:aws:events:${AWS_REGION}:${AWS_ACCOUNT}:rule/${BUS}/${RULE}`;
let eventId;

test(`${EB} › CreateEventBus`, served, async () => {
  const out = await events.send(new CreateEventBusCommand({ Name: BUS, Description: "compatibility suite" }));
  assert.equal(out.$metadata.httpStatusCode, 200);
  assert.equal(out.EventBusArn, busArn);
  await expectAWSError(() => events.send(new CreateEventBusCommand({ Name: BUS })), "ResourceAlreadyExistsException", 400);
});

test(`${EB} › DescribeEventBus`, served, async () => {
  const out = await events.send(new DescribeEventBusCommand({ Name: BUS }));
  assert.equal(out.Name, BUS);
  assert.equal(out.Arn, busArn);
  assert.equal(out.Description, "compatibility suite");
});

test(`${EB} › ListEventBuses`, served, async () => {
  const out = await events.send(new ListEventBusesCommand({ NamePrefix: BUS }));
  assert.deepEqual(out.EventBuses.map((b) => b.Name), [BUS]);
  const all = await events.send(new ListEventBusesCommand({}));
  assert.ok(all.EventBuses.some((b) => b.Name === "default"), "the default bus always exists");
});

test(`${EB} › PutRule`, served, async () => {
  const out = await events.send(
    new PutRuleCommand({ Name: RULE, EventBusName: BUS, EventPattern: JSON.stringify(PATTERN), State: "ENABLED" }),
  );
  assert.equal(out.RuleArn, ruleArn);
  await expectAWSError(
    () => events.send(new PutRuleCommand({ Name: "compat-bad", EventBusName: BUS, EventPattern: "{not json" })),
    "InvalidEventPatternException",
    400,
  );
});

test(`${EB} › DescribeRule`, served, async () => {
  const out = await events.send(new DescribeRuleCommand({ Name: RULE, EventBusName: BUS }));
  assert.equal(out.Name, RULE);
  assert.equal(out.Arn, ruleArn);
  assert.equal(out.EventBusName, BUS);
  assert.equal(out.State, "ENABLED");
  assert.deepEqual(JSON.parse(out.EventPattern), PATTERN);
});

test(`${EB} › ListRules`, served, async () => {
  const out = await events.send(new ListRulesCommand({ EventBusName: BUS }));
  assert.deepEqual(out.Rules.map((r) => [r.Name, r.Arn, r.State]), [[RULE, ruleArn, "ENABLED"]]);
});

test(`${EB} › PutTargets (SQS queue)`, served, async () => {
  const out = await events.send(new PutTargetsCommand({ Rule: RULE, EventBusName: BUS, Targets: [{ Id: "queue", Arn: queue.arn }] }));
  assert.equal(out.FailedEntryCount, 0);
  assert.deepEqual(out.FailedEntries, []);
});

test(`${EB} › ListTargetsByRule`, served, async () => {
  const out = await events.send(new ListTargetsByRuleCommand({ Rule: RULE, EventBusName: BUS }));
  assert.deepEqual(out.Targets.map((t) => [t.Id, t.Arn]), [["queue", queue.arn]]);
});

test(`${EB} › TestEventPattern`, served, async () => {
  const event = (total) =>
    JSON.stringify({
      id: "1", account: AWS_ACCOUNT, source: "compat.orders", time: "2026-01-01T00:00:00Z", region: AWS_REGION,
      resources: [], "detail-type": "OrderPlaced", detail: { total },
    });
  const hit = await events.send(new TestEventPatternCommand({ EventPattern: JSON.stringify(PATTERN), Event: event(42) }));
  assert.equal(hit.Result, true);
  const miss = await events.send(new TestEventPatternCommand({ EventPattern: JSON.stringify(PATTERN), Event: event(5) }));
  assert.equal(miss.Result, false);
});

test(`${EB} › PutEvents`, served, async () => {
  const entry = (total) => ({
    EventBusName: BUS, Source: "compat.orders", DetailType: "OrderPlaced",
    Detail: JSON.stringify({ orderId: `o-${total}`, total }), Resources: [`arn:aws:compat:::order/o-${total}`],
  });
  const out = await events.send(new PutEventsCommand({ Entries: [entry(42), entry(5)] }));
  assert.equal(out.FailedEntryCount, 0);
  assert.equal(out.Entries.length, 2);
  for (const e of out.Entries) assert.match(e.EventId, /^[0-9a-f-]{36}$/);
  eventId = out.Entries[0].EventId;
  // Only the event with total > 10 matches the rule: one delivery, to the queue.
  const [attempt] = await deliveries({ bus: BUS, rule: RULE, target: "queue", outcome: "Success" });
  assert.deepEqual(attempt.eventIds, [eventId]);
  const bad = await events.send(new PutEventsCommand({ Entries: [{ EventBusName: BUS, Source: "compat.orders", DetailType: "OrderPlaced", Detail: "{not json" }] }));
  assert.equal(bad.FailedEntryCount, 1);
  assert.equal(bad.Entries[0].ErrorCode, "MalformedDetail");
});

test(`${SQS} › ReceiveMessage (an EventBridge SQS target's delivery)`, served, async () => {
  assert.ok(eventId, "needs the PutEvents test's event");
  const out = await queue.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 10 }));
  assert.equal(out.Messages?.length, 1, "exactly the one matching event reaches the queue");
  const [msg] = out.Messages;
  const body = JSON.parse(msg.Body);
  assert.equal(body.version, "0");
  assert.equal(body.id, eventId);
  assert.equal(body["detail-type"], "OrderPlaced");
  assert.equal(body.source, "compat.orders");
  assert.equal(body.account, AWS_ACCOUNT);
  assert.equal(body.region, AWS_REGION);
  assert.deepEqual(body.resources, ["arn:aws:compat:::order/o-42"]);
  assert.deepEqual(body.detail, { orderId: "o-42", total: 42 });
  assert.ok(!Number.isNaN(Date.parse(body.time)), `time ${body.time}`);
  await queue.sqs.send(new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: msg.ReceiptHandle }));
});

test(`${EB} › RemoveTargets`, served, async () => {
  await expectAWSError(() => events.send(new DeleteRuleCommand({ Name: RULE, EventBusName: BUS })), "ValidationException", 400);
  const out = await events.send(new RemoveTargetsCommand({ Rule: RULE, EventBusName: BUS, Ids: ["queue"] }));
  assert.equal(out.FailedEntryCount, 0);
  const left = await events.send(new ListTargetsByRuleCommand({ Rule: RULE, EventBusName: BUS }));
  assert.deepEqual(left.Targets, []);
});

test(`${EB} › DeleteRule`, served, async () => {
  await events.send(new DeleteRuleCommand({ Name: RULE, EventBusName: BUS }));
  await expectAWSError(() => events.send(new DescribeRuleCommand({ Name: RULE, EventBusName: BUS })), "ResourceNotFoundException", 400);
});

test(`${EB} › DeleteEventBus`, served, async () => {
  await events.send(new DeleteEventBusCommand({ Name: BUS }));
  await expectAWSError(() => events.send(new DescribeEventBusCommand({ Name: BUS })), "ResourceNotFoundException", 400);
});
