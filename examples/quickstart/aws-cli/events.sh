#!/usr/bin/env bash
# EventBridge with the AWS CLI: a bus, a rule that sends big orders to an SQS
# queue, two events, and the one that matched read back from the queue.
#
#   go run ./cmd/emulator                       # in another terminal
#   bash examples/quickstart/aws-cli/events.sh
set -euo pipefail

# Any credentials and region work: GridBridge checks no signature. A
# twelve-digit access key id would be taken as the account (else 000000000000).
export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-test} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-test}
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
endpoint=${GRIDBRIDGE_URL:-http://127.0.0.1:4080}
aws() { command aws --endpoint-url "$endpoint" --output text "$@"; }

# Without --sqs-endpoint, GridBridge is the SQS server too.
queue_url=$(aws sqs create-queue --queue-name big-orders --query QueueUrl)
queue_arn=$(aws sqs get-queue-attributes --queue-url "$queue_url" --attribute-names QueueArn --query Attributes.QueueArn)

aws events create-event-bus --name shop >/dev/null
aws events put-rule --event-bus-name shop --name big-orders \
  --event-pattern '{"source":["shop"],"detail":{"total":[{"numeric":[">",100]}]}}' >/dev/null
aws events put-targets --event-bus-name shop --rule big-orders --targets "Id=queue,Arn=$queue_arn" >/dev/null
aws events put-events --entries '[
  {"EventBusName":"shop","Source":"shop","DetailType":"OrderPlaced","Detail":"{\"order\":1,\"total\":250}"},
  {"EventBusName":"shop","Source":"shop","DetailType":"OrderPlaced","Detail":"{\"order\":2,\"total\":5}"}]' >/dev/null

# The target receives the whole event; only order 1 matched.
body=$(aws sqs receive-message --queue-url "$queue_url" --wait-time-seconds 10 --query 'Messages[0].Body')
echo "$body"
[[ $body == *'"detail-type":"OrderPlaced"'* && $body == *'"order":1,'* ]] || { echo "FAIL: the queue got $body" >&2; exit 1; }
left=$(aws sqs get-queue-attributes --queue-url "$queue_url" --attribute-names ApproximateNumberOfMessages --query Attributes.ApproximateNumberOfMessages)
[[ $left == 0 ]] || { echo "FAIL: $left more messages; order 2 should not have matched" >&2; exit 1; }
echo "ok: the rule sent order 1, and only it, to the queue"
