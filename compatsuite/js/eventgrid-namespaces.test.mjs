// @azure/eventgrid-namespaces against GridBridge's namespace data plane: send,
// then receive and settle every way (acknowledge, release, reject, renew).
// The namespace, topic and Queue subscription are made through ARM REST
// calls (the pinned @azure/arm-eventgrid predates namespaces). Skipped, and
// shown as "not yet" in the README, when the binary serves no namespaces.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { AzureKeyCredential, EventGridReceiverClient, EventGridSenderClient } from "@azure/eventgrid-namespaces";
import { HTTPS, SUBSCRIPTION_ID, expectRestError, fakeCredential, skipUnlessServed } from "./helpers.mjs";

const P = "@azure/eventgrid-namespaces";
const served = skipUnlessServed("NAMESPACES");
const RG = "compat-namespaces";
const NS = "compat-ns";
const TOPIC = "orders";
const SUB = "billing";

// arm sends one ARM request and returns its JSON body, failing on an error.
async function arm(method, path, body) {
  const { token } = await fakeCredential.getToken();
  const url = `${HTTPS}/subscriptions/${SUBSCRIPTION_ID}/resourceGroups/${RG}/providers/Microsoft.EventGrid/namespaces/${NS}${path}?api-version=2025-02-15`;
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${url}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

let sender;
let receiver;
let endpoint;

before(async () => {
  if (served.skip) return;
  const ns = await arm("PUT", "", { location: "westeurope", sku: { name: "Standard", capacity: 1 } });
  assert.equal(ns.properties.provisioningState, "Succeeded");
  endpoint = `https://${ns.properties.topicsConfiguration.hostname}`;
  const { key1 } = await arm("POST", "/listKeys");
  await arm("PUT", `/topics/${TOPIC}`, { properties: { inputSchema: "CloudEventSchemaV1_0", publisherType: "Custom" } });
  await arm("PUT", `/topics/${TOPIC}/eventSubscriptions/${SUB}`, {
    properties: {
      eventDeliverySchema: "CloudEventSchemaV1_0",
      deliveryConfiguration: { deliveryMode: "Queue", queue: { receiveLockDurationInSeconds: 60, maxDeliveryCount: 5 } },
    },
  });
  sender = new EventGridSenderClient(endpoint, new AzureKeyCredential(key1), TOPIC);
  receiver = new EventGridReceiverClient(endpoint, new AzureKeyCredential(key1), TOPIC, SUB);
});

// received holds the first receive's details by event id.
const received = {};

async function receive(maxEvents) {
  const { details } = await receiver.receiveEvents({ maxEvents, maxWaitTime: 10 });
  return details;
}

test(`${P} › EventGridSenderClient.sendEvents`, served, async () => {
  const event = (n) => ({
    id: `ns-${n}`, type: "Orders.Placed", source: "/compat/orders", subject: `orders/${n}`,
    time: new Date(), data: { n }, datacontenttype: "application/json",
  });
  await sender.sendEvents([event(1), event(2), event(3)]);
  await sender.sendEvents(event(4));
  const wrong = new EventGridSenderClient(endpoint, new AzureKeyCredential(Buffer.alloc(32, 1).toString("base64")), TOPIC);
  await expectRestError(() => wrong.sendEvents(event(5)), 401);
  const missing = new EventGridSenderClient(endpoint, fakeCredential, "no-such-topic");
  await expectRestError(() => missing.sendEvents(event(6)), 404);
});

test(`${P} › EventGridReceiverClient.receiveEvents`, served, async () => {
  const details = await receive(10);
  assert.deepEqual(details.map((d) => d.event.id), ["ns-1", "ns-2", "ns-3", "ns-4"], "sent events, in order, and no others");
  for (const d of details) {
    assert.equal(d.event.type, "Orders.Placed");
    assert.equal(d.event.source, "/compat/orders");
    assert.equal(d.event.subject, `orders/${d.event.id.slice(3)}`);
    assert.deepEqual(d.event.data, { n: Number(d.event.id.slice(3)) });
    assert.ok(d.event.time instanceof Date);
    assert.equal(d.brokerProperties.deliveryCount, 1);
    assert.ok(d.brokerProperties.lockToken, "a lock token");
    received[d.event.id] = d;
  }
});

test(`${P} › EventGridReceiverClient.acknowledgeEvents`, served, async () => {
  const token = received["ns-1"].brokerProperties.lockToken;
  const res = await receiver.acknowledgeEvents([token]);
  assert.deepEqual(res, { succeededLockTokens: [token], failedLockTokens: [] });
  // A settled event's token is spent.
  const again = await receiver.acknowledgeEvents([token]);
  assert.deepEqual(again.succeededLockTokens, []);
  assert.equal(again.failedLockTokens.length, 1);
  assert.equal(again.failedLockTokens[0].lockToken, token);
  assert.ok(again.failedLockTokens[0].error.code, "the failure names an error code");
});

test(`${P} › EventGridReceiverClient.releaseEvents`, served, async () => {
  const token = received["ns-2"].brokerProperties.lockToken;
  const res = await receiver.releaseEvents([token]);
  assert.deepEqual(res, { succeededLockTokens: [token], failedLockTokens: [] });
  // Released, the event is delivered again; ns-3 and ns-4 are still locked.
  const [again, ...rest] = await receive(10);
  assert.equal(rest.length, 0);
  assert.equal(again.event.id, "ns-2");
  assert.equal(again.brokerProperties.deliveryCount, 2);
  const ack = await receiver.acknowledgeEvents([again.brokerProperties.lockToken]);
  assert.deepEqual(ack.succeededLockTokens, [again.brokerProperties.lockToken]);
});

test(`${P} › EventGridReceiverClient.rejectEvents`, served, async () => {
  const token = received["ns-3"].brokerProperties.lockToken;
  const res = await receiver.rejectEvents([token]);
  assert.deepEqual(res, { succeededLockTokens: [token], failedLockTokens: [] });
  const again = await receiver.releaseEvents([token]);
  assert.equal(again.failedLockTokens.length, 1, "a rejected event cannot be released");
});

test(`${P} › EventGridReceiverClient.renewEventLocks`, served, async () => {
  const token = received["ns-4"].brokerProperties.lockToken;
  const res = await receiver.renewEventLocks([token]);
  assert.deepEqual(res, { succeededLockTokens: [token], failedLockTokens: [] });
  const ack = await receiver.acknowledgeEvents([token]);
  assert.deepEqual(ack.succeededLockTokens, [token], "the renewed lock still settles the event");
  const unknown = await receiver.renewEventLocks(["not-a-lock-token"]);
  assert.equal(unknown.failedLockTokens.length, 1);
});
