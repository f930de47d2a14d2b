#!/bin/sh
# LocalStack ready hook: creates the SQS queues that
# examples/compose/topology.yaml names as targets and dead-letter queues.
set -e
for queue in big-orders orders-dlq reports; do
  awslocal sqs create-queue --queue-name "$queue"
done
