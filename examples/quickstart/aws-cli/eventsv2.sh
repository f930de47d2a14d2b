#!/usr/bin/env bash
# EventBridge buses v2 with the AWS CLI. The API has no SDK yet: GridBridge
# ships its service model, and `aws configure add-model` teaches it to the
# CLI (in ~/.aws/models). A bus, a subscriber that delivers to an SQS queue,
# and an event read back with its system metadata.
#
#   go run ./cmd/emulator                       # in another terminal
#   bash examples/quickstart/aws-cli/eventsv2.sh    # from the repository's root
set -euo pipefail

export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-test} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-test}
export AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-us-east-1}
endpoint=${GRIDBRIDGE_URL:-http://127.0.0.1:4080}
aws() { command aws --endpoint-url "$endpoint" --output text "$@"; }

command aws configure add-model --service-name eventsv2 \
  --service-model file://compat/eventbridge/v2model/eventsv2/2026-09-16/service-2.json

queue_url=$(aws sqs create-queue --queue-name billing --query QueueUrl)
queue_arn=$(aws sqs get-queue-attributes --queue-url "$queue_url" --attribute-names QueueArn --query Attributes.QueueArn)
bus_arn=$(aws eventsv2 create-event-bus --name payments --query EventBusArn)

aws eventsv2 create-subscriber \
  --name billing \
  --event-bus-arn "$bus_arn" \
  --filter-configuration '{"Filters":[{"Scope":"EVENT","Pattern":"{\"source\":[\"shop\"]}"}]}' \
  --invoke-configuration "{\"TargetArn\":\"$queue_arn\",\"RoleArn\":\"arn:aws:iam::000000000000:role/EventBusDeliveryRole\"}" \
  --retry-policy MaxRetryAttempts=3 >/dev/null

event_id=$(aws eventsv2 put-events --entries "[{\"EventBusArn\":\"$bus_arn\",\"Source\":\"shop\",\"DetailType\":\"InvoicePaid\",\"Detail\":\"{\\\"invoice\\\":7}\"}]" \
  --query 'Entries[0].EventId')

# The system metadata travels as message attributes, aws:EventId as aws-EventId.
read -r body delivered_id < <(aws sqs receive-message --queue-url "$queue_url" --wait-time-seconds 10 \
  --message-attribute-names All --query 'Messages[0].[Body,MessageAttributes."aws-EventId".StringValue]')
echo "$body"
[[ $body == *'"invoice":7'* && $delivered_id == "$event_id" ]] || { echo "FAIL: got $body, event $delivered_id (want $event_id)" >&2; exit 1; }
echo "ok: subscriber billing delivered event $event_id"
