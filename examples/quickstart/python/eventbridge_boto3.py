"""EventBridge and SQS with boto3: a bus, a rule with an SQS target, an
event, and the message read back.

    go run ./cmd/emulator                                  # in another terminal
    python3 examples/quickstart/python/eventbridge_boto3.py
"""

import json
import os

import boto3

ENDPOINT = os.environ.get("GRIDBRIDGE_URL", "http://127.0.0.1:4080")

# Any credentials and region work: GridBridge checks no signature. A
# twelve-digit access key id would be taken as the account (else 000000000000).
session = boto3.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
events = session.client("events", endpoint_url=ENDPOINT)
sqs = session.client("sqs", endpoint_url=ENDPOINT)  # GridBridge's own SQS


def queue(name):
    url = sqs.create_queue(QueueName=name)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return url, arn


orders_url, orders_arn = queue("boto3-orders")

events.create_event_bus(Name="boto3-shop")
events.put_rule(EventBusName="boto3-shop", Name="placed",
                EventPattern=json.dumps({"source": ["shop"], "detail-type": ["OrderPlaced"]}))
events.put_targets(EventBusName="boto3-shop", Rule="placed", Targets=[{"Id": "queue", "Arn": orders_arn}])

sent = events.put_events(Entries=[{
    "EventBusName": "boto3-shop", "Source": "shop", "DetailType": "OrderPlaced", "Detail": json.dumps({"order": 7}),
}])
assert sent["FailedEntryCount"] == 0, sent

messages = sqs.receive_message(QueueUrl=orders_url, WaitTimeSeconds=10).get("Messages", [])
assert len(messages) == 1, messages
event = json.loads(messages[0]["Body"])
assert event["id"] == sent["Entries"][0]["EventId"] and event["detail"] == {"order": 7}, event
sqs.delete_message(QueueUrl=orders_url, ReceiptHandle=messages[0]["ReceiptHandle"])
print("ok: event %s reached the queue" % event["id"])
