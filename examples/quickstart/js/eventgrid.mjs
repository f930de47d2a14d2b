// Event Grid from Node: @azure/arm-eventgrid creates a topic and a webhook
// subscription, @azure/eventgrid publishes to it with the topic's key and
// with a SAS token, and the webhook below receives both.
//
//   go run ./cmd/emulator                         # in another terminal
//   npm ci --prefix examples/quickstart/js
//   curl -s http://127.0.0.1:4080/_emulator/ca.pem > gridbridge-ca.pem
//   NODE_EXTRA_CA_CERTS=gridbridge-ca.pem node examples/quickstart/js/eventgrid.mjs
//
// The SDKs send keys and tokens only over HTTPS, so Node must trust the CA
// the emulator generated at start: NODE_EXTRA_CA_CERTS, read when Node starts.
import assert from "node:assert/strict";
import http from "node:http";
import { EventGridManagementClient } from "@azure/arm-eventgrid";
import { AzureKeyCredential, AzureSASCredential, EventGridPublisherClient, generateSharedAccessSignature } from "@azure/eventgrid";
import { ClientSecretCredential } from "@azure/identity";

const HTTPS = process.env.GRIDBRIDGE_TLS_URL ?? "https://127.0.0.1:4443";
const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";

// The emulator is an Entra ID authority too: any tenant, client id and
// secret get a token. MSAL must not ask login.microsoftonline.com about it.
const credential = new ClientSecretCredential(SUBSCRIPTION, "quickstart", "any-secret", {
  authorityHost: HTTPS,
  disableInstanceDiscovery: true,
});
// credentialScopes is required: without it the client asks for a token for
// its endpoint (https://127.0.0.1:4443/.default), and ARM refuses that
// audience with 401 InvalidAuthenticationTokenAudience.
const arm = new EventGridManagementClient(credential, SUBSCRIPTION, {
  endpoint: HTTPS,
  credentialScopes: ["https://management.azure.com/.default"],
});

// The webhook answers Event Grid's validation handshake and keeps the events.
const received = new Map();
const waiting = new Map();
const hook = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const events = JSON.parse(body);
  if (req.headers["aeg-event-type"] === "SubscriptionValidation") {
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ validationResponse: events[0].data.validationCode }));
    return;
  }
  for (const e of events) {
    received.set(e.id, e);
    waiting.get(e.id)?.(e);
  }
  res.writeHead(200).end();
});
await new Promise((resolve) => hook.listen(0, "127.0.0.1", resolve));
const delivered = (id) => received.get(id) ?? new Promise((resolve) => waiting.set(id, resolve));

const topic = await arm.topics.beginCreateOrUpdateAndWait("quickstart", "js-orders", { location: "westus" });
await arm.eventSubscriptions.beginCreateOrUpdateAndWait(topic.id, "audit", {
  destination: { endpointType: "WebHook", endpointUrl: `http://127.0.0.1:${hook.address().port}/events` },
});
const { key1 } = await arm.topics.listSharedAccessKeys("quickstart", "js-orders");

const order = (id) => ({ id, eventType: "Orders.Placed", subject: `orders/${id}`, dataVersion: "1.0", data: { total: 42 } });
await new EventGridPublisherClient(topic.endpoint, "EventGrid", new AzureKeyCredential(key1)).send([order("with-key")]);
const sas = await generateSharedAccessSignature(topic.endpoint, new AzureKeyCredential(key1), new Date(Date.now() + 3_600_000));
await new EventGridPublisherClient(topic.endpoint, "EventGrid", new AzureSASCredential(sas)).send([order("with-sas")]);

const timeout = setTimeout(() => assert.fail("no delivery within 10 s"), 10_000);
assert.deepEqual((await delivered("with-key")).data, { total: 42 });
assert.equal((await delivered("with-sas")).subject, "orders/with-sas");
clearTimeout(timeout);
hook.close();
console.log(`ok: ${topic.name} delivered with-key and with-sas to the webhook`);
