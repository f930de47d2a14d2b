// @azure/arm-eventgrid and @azure/eventgrid against GridBridge's domains: a
// domain, a domain topic, a subscription on it, and one publish naming two
// domain topics. The tests run in order and share state.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { AzureKeyCredential, EventGridPublisherClient } from "@azure/eventgrid";
import { armClient, startWebhook, SUBSCRIPTION_ID } from "./helpers.mjs";

const P = "@azure/arm-eventgrid";
const RG = "compat-domains";
const DOMAIN = "compat-tenants";
const DOMAIN_ID = `/subscriptions/${SUBSCRIPTION_ID}/resourceGroups/${RG}/providers/Microsoft.EventGrid/domains/${DOMAIN}`;
const SUB = "domain-audit";

const arm = armClient();
const hook = await startWebhook();
after(() => hook.close());

let domain;

test(`${P} › domains.beginCreateOrUpdateAndWait`, async () => {
  domain = await arm.domains.beginCreateOrUpdateAndWait(RG, DOMAIN, { location: "westeurope", inputSchema: "EventGridSchema" });
  assert.equal(domain.id, DOMAIN_ID);
  assert.equal(domain.type, "Microsoft.EventGrid/domains");
  assert.equal(domain.provisioningState, "Succeeded");
  assert.equal(domain.autoCreateTopicWithFirstSubscription, true);
  assert.equal(domain.autoDeleteTopicWithLastSubscription, true);
  assert.match(domain.endpoint, new RegExp(`^https://.+/domains/${DOMAIN}/api/events$`));
});

test(`${P} › domains.listByResourceGroup`, async () => {
  const names = [];
  for await (const d of arm.domains.listByResourceGroup(RG)) names.push(d.name);
  assert.deepEqual(names, [DOMAIN]);
});

test(`${P} › domainTopics.beginCreateOrUpdateAndWait`, async () => {
  const t = await arm.domainTopics.beginCreateOrUpdateAndWait(RG, DOMAIN, "contoso");
  assert.equal(t.id, `${DOMAIN_ID}/topics/contoso`);
  assert.equal(t.provisioningState, "Succeeded");
  const names = [];
  for await (const dt of arm.domainTopics.listByDomain(RG, DOMAIN)) names.push(dt.name);
  assert.deepEqual(names, ["contoso"]);
});

test(`${P} › domainTopicEventSubscriptions.beginCreateOrUpdateAndWait (WebHook)`, async () => {
  const sub = await arm.domainTopicEventSubscriptions.beginCreateOrUpdateAndWait(RG, DOMAIN, "contoso", SUB, {
    destination: { endpointType: "WebHook", endpointUrl: hook.url(SUB) },
  });
  assert.equal(sub.provisioningState, "Succeeded");
  const names = [];
  for await (const s of arm.domainTopicEventSubscriptions.list(RG, DOMAIN, "contoso")) names.push(s.name);
  assert.deepEqual(names, [SUB]);
});

test(`@azure/eventgrid › EventGridPublisherClient.send (domain, events for two domain topics)`, async () => {
  const { key1 } = await arm.domains.listSharedAccessKeys(RG, DOMAIN);
  const client = new EventGridPublisherClient(domain.endpoint, "EventGrid", new AzureKeyCredential(key1));
  await client.send([
    { id: "d-1", topic: "contoso", eventType: "Tenant.Updated", subject: "t/1", dataVersion: "1.0", data: { n: 1 } },
    { id: "d-2", topic: "fabrikam", eventType: "Tenant.Updated", subject: "t/2", dataVersion: "1.0", data: { n: 2 } },
  ]);
  const n = await hook.waitFor((n) => n.path === `/${SUB}`);
  assert.equal(n.json.length, 1);
  assert.equal(n.json[0].id, "d-1");
  assert.equal(n.json[0].topic, `${DOMAIN_ID}/topics/contoso`);
});

test(`${P} › domains.beginDeleteAndWait`, async () => {
  await arm.domains.beginDeleteAndWait(RG, DOMAIN);
  const names = [];
  for await (const d of arm.domains.listByResourceGroup(RG)) names.push(d.name);
  assert.deepEqual(names, []);
});
