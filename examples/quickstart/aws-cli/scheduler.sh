#!/usr/bin/env bash
# EventBridge Scheduler with the AWS CLI: a schedule that sends a job to an
# SQS queue every hour. On a virtual clock the test moves time itself, so the
# first firing arrives at once instead of in an hour.
#
#   go run ./cmd/emulator --clock virtual       # in another terminal
#   bash examples/quickstart/aws-cli/scheduler.sh
set -euo pipefail

export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-test} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-test}
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
endpoint=${GRIDBRIDGE_URL:-http://127.0.0.1:4080}
aws() { command aws --endpoint-url "$endpoint" --output text "$@"; }

queue_url=$(aws sqs create-queue --queue-name nightly-jobs --query QueueUrl)
queue_arn=$(aws sqs get-queue-attributes --queue-url "$queue_url" --attribute-names QueueArn --query Attributes.QueueArn)

# The role is required by the API and never assumed.
aws scheduler create-schedule --name compact --schedule-expression 'rate(1 hour)' \
  --flexible-time-window Mode=OFF \
  --target "{\"Arn\":\"$queue_arn\",\"RoleArn\":\"arn:aws:iam::000000000000:role/scheduler\",\"Input\":\"{\\\"job\\\":\\\"compact\\\"}\"}" >/dev/null

# A rate schedule first fires one period after it is created: move the
# virtual clock an hour (POST /_emulator/clock/advance; 409 on a real clock).
curl -fsS -X POST -H 'Content-Type: application/json' -d '{"by":"1h"}' "$endpoint/_emulator/clock/advance" >/dev/null

body=$(aws sqs receive-message --queue-url "$queue_url" --wait-time-seconds 10 --query 'Messages[0].Body')
echo "$body"
[[ $body == '{"job":"compact"}' ]] || { echo "FAIL: the queue got $body" >&2; exit 1; }
echo "ok: the schedule fired after one (virtual) hour"
