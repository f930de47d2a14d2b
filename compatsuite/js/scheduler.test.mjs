// @aws-sdk/client-scheduler against GridBridge's EventBridge Scheduler: a
// schedule group, a rate schedule (read, listed, updated), a one-time
// schedule in the past that fires at once into the SQS server GridBridge
// delivers to and then deletes itself, and the teardown. No test moves the
// emulator's clock, so the suites running beside this one are undisturbed.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListSchedulesCommand,
  SchedulerClient,
  UpdateScheduleCommand,
} from "@aws-sdk/client-scheduler";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { AWS_ACCOUNT, AWS_CREDENTIALS, AWS_REGION, HTTP, deliveryQueue, expectAWSError, skipUnlessServed } from "./helpers.mjs";

const SCH = "@aws-sdk/client-scheduler";
// The Scheduler face ships with the EventBridge face.
const served = skipUnlessServed("EVENTBRIDGE");

const GROUP = `compat-js-${process.pid}`;
const ROLE = `arn:aws:iam::${AWS_ACCOUNT}:role/scheduler`;
const scheduler = new SchedulerClient({ endpoint: HTTP, region: AWS_REGION, credentials: AWS_CREDENTIALS, maxAttempts: 1 });
const queue = deliveryQueue("compat-scheduler", served);

const target = () => ({ Arn: queue.arn, RoleArn: ROLE, Input: JSON.stringify({ at: "<aws.scheduler.scheduled-time>" }) });
const scheduleArn = `arn:aws:scheduler:${AWS_REGION}:${AWS_ACCOUNT}:schedule/${GROUP}/tick`;

test(`${SCH} › CreateScheduleGroup`, served, async () => {
  const out = await scheduler.send(new CreateScheduleGroupCommand({ Name: GROUP, Tags: [{ Key: "suite", Value: "js" }] }));
  assert.equal(out.ScheduleGroupArn, `arn:aws:scheduler:${AWS_REGION}:${AWS_ACCOUNT}:schedule-group/${GROUP}`);
  await expectAWSError(() => scheduler.send(new CreateScheduleGroupCommand({ Name: GROUP })), "ConflictException", 409);
  const got = await scheduler.send(new GetScheduleGroupCommand({ Name: GROUP }));
  assert.equal(got.State, "ACTIVE");
  assert.ok(got.CreationDate instanceof Date);
});

test(`${SCH} › CreateSchedule`, served, async () => {
  const out = await scheduler.send(new CreateScheduleCommand({
    Name: "tick", GroupName: GROUP, ScheduleExpression: "rate(5 minutes)", FlexibleTimeWindow: { Mode: "OFF" }, Target: target(),
  }));
  assert.equal(out.ScheduleArn, scheduleArn);
  await expectAWSError(
    () => scheduler.send(new CreateScheduleCommand({
      Name: "bad", GroupName: GROUP, ScheduleExpression: "cron(nope)", FlexibleTimeWindow: { Mode: "OFF" }, Target: target(),
    })),
    "ValidationException",
    400,
  );
});

test(`${SCH} › GetSchedule`, served, async () => {
  const out = await scheduler.send(new GetScheduleCommand({ Name: "tick", GroupName: GROUP }));
  assert.equal(out.Arn, scheduleArn);
  assert.equal(out.ScheduleExpression, "rate(5 minutes)");
  assert.equal(out.ScheduleExpressionTimezone, "UTC");
  assert.equal(out.State, "ENABLED");
  assert.equal(out.Target.Arn, queue.arn);
  assert.equal(out.Target.RetryPolicy.MaximumRetryAttempts, 185);
  assert.ok(out.LastModificationDate instanceof Date);
});

test(`${SCH} › ListSchedules`, served, async () => {
  const out = await scheduler.send(new ListSchedulesCommand({ GroupName: GROUP, NamePrefix: "ti" }));
  assert.deepEqual(out.Schedules.map((s) => [s.Name, s.State, s.Target.Arn]), [["tick", "ENABLED", queue.arn]]);
});

test(`${SCH} › UpdateSchedule`, served, async () => {
  await scheduler.send(new UpdateScheduleCommand({
    Name: "tick", GroupName: GROUP, ScheduleExpression: "rate(1 hour)", State: "DISABLED", FlexibleTimeWindow: { Mode: "OFF" }, Target: target(),
  }));
  const out = await scheduler.send(new GetScheduleCommand({ Name: "tick", GroupName: GROUP }));
  assert.equal(out.ScheduleExpression, "rate(1 hour)");
  assert.equal(out.State, "DISABLED");
});

test(`${SCH} › CreateSchedule at() fires into SQS`, served, async () => {
  await scheduler.send(new CreateScheduleCommand({
    Name: "once", GroupName: GROUP, ScheduleExpression: "at(2026-01-01T00:00:00)", ActionAfterCompletion: "DELETE",
    FlexibleTimeWindow: { Mode: "OFF" }, Target: target(),
  }));
  const got = await queue.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 10 }));
  assert.equal(got.Messages?.length, 1, "one message from the one-time schedule");
  assert.deepEqual(JSON.parse(got.Messages[0].Body), { at: "2026-01-01T00:00:00Z" });
  await expectAWSError(() => scheduler.send(new GetScheduleCommand({ Name: "once", GroupName: GROUP })), "ResourceNotFoundException", 404);
});

test(`${SCH} › DeleteSchedule`, served, async () => {
  await scheduler.send(new DeleteScheduleCommand({ Name: "tick", GroupName: GROUP }));
  await expectAWSError(() => scheduler.send(new GetScheduleCommand({ Name: "tick", GroupName: GROUP })), "ResourceNotFoundException", 404);
});

test(`${SCH} › DeleteScheduleGroup`, served, async () => {
  await expectAWSError(() => scheduler.send(new DeleteScheduleGroupCommand({ Name: "default" })), "ValidationException", 400);
  await scheduler.send(new DeleteScheduleGroupCommand({ Name: GROUP }));
  await expectAWSError(() => scheduler.send(new GetScheduleGroupCommand({ Name: GROUP })), "ResourceNotFoundException", 404);
});
