// @azure/eventgrid against GridBridge's publish endpoint: every input schema
// and credential kind, each send followed to the webhook it is delivered to.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  AzureKeyCredential,
  AzureSASCredential,
  EventGridDeserializer,
  EventGridPublisherClient,
  generateSharedAccessSignature,
} from "@azure/eventgrid";
import { armClient, deliveries, expectRestError, fakeCredential, startWebhook } from "./helpers.mjs";

const P = "@azure/eventgrid";
const RG = "compat-publish";

const arm = armClient();
const hook = await startWebhook();
after(() => hook.close());
const deserializer = new EventGridDeserializer();

// One topic per input schema, each with one webhook subscription whose name
// (unique in the suite) is also the webhook path.
const topics = {
  eventGrid: { name: "compat-publish-eg", inputSchema: "EventGridSchema", sub: "publish-eg" },
  cloudEvent: { name: "compat-publish-ce", inputSchema: "CloudEventSchemaV1_0", sub: "publish-ce" },
  custom: { name: "compat-publish-custom", inputSchema: "CustomEventSchema", sub: "publish-custom" },
};

before(async () => {
  await Promise.all(
    Object.values(topics).map(async (t) => {
      const topic = await arm.topics.beginCreateOrUpdateAndWait(RG, t.name, { location: "westeurope", inputSchema: t.inputSchema });
      t.id = topic.id;
      t.endpoint = topic.endpoint;
      t.key = (await arm.topics.listSharedAccessKeys(RG, t.name)).key1;
      await arm.eventSubscriptions.beginCreateOrUpdateAndWait(topic.id, t.sub, {
        destination: { endpointType: "WebHook", endpointUrl: hook.url(t.sub) },
      });
    }),
  );
});

// delivered waits for the webhook delivery to sub that carries event id.
async function delivered(sub, id) {
  const n = await hook.waitFor((n) => n.path === `/${sub}` && [n.json].flat().some((e) => (e.id ?? e.orderId) === id));
  assert.equal(n.headers["aeg-event-type"], "Notification");
  assert.equal(n.headers["aeg-subscription-name"], sub.toUpperCase());
  return n;
}

const kept = {};

test(`${P} › EventGridPublisherClient.send (EventGrid schema, AzureKeyCredential)`, async () => {
  const t = topics.eventGrid;
  const client = new EventGridPublisherClient(t.endpoint, "EventGrid", new AzureKeyCredential(t.key));
  await client.send([
    { id: "eg-1", eventType: "Orders.Placed", subject: "orders/1", dataVersion: "1.0", data: { total: 42 } },
    { id: "eg-2", eventType: "Orders.Placed", subject: "orders/2", dataVersion: "1.0", data: { total: 7 } },
  ]);
  for (const [id, total] of [["eg-1", 42], ["eg-2", 7]]) {
    const n = await delivered(t.sub, id);
    assert.match(n.headers["content-type"], /^application\/json/);
    assert.equal(n.json.length, 1, "a subscription without batching gets one event per request");
    const [e] = n.json;
    assert.equal(e.topic, t.id);
    assert.equal(e.eventType, "Orders.Placed");
    assert.equal(e.subject, `orders/${id.slice(3)}`);
    assert.equal(e.dataVersion, "1.0");
    assert.equal(e.metadataVersion, "1");
    assert.deepEqual(e.data, { total });
    assert.ok(!Number.isNaN(Date.parse(e.eventTime)), `eventTime ${e.eventTime}`);
    kept.eventGrid = n.body;
  }
  // The inspection API saw the same successful first attempt.
  const [attempt] = await deliveries({ subscription: t.sub, event: "eg-1", outcome: "Success" });
  assert.equal(attempt.status, 200);
  assert.deepEqual(attempt.eventIds, ["eg-1"]);
});

test(`${P} › EventGridPublisherClient.send (CloudEvent schema, AzureKeyCredential)`, async () => {
  const t = topics.cloudEvent;
  // The CloudEvents subscription was validated with the OPTIONS handshake.
  const handshakes = hook.handshakes.filter((h) => h.path === `/${t.sub}`);
  assert.deepEqual(handshakes.map((h) => h.kind), ["cloudevents"]);
  assert.equal(handshakes[0].origin, "eventgrid.azure.net");

  const client = new EventGridPublisherClient(t.endpoint, "CloudEvent", new AzureKeyCredential(t.key));
  await client.send([
    {
      id: "ce-1", type: "Orders.Placed", source: "/compat/orders", subject: "orders/3",
      data: { total: 3 }, extensionAttributes: { tenant: "contoso" },
    },
  ]);
  const n = await delivered(t.sub, "ce-1");
  assert.match(n.headers["content-type"], /^application\/cloudevents\+json/);
  const e = n.json;
  assert.equal(e.specversion, "1.0");
  assert.equal(e.type, "Orders.Placed");
  assert.equal(e.source, "/compat/orders");
  assert.equal(e.subject, "orders/3");
  assert.equal(e.tenant, "contoso");
  assert.equal(e.datacontenttype, "application/json");
  assert.deepEqual(e.data, { total: 3 });
  kept.cloudEvent = n.body;
});

test(`${P} › EventGridPublisherClient.send (Custom schema, AzureKeyCredential)`, async () => {
  const t = topics.custom;
  const client = new EventGridPublisherClient(t.endpoint, "Custom", new AzureKeyCredential(t.key));
  const event = { orderId: "custom-1", kind: "placed", lines: [{ sku: "A-1", qty: 2 }] };
  await client.send([event]);
  const n = await delivered(t.sub, "custom-1");
  // A custom-schema topic delivers the events exactly as they were sent.
  assert.deepEqual(n.json, [event]);
});

test(`${P} › EventGridPublisherClient.send (AzureSASCredential from generateSharedAccessSignature)`, async () => {
  const t = topics.eventGrid;
  const sas = await generateSharedAccessSignature(t.endpoint, new AzureKeyCredential(t.key), new Date(Date.now() + 3_600_000));
  assert.match(sas, /^r=.+&e=.+&s=.+$/);
  const client = new EventGridPublisherClient(t.endpoint, "EventGrid", new AzureSASCredential(sas));
  await client.send([{ id: "sas-1", eventType: "Orders.Shipped", subject: "orders/1", dataVersion: "1.0", data: {} }]);
  const n = await delivered(t.sub, "sas-1");
  assert.equal(n.json[0].eventType, "Orders.Shipped");
});

test(`${P} › EventGridPublisherClient.send (TokenCredential)`, async () => {
  const t = topics.eventGrid;
  const client = new EventGridPublisherClient(t.endpoint, "EventGrid", fakeCredential);
  await client.send([{ id: "token-1", eventType: "Orders.Cancelled", subject: "orders/1", dataVersion: "1.0", data: {} }]);
  const n = await delivered(t.sub, "token-1");
  assert.equal(n.json[0].eventType, "Orders.Cancelled");
});

test(`${P} › EventGridPublisherClient.send with a wrong key (RestError 401)`, async () => {
  const t = topics.eventGrid;
  const client = new EventGridPublisherClient(t.endpoint, "EventGrid", new AzureKeyCredential(Buffer.alloc(32, 1).toString("base64")));
  await expectRestError(
    () => client.send([{ id: "wrong-1", eventType: "T", subject: "s", dataVersion: "1.0", data: {} }]),
    401,
  );
  await assert.rejects(
    () => client.send([{ id: "wrong-2", eventType: "T", subject: "s", dataVersion: "1.0", data: {} }]),
    /does not match either key of the topic/,
  );
});

test(`${P} › EventGridPublisherClient.send with an expired SAS (RestError 401)`, async () => {
  const t = topics.eventGrid;
  const sas = await generateSharedAccessSignature(t.endpoint, new AzureKeyCredential(t.key), new Date("2020-01-01T00:00:00Z"));
  const client = new EventGridPublisherClient(t.endpoint, "EventGrid", new AzureSASCredential(sas));
  await expectRestError(() => client.send([{ id: "expired-1", eventType: "T", subject: "s", dataVersion: "1.0", data: {} }]), 401);
  await assert.rejects(
    () => client.send([{ id: "expired-2", eventType: "T", subject: "s", dataVersion: "1.0", data: {} }]),
    /SAS token has expired/,
  );
});

test(`${P} › EventGridDeserializer.deserializeEventGridEvents (a delivered request)`, async () => {
  assert.ok(kept.eventGrid, "needs the EventGrid-schema delivery of the send test");
  const [e] = await deserializer.deserializeEventGridEvents(kept.eventGrid);
  assert.equal(e.topic, topics.eventGrid.id);
  assert.equal(e.eventType, "Orders.Placed");
  assert.ok(e.eventTime instanceof Date && !Number.isNaN(e.eventTime.getTime()));
  assert.equal(e.dataVersion, "1.0");
});

test(`${P} › EventGridDeserializer.deserializeCloudEvents (a delivered request)`, async () => {
  assert.ok(kept.cloudEvent, "needs the CloudEvent-schema delivery of the send test");
  const [e] = await deserializer.deserializeCloudEvents(kept.cloudEvent);
  assert.equal(e.id, "ce-1");
  assert.equal(e.type, "Orders.Placed");
  assert.equal(e.source, "/compat/orders");
  assert.ok(e.time instanceof Date && !Number.isNaN(e.time.getTime()));
  assert.deepEqual(e.data, { total: 3 });
  assert.deepEqual(e.extensionAttributes, { tenant: "contoso" });
});
