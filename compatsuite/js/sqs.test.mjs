// @aws-sdk/client-sqs against GridBridge's own SQS API (a binary started
// without --sqs-endpoint, at GRIDBRIDGE_SQS_API): a queue's life, messages
// with attributes (the SDK checks their MD5s), batches, visibility, FIFO and
// the errors. Skipped, and shown as "not yet", when the binary does not
// serve SQS.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  ListQueueTagsCommand,
  PurgeQueueCommand,
  QueueDoesNotExist,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
  TagQueueCommand,
} from "@aws-sdk/client-sqs";
import { skipUnlessServed } from "./helpers.mjs";

const SQS = "@aws-sdk/client-sqs";
const served = skipUnlessServed("SQS_API");
const endpoint = process.env.GRIDBRIDGE_SQS_API;
const sqs = new SQSClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "test", secretAccessKey: "test" }, maxAttempts: 1 });
const NAME = `compat-js-${process.pid}`;
let url;
let fifoUrl;

after(async () => {
  for (const u of [url, fifoUrl]) if (u) await sqs.send(new DeleteQueueCommand({ QueueUrl: u })).catch(() => {});
});

test(`${SQS} › CreateQueue`, served, async () => {
  url = (await sqs.send(new CreateQueueCommand({ QueueName: NAME, Attributes: { VisibilityTimeout: "30" }, tags: { team: "compat" } }))).QueueUrl;
  assert.equal(url, `${endpoint}/000000000000/${NAME}`);
  fifoUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${NAME}.fifo`, Attributes: { FifoQueue: "true", ContentBasedDeduplication: "true" } }))).QueueUrl;
});

test(`${SQS} › GetQueueUrl`, served, async () => {
  assert.equal((await sqs.send(new GetQueueUrlCommand({ QueueName: NAME }))).QueueUrl, url);
  await assert.rejects(sqs.send(new GetQueueUrlCommand({ QueueName: "compat-missing" })), (err) => {
    assert.ok(err instanceof QueueDoesNotExist, `want QueueDoesNotExist, got ${err.name}`);
    assert.equal(err.$metadata.httpStatusCode, 400);
    return true;
  });
});

test(`${SQS} › ListQueues`, served, async () => {
  const out = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: NAME }));
  assert.deepEqual(out.QueueUrls.sort(), [url, fifoUrl].sort());
});

test(`${SQS} › SetQueueAttributes`, served, async () => {
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { MaximumMessageSize: "2048" } }));
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }));
  assert.equal(out.Attributes.MaximumMessageSize, "2048");
  assert.equal(out.Attributes.QueueArn, `arn:aws:sqs:us-east-1:000000000000:${NAME}`);
});

test(`${SQS} › TagQueue`, served, async () => {
  await sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: { env: "ci" } }));
  const out = await sqs.send(new ListQueueTagsCommand({ QueueUrl: url }));
  assert.deepEqual(out.Tags, { team: "compat", env: "ci" });
});

test(`${SQS} › SendMessage and ReceiveMessage`, served, async () => {
  const sent = await sqs.send(new SendMessageCommand({
    QueueUrl: url, MessageBody: "hello",
    MessageAttributes: { kind: { DataType: "String", StringValue: "greeting" }, n: { DataType: "Number", StringValue: "7" } },
  }));
  const out = await sqs.send(new ReceiveMessageCommand({
    QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 5, MessageAttributeNames: ["All"], MessageSystemAttributeNames: ["All"],
  }));
  assert.equal(out.Messages.length, 1);
  const m = out.Messages[0];
  assert.equal(m.MessageId, sent.MessageId);
  assert.equal(m.Body, "hello");
  assert.equal(m.MessageAttributes.kind.StringValue, "greeting");
  assert.equal(m.Attributes.ApproximateReceiveCount, "1");
  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 60 }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
});

test(`${SQS} › SendMessageBatch and DeleteMessageBatch`, served, async () => {
  const sent = await sqs.send(new SendMessageBatchCommand({
    QueueUrl: url, Entries: [{ Id: "a", MessageBody: "one" }, { Id: "b", MessageBody: "x".repeat(4096) }, { Id: "c", MessageBody: "three" }],
  }));
  assert.deepEqual(sent.Successful.map((e) => e.Id).sort(), ["a", "c"]);
  assert.deepEqual(sent.Failed.map((e) => [e.Id, e.SenderFault]), [["b", true]]); // larger than MaximumMessageSize 2048
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }));
  assert.deepEqual(out.Messages.map((m) => m.Body).sort(), ["one", "three"]);
  const del = await sqs.send(new DeleteMessageBatchCommand({
    QueueUrl: url, Entries: out.Messages.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })),
  }));
  assert.equal(del.Successful.length, 2);
});

test(`${SQS} › FIFO queue`, served, async () => {
  for (const body of ["1", "2", "2"]) {
    await sqs.send(new SendMessageCommand({ QueueUrl: fifoUrl, MessageBody: body, MessageGroupId: "g" }));
  }
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: fifoUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["All"] }));
  assert.deepEqual(out.Messages.map((m) => m.Body), ["1", "2"]); // the second "2" is a duplicate
  assert.equal(out.Messages[0].Attributes.MessageGroupId, "g");
  assert.ok(out.Messages[0].Attributes.SequenceNumber);
});

test(`${SQS} › PurgeQueue`, served, async () => {
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "left" }));
  await sqs.send(new PurgeQueueCommand({ QueueUrl: url }));
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }));
  assert.equal(out.Attributes.ApproximateNumberOfMessages, "0");
});

test(`${SQS} › DeleteQueue`, served, async () => {
  await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
  await assert.rejects(sqs.send(new GetQueueUrlCommand({ QueueName: NAME })), QueueDoesNotExist);
  url = undefined;
});
