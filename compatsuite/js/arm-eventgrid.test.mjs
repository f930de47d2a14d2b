// @azure/arm-eventgrid against GridBridge's ARM face: the life of a topic and
// of a webhook event subscription. The tests run in order and share state.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { armClient, expectRestError, startWebhook, SUBSCRIPTION_ID } from "./helpers.mjs";

const P = "@azure/arm-eventgrid";
const RG = "compat-arm";
const TOPIC = "compat-arm-orders";
const SUB = "audit";
const TOPIC_ID = `/subscriptions/${SUBSCRIPTION_ID}/resourceGroups/${RG}/providers/Microsoft.EventGrid/topics/${TOPIC}`;

const arm = armClient();
const hook = await startWebhook();
after(() => hook.close());
// The query is part of the secret URL that only getFullUrl reveals.
const hookURL = hook.url("audit") + "?code=s3cret";

let keys;

test(`${P} › topics.beginCreateOrUpdateAndWait`, async () => {
  const topic = await arm.topics.beginCreateOrUpdateAndWait(RG, TOPIC, {
    location: "westeurope",
    tags: { team: "orders" },
    inputSchema: "EventGridSchema",
  });
  assert.equal(topic.id, TOPIC_ID);
  assert.equal(topic.name, TOPIC);
  assert.equal(topic.type, "Microsoft.EventGrid/topics");
  assert.equal(topic.location, "westeurope");
  assert.deepEqual(topic.tags, { team: "orders" });
  assert.equal(topic.provisioningState, "Succeeded");
  assert.equal(topic.inputSchema, "EventGridSchema");
  assert.match(topic.endpoint, new RegExp(`^https://.+/topics/${TOPIC}/api/events$`));
});

test(`${P} › topics.get`, async () => {
  const topic = await arm.topics.get(RG, TOPIC);
  assert.equal(topic.id, TOPIC_ID);
  assert.equal(topic.provisioningState, "Succeeded");
  assert.deepEqual(topic.tags, { team: "orders" });
  await expectRestError(() => arm.topics.get(RG, "compat-arm-missing"), 404);
});

test(`${P} › topics.beginUpdateAndWait`, async () => {
  // This SDK version resolves the update with no body; the change shows in a get.
  await arm.topics.beginUpdateAndWait(RG, TOPIC, { tags: { team: "billing" } });
  const topic = await arm.topics.get(RG, TOPIC);
  assert.deepEqual(topic.tags, { team: "billing" });
  assert.equal(topic.provisioningState, "Succeeded");
});

test(`${P} › topics.listByResourceGroup`, async () => {
  const names = [];
  for await (const t of arm.topics.listByResourceGroup(RG)) names.push(t.name);
  assert.deepEqual(names, [TOPIC]);
});

test(`${P} › topics.listSharedAccessKeys`, async () => {
  keys = await arm.topics.listSharedAccessKeys(RG, TOPIC);
  assert.equal(Buffer.from(keys.key1, "base64").length, 32, `key1 ${keys.key1} is not 32 bytes of base64`);
  assert.equal(Buffer.from(keys.key2, "base64").length, 32, `key2 ${keys.key2} is not 32 bytes of base64`);
  assert.notEqual(keys.key1, keys.key2);
});

test(`${P} › topics.beginRegenerateKeyAndWait`, async () => {
  const regenerated = await arm.topics.beginRegenerateKeyAndWait(RG, TOPIC, { keyName: "key2" });
  assert.equal(regenerated.key1, keys.key1, "key1 must not change");
  assert.notEqual(regenerated.key2, keys.key2, "key2 must change");
  assert.deepEqual(await arm.topics.listSharedAccessKeys(RG, TOPIC), regenerated);
  await expectRestError(() => arm.topics.beginRegenerateKeyAndWait(RG, TOPIC, { keyName: "key3" }), 400);
});

test(`${P} › eventSubscriptions.beginCreateOrUpdateAndWait (WebHook)`, async () => {
  const sub = await arm.eventSubscriptions.beginCreateOrUpdateAndWait(TOPIC_ID, SUB, {
    destination: { endpointType: "WebHook", endpointUrl: hookURL, maxEventsPerBatch: 1 },
    filter: { includedEventTypes: ["Orders.Placed"], subjectBeginsWith: "orders/" },
    retryPolicy: { maxDeliveryAttempts: 5, eventTimeToLiveInMinutes: 60 },
    labels: ["compat"],
  });
  assert.equal(sub.id, `${TOPIC_ID}/providers/Microsoft.EventGrid/eventSubscriptions/${SUB}`);
  assert.equal(sub.name, SUB);
  assert.equal(sub.provisioningState, "Succeeded");
  // Azure writes the provider of the topic id in lower case here.
  assert.equal(sub.topic.toLowerCase(), TOPIC_ID.toLowerCase());
  assert.equal(sub.destination.endpointType, "WebHook");
  assert.equal(sub.destination.endpointBaseUrl, hook.url("audit"));
  assert.deepEqual(sub.retryPolicy, { maxDeliveryAttempts: 5, eventTimeToLiveInMinutes: 60 });
  // GridBridge validated the endpoint before answering, as Azure does.
  const handshakes = hook.handshakes.filter((h) => h.path.startsWith("/audit"));
  assert.equal(handshakes.length, 1, "want one SubscriptionValidationEvent handshake");
  assert.equal(handshakes[0].kind, "eventgrid");
  assert.equal(handshakes[0].event.topic, TOPIC_ID);
});

test(`${P} › eventSubscriptions.get`, async () => {
  const sub = await arm.eventSubscriptions.get(TOPIC_ID, SUB);
  assert.equal(sub.provisioningState, "Succeeded");
  assert.equal(sub.destination.endpointBaseUrl, hook.url("audit"));
  assert.equal(sub.destination.endpointUrl ?? null, null, "GET must not reveal the full endpoint URL");
  assert.deepEqual(sub.filter.includedEventTypes, ["Orders.Placed"]);
  assert.equal(sub.filter.subjectBeginsWith, "orders/");
  assert.deepEqual(sub.labels, ["compat"]);
  await expectRestError(() => arm.eventSubscriptions.get(TOPIC_ID, "missing"), 404);
});

test(`${P} › eventSubscriptions.listByResource`, async () => {
  const names = [];
  for await (const s of arm.eventSubscriptions.listByResource(RG, "Microsoft.EventGrid", "topics", TOPIC)) names.push(s.name);
  assert.deepEqual(names, [SUB]);
});

test(`${P} › topicEventSubscriptions.list`, async () => {
  const names = [];
  for await (const s of arm.topicEventSubscriptions.list(RG, TOPIC)) names.push(s.name);
  assert.deepEqual(names, [SUB]);
});

test(`${P} › eventSubscriptions.getFullUrl`, async () => {
  const full = await arm.eventSubscriptions.getFullUrl(TOPIC_ID, SUB);
  assert.equal(full.endpointUrl, hookURL);
});

test(`${P} › eventSubscriptions.beginDeleteAndWait`, async () => {
  await arm.eventSubscriptions.beginDeleteAndWait(TOPIC_ID, SUB);
  await expectRestError(() => arm.eventSubscriptions.get(TOPIC_ID, SUB), 404);
  const names = [];
  for await (const s of arm.topicEventSubscriptions.list(RG, TOPIC)) names.push(s.name);
  assert.deepEqual(names, []);
});

test(`${P} › topics.beginDeleteAndWait`, async () => {
  await arm.topics.beginDeleteAndWait(RG, TOPIC);
  await expectRestError(() => arm.topics.get(RG, TOPIC), 404);
  const names = [];
  for await (const t of arm.topics.listByResourceGroup(RG)) names.push(t.name);
  assert.deepEqual(names, []);
});
