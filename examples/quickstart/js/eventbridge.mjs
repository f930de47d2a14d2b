// EventBridge and SQS from Node: @aws-sdk/client-eventbridge sends an event
// through a rule to an SQS queue, @aws-sdk/client-sqs reads it back.
//
//   go run ./cmd/emulator                         # in another terminal
//   npm ci --prefix examples/quickstart/js
//   node examples/quickstart/js/eventbridge.mjs
import assert from "node:assert/strict";
import { CreateEventBusCommand, EventBridgeClient, PutEventsCommand, PutRuleCommand, PutTargetsCommand } from "@aws-sdk/client-eventbridge";
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";

// Plain HTTP works for the AWS APIs. Any credentials and region work:
// GridBridge checks no signature (a twelve-digit access key id would be
// taken as the account, else 000000000000).
const config = {
  endpoint: process.env.GRIDBRIDGE_URL ?? "http://127.0.0.1:4080",
  region: "us-east-1",
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
};
const events = new EventBridgeClient(config);
const sqs = new SQSClient(config); // GridBridge's own SQS

const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "js-orders" }));
const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }));

await events.send(new CreateEventBusCommand({ Name: "js-shop" }));
await events.send(new PutRuleCommand({
  EventBusName: "js-shop", Name: "placed",
  EventPattern: JSON.stringify({ source: ["shop"], "detail-type": ["OrderPlaced"] }),
}));
await events.send(new PutTargetsCommand({ EventBusName: "js-shop", Rule: "placed", Targets: [{ Id: "queue", Arn: Attributes.QueueArn }] }));
const sent = await events.send(new PutEventsCommand({
  Entries: [{ EventBusName: "js-shop", Source: "shop", DetailType: "OrderPlaced", Detail: JSON.stringify({ order: 7 }) }],
}));
assert.equal(sent.FailedEntryCount, 0);

const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 10 }));
assert.equal(Messages.length, 1);
const event = JSON.parse(Messages[0].Body);
assert.equal(event.id, sent.Entries[0].EventId);
assert.deepEqual(event.detail, { order: 7 });
console.log(`ok: event ${event.id} reached the queue`);
