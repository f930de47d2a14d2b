// @azure/identity against GridBridge's offline Entra ID authority, and
// @azure/arm-resources (resource groups, providers) with its tokens. MSAL
// asks login.microsoftonline.com about an authority host it does not know
// unless instance discovery is off; the AD FS shape (tenant "adfs") never
// asks, so DefaultAzureCredential works from environment variables alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ClientSecretCredential, DefaultAzureCredential } from "@azure/identity";
import { ResourceManagementClient } from "@azure/arm-resources";
import { EventGridPublisherClient } from "@azure/eventgrid";
import { HTTPS, SUBSCRIPTION_ID, armClient, expectRestError } from "./helpers.mjs";

const ID = "@azure/identity";
const RM = "@azure/arm-resources";
const ARM_SCOPE = "https://management.azure.com/.default";
const EG_SCOPE = "https://eventgrid.azure.net/.default";
const RG = "compat-js-identity";

function claims(token) {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
}

const entra = new ClientSecretCredential("72f988bf-86f1-41af-91ab-2d7cd011db47", "compat-js", "compat-secret", {
  authorityHost: HTTPS,
  disableInstanceDiscovery: true,
});

test(`${ID} › ClientSecretCredential.getToken (Entra authority, disableInstanceDiscovery)`, async () => {
  const { token, expiresOnTimestamp } = await entra.getToken(ARM_SCOPE);
  const c = claims(token);
  assert.equal(c.aud.replace(/\/$/, ""), "https://management.azure.com");
  assert.equal(c.appid, "compat-js");
  assert.equal(c.tid, "72f988bf-86f1-41af-91ab-2d7cd011db47");
  assert.ok(expiresOnTimestamp > Date.now());
});

test(`${ID} › ClientSecretCredential.getToken (AD FS authority)`, async () => {
  const adfs = new ClientSecretCredential("adfs", "compat-js-adfs", "compat-secret", { authorityHost: HTTPS });
  const { token } = await adfs.getToken(EG_SCOPE);
  assert.equal(claims(token).aud.replace(/\/$/, ""), "https://eventgrid.azure.net");
  assert.equal(claims(token).iss, `${HTTPS}/adfs`);
});

test(`${ID} › DefaultAzureCredential.getToken (AZURE_* environment variables)`, async () => {
  // What a deployed app sets; this file runs in its own process.
  Object.assign(process.env, {
    AZURE_TENANT_ID: "adfs",
    AZURE_CLIENT_ID: "compat-js-env",
    AZURE_CLIENT_SECRET: "compat-secret",
    AZURE_AUTHORITY_HOST: HTTPS,
  });
  const { token } = await new DefaultAzureCredential().getToken(ARM_SCOPE);
  assert.equal(claims(token).appid, "compat-js-env");
});

test(`${RM} › resourceGroups.createOrUpdate / get / checkExistence / list / beginDeleteAndWait`, async () => {
  const rm = new ResourceManagementClient(entra, SUBSCRIPTION_ID, { endpoint: HTTPS, credentialScopes: [ARM_SCOPE] });
  const rg = await rm.resourceGroups.createOrUpdate(RG, { location: "westeurope", tags: { suite: "js" } });
  assert.equal(rg.name, RG);
  assert.equal(rg.properties.provisioningState, "Succeeded");
  assert.deepEqual((await rm.resourceGroups.get(RG)).tags, { suite: "js" });
  assert.equal((await rm.resourceGroups.checkExistence(RG)).body, true);
  const names = [];
  for await (const g of rm.resourceGroups.list()) names.push(g.name);
  assert.ok(names.includes(RG), `${RG} not in ${names}`);
  await rm.resourceGroups.beginDeleteAndWait(RG);
  await expectRestError(() => rm.resourceGroups.get(RG), 404);
});

test(`${RM} › providers.get / register`, async () => {
  const rm = new ResourceManagementClient(entra, SUBSCRIPTION_ID, { endpoint: HTTPS, credentialScopes: [ARM_SCOPE] });
  assert.equal((await rm.providers.get("Microsoft.EventGrid")).registrationState, "Registered");
  assert.equal((await rm.providers.register("Microsoft.Storage")).registrationState, "Registered");
});

test(`@azure/eventgrid › EventGridPublisherClient.send (ClientSecretCredential; an ARM token gets 401)`, async () => {
  const arm = armClient();
  const topic = await arm.topics.beginCreateOrUpdateAndWait("compat-js-identity", "compat-js-token", { location: "westeurope" });
  const event = { id: "js-token-1", eventType: "Orders.Placed", subject: "orders/1", dataVersion: "1.0", data: {} };
  await new EventGridPublisherClient(topic.endpoint, "EventGrid", entra).send([event]);
  const armOnly = { getToken: () => entra.getToken(ARM_SCOPE) };
  await expectRestError(() => new EventGridPublisherClient(topic.endpoint, "EventGrid", armOnly).send([event]), 401);
  await arm.topics.beginDeleteAndWait("compat-js-identity", "compat-js-token");
});
