#!/usr/bin/env bash
# EventBridge Pipes with the AWS CLI: a pipe from one SQS queue of
# GridBridge's own SQS to another, which drops the messages its filter does
# not match and reshapes the rest with an input template.
#
#   go run ./cmd/emulator                       # in another terminal
#   bash examples/quickstart/aws-cli/pipes.sh
set -euo pipefail

export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-test} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-test}
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
endpoint=${GRIDBRIDGE_URL:-http://127.0.0.1:4080}
aws() { command aws --endpoint-url "$endpoint" --output text "$@"; }

orders=$(aws sqs create-queue --queue-name orders --query QueueUrl)
shipping=$(aws sqs create-queue --queue-name shipping --query QueueUrl)
aws pipes create-pipe --name orders-to-shipping \
  --role-arn arn:aws:iam::000000000000:role/pipes \
  --source arn:aws:sqs:us-east-1:000000000000:orders \
  --source-parameters '{"FilterCriteria":{"Filters":[{"Pattern":"{\"body\":{\"type\":[\"order\"]}}"}]}}' \
  --target arn:aws:sqs:us-east-1:000000000000:shipping \
  --target-parameters '{"InputTemplate":"{\"ship\": <$.body.id>, \"via\": \"<aws.pipes.pipe-name>\"}"}' >/dev/null
state=$(aws pipes describe-pipe --name orders-to-shipping --query CurrentState)
[[ $state == RUNNING ]] || { echo "FAIL: the pipe is $state" >&2; exit 1; }

aws sqs send-message-batch --queue-url "$orders" --entries \
  '[{"Id":"1","MessageBody":"{\"type\":\"order\",\"id\":7}"},{"Id":"2","MessageBody":"{\"type\":\"ping\"}"}]' >/dev/null

body=$(aws sqs receive-message --queue-url "$shipping" --wait-time-seconds 10 --query 'Messages[0].Body')
echo "$body"
[[ $body == '{"ship": 7, "via": "orders-to-shipping"}' ]] || { echo "FAIL: shipping received $body" >&2; exit 1; }
left=$(aws sqs get-queue-attributes --queue-url "$orders" --attribute-names ApproximateNumberOfMessages ApproximateNumberOfMessagesNotVisible \
  --query 'Attributes.[ApproximateNumberOfMessages,ApproximateNumberOfMessagesNotVisible]')
[[ $left == $'0\t0' ]] || { echo "FAIL: the source still holds messages: $left" >&2; exit 1; }

aws pipes delete-pipe --name orders-to-shipping >/dev/null
echo "ok: the order went through the pipe, the ping was filtered out and deleted"
