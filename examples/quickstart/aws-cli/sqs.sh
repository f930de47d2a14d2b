#!/usr/bin/env bash
# SQS with the AWS CLI: GridBridge's own SQS (the one EventBridge targets and
# dead-letter queues write to when no --sqs-endpoint is given).
#
#   go run ./cmd/emulator                       # in another terminal
#   bash examples/quickstart/aws-cli/sqs.sh
set -euo pipefail

export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-test} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-test}
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
endpoint=${GRIDBRIDGE_URL:-http://127.0.0.1:4080}
aws() { command aws --endpoint-url "$endpoint" --output text "$@"; }

queue_url=$(aws sqs create-queue --queue-name jobs --attributes VisibilityTimeout=30 --query QueueUrl)
aws sqs send-message --queue-url "$queue_url" --message-body '{"job":"resize"}' \
  --message-attributes '{"kind":{"DataType":"String","StringValue":"image"}}' >/dev/null

read -r body receipt kind < <(aws sqs receive-message --queue-url "$queue_url" --wait-time-seconds 10 \
  --message-attribute-names All --query 'Messages[0].[Body,ReceiptHandle,MessageAttributes.kind.StringValue]')
echo "$body ($kind)"
[[ $body == '{"job":"resize"}' && $kind == image ]] || { echo "FAIL: received $body $kind" >&2; exit 1; }

aws sqs delete-message --queue-url "$queue_url" --receipt-handle "$receipt"
left=$(aws sqs get-queue-attributes --queue-url "$queue_url" --attribute-names ApproximateNumberOfMessages ApproximateNumberOfMessagesNotVisible \
  --query 'Attributes.[ApproximateNumberOfMessages,ApproximateNumberOfMessagesNotVisible]')
[[ $left == $'0\t0' ]] || { echo "FAIL: messages left: $left" >&2; exit 1; }
echo "ok: sent, received and deleted"
