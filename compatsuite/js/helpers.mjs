// Shared pieces of GridBridge's compatibility suite. compatsuite_test.go
// starts the emulator binary and runs the *.test.mjs files with:
//   GRIDBRIDGE_HTTP, GRIDBRIDGE_HTTPS   the emulator's two listeners
//   NODE_EXTRA_CA_CERTS                 the emulator's CA, so the SDKs trust HTTPS
//   GRIDBRIDGE_COMPAT_EVENTBRIDGE       "served" or "not-served"
//   GRIDBRIDGE_COMPAT_NAMESPACES        "served" or "not-served"
//   GRIDBRIDGE_COMPAT_SQS               the SQS server GridBridge delivers SQS targets to
//   GRIDBRIDGE_SQS_API                  a binary serving the SQS API itself (no --sqs-endpoint)
//   GRIDBRIDGE_COMPAT_SQS_API           "served" or "not-served"
// Every test is named "<package> › <operation>": compatsuite_test.go turns the
// names and results into the README's compatibility table.
import http from "node:http";
import assert from "node:assert/strict";
import { before, after } from "node:test";
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { EventGridManagementClient } from "@azure/arm-eventgrid";
import { EventGridDeserializer, isSystemEvent } from "@azure/eventgrid";

function required(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set: run the suite through compatsuite_test.go (./scripts/test.sh ./compatsuite/...)`);
  }
  return v;
}

export const HTTP = required("GRIDBRIDGE_HTTP");
export const HTTPS = required("GRIDBRIDGE_HTTPS");

// NOT_SERVED is the skip reason of a test whose API this GridBridge binary
// does not serve yet; compatsuite_test.go shows those rows as "not yet" and
// treats any other skip as a failure.
export const NOT_SERVED = "not served by this GridBridge binary";

// skipUnlessServed returns the node:test options of a test of api
// ("EVENTBRIDGE" or "NAMESPACES"): none when compatsuite_test.go found the
// API served, a NOT_SERVED skip when it did not.
export function skipUnlessServed(api) {
  const v = process.env[`GRIDBRIDGE_COMPAT_${api}`];
  if (v !== "served" && v !== "not-served") {
    throw new Error(`GRIDBRIDGE_COMPAT_${api} must be "served" or "not-served", got ${JSON.stringify(v)}`);
  }
  return v === "served" ? {} : { skip: NOT_SERVED };
}

export const SUBSCRIPTION_ID = "00000000-0000-0000-0000-000000000000";

// fakeCredential is a TokenCredential: GridBridge accepts any bearer token
// (it has no identity provider), but the SDKs send one only over HTTPS.
export const fakeCredential = {
  async getToken() {
    return { token: "gridbridge-compat-token", expiresOnTimestamp: Date.now() + 3_600_000 };
  },
};

// armClient is the management client pointed at GridBridge's HTTPS listener.
export function armClient() {
  return new EventGridManagementClient(fakeCredential, SUBSCRIPTION_ID, {
    endpoint: HTTPS,
    credentialScopes: ["https://management.azure.com/.default"],
  });
}

// expectRestError runs fn and checks that it fails with the SDK's RestError
// of the given HTTP status.
export async function expectRestError(fn, status) {
  await assert.rejects(fn, (err) => {
    assert.equal(err.name, "RestError", `want a RestError, got ${err}`);
    assert.equal(err.statusCode, status, `want HTTP ${status}, got ${err.statusCode}: ${err.message}`);
    return true;
  });
}

// deliveries long-polls GridBridge's inspection API until at least min
// delivery attempts match the filter (route labels such as subscription,
// bus, rule; outcome), and returns them. No sleeping: the server answers as
// soon as they exist.
export async function deliveries(filter, min = 1) {
  const q = new URLSearchParams({ ...filter, min: String(min), wait: "10s" });
  const res = await fetch(`${HTTP}/_emulator/deliveries?${q}`);
  assert.equal(res.status, 200, `GET /_emulator/deliveries?${q}: HTTP ${res.status}`);
  const page = await res.json();
  assert.ok(page.entries.length >= min, `waited 10 s for ${min} deliveries matching ${q}, have ${page.entries.length}`);
  return page.entries;
}

// startWebhook runs the HTTP endpoint that Event Grid subscriptions deliver
// to. It answers both validation handshakes the way an Azure Functions or
// ASP.NET handler does: the SubscriptionValidationEvent (parsed with the
// SDK's EventGridDeserializer) with its validationResponse, and the
// CloudEvents OPTIONS request with WebHook-Allowed-Origin. Every notification
// is kept; waitFor returns a promise that resolves when one matches.
export async function startWebhook() {
  const deserializer = new EventGridDeserializer();
  const handshakes = [];
  const notifications = [];
  const waiters = [];

  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString("utf8");
    const path = req.url;
    try {
      if (req.method === "OPTIONS") {
        const origin = req.headers["webhook-request-origin"];
        handshakes.push({ kind: "cloudevents", path, origin });
        res.writeHead(200, { "WebHook-Allowed-Origin": origin ?? "*", "WebHook-Allowed-Rate": "*" }).end();
        return;
      }
      if (req.headers["aeg-event-type"] === "SubscriptionValidation") {
        const [event] = await deserializer.deserializeEventGridEvents(body);
        if (!isSystemEvent("Microsoft.EventGrid.SubscriptionValidationEvent", event)) {
          res.writeHead(400).end();
          return;
        }
        handshakes.push({ kind: "eventgrid", path, validationCode: event.data.validationCode, event });
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ validationResponse: event.data.validationCode }));
        return;
      }
      const n = { path, headers: req.headers, body, json: JSON.parse(body) };
      notifications.push(n);
      res.writeHead(200).end();
      for (const w of waiters.slice()) {
        if (w.match(n)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(n);
        }
      }
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;

  return {
    // url is the endpoint URL for one subscription: the path tells
    // subscriptions apart.
    url: (path) => `${base}/${path}`,
    handshakes,
    notifications,
    // waitFor resolves with the first notification (past or future) for
    // which match is true; it rejects after 10 s so a missing delivery
    // fails the test instead of hanging it.
    waitFor(match) {
      const seen = notifications.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = { match, resolve };
        waiters.push(w);
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error("no matching webhook delivery within 10 s"));
        }, 10_000);
        timer.unref();
        w.resolve = (n) => {
          clearTimeout(timer);
          resolve(n);
        };
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

// The AWS SDKs sign as AWS_CREDENTIALS in AWS_REGION; GridBridge acts for
// AWS_ACCOUNT, its account for a non-numeric access key id.
export const AWS_ACCOUNT = "000000000000";
export const AWS_REGION = "us-east-1";
export const AWS_CREDENTIALS = { accessKeyId: "test", secretAccessKey: "test" };

// expectAWSError runs fn and checks the SDK's ServiceException name and status.
export async function expectAWSError(fn, name, status) {
  await assert.rejects(fn, (err) => {
    assert.equal(err.name, name, `want ${name}, got ${err.name}: ${err.message}`);
    assert.equal(err.$metadata?.httpStatusCode, status);
    return true;
  });
}

// deliveryQueue registers hooks that create a queue named prefix-<pid>-<ms>
// in the SQS server GridBridge delivers to (GRIDBRIDGE_COMPAT_SQS) before
// the file's tests, unless served says they are skipped, and delete it after.
// The returned object's sqs (the client), url and arn are set once the
// queue exists.
export function deliveryQueue(prefix, served) {
  const queue = { sqs: undefined, url: undefined, arn: undefined };
  before(async () => {
    if (served.skip) return;
    const endpoint = process.env.GRIDBRIDGE_COMPAT_SQS;
    assert.ok(endpoint, "GRIDBRIDGE_COMPAT_SQS (the SQS server GridBridge delivers to) is not set");
    queue.sqs = new SQSClient({ endpoint, region: AWS_REGION, credentials: AWS_CREDENTIALS, maxAttempts: 1 });
    queue.url = (await queue.sqs.send(new CreateQueueCommand({ QueueName: `${prefix}-${process.pid}-${Date.now()}` }))).QueueUrl;
    const attrs = await queue.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ["QueueArn"] }));
    queue.arn = attrs.Attributes.QueueArn;
  });
  after(async () => {
    if (queue.url) await queue.sqs.send(new DeleteQueueCommand({ QueueUrl: queue.url }));
  });
  return queue;
}
