"""boto3 1.26 (Debian's python3-boto3) against GridBridge's own SQS API.

boto3 before 1.31 speaks SQS's query protocol (form parameters in, XML out),
so this proves that protocol end to end. compatsuite/boto3_test.go runs it
with the endpoint as its only argument; it prints one JSON line per step,
{"op": ..., "ok": true} or {"op": ..., "ok": false, "error": ...}, and stops
at the first failure since later steps build on earlier ones.
"""
import json
import os
import sys

import boto3
import botocore


def main(endpoint):
    print(json.dumps({"op": "version", "ok": True, "boto3": boto3.__version__,
                      "protocol": botocore.session.get_session().get_service_model("sqs").protocol}), flush=True)
    sqs = boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1",
                       aws_access_key_id="test", aws_secret_access_key="test")
    name = "compat-boto3-%d" % os.getpid()
    state = {}

    def create_queue():
        url = sqs.create_queue(QueueName=name, Attributes={"VisibilityTimeout": "30"}, tags={"team": "compat"})["QueueUrl"]
        assert url == "%s/000000000000/%s" % (endpoint, name), url
        state["url"] = url
        state["fifo"] = sqs.create_queue(QueueName=name + ".fifo",
                                         Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]

    def get_queue_url():
        assert sqs.get_queue_url(QueueName=name)["QueueUrl"] == state["url"]
        try:
            sqs.get_queue_url(QueueName="compat-boto3-missing")
        except sqs.exceptions.QueueDoesNotExist as err:
            assert err.response["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue", err.response
        else:
            raise AssertionError("GetQueueUrl of a missing queue succeeded")

    def list_queues():
        urls = sqs.list_queues(QueueNamePrefix=name)["QueueUrls"]
        assert sorted(urls) == sorted([state["url"], state["fifo"]]), urls

    def queue_attributes():
        sqs.set_queue_attributes(QueueUrl=state["url"], Attributes={"DelaySeconds": "0", "MaximumMessageSize": "4096"})
        attrs = sqs.get_queue_attributes(QueueUrl=state["url"], AttributeNames=["All"])["Attributes"]
        assert attrs["MaximumMessageSize"] == "4096", attrs
        assert attrs["QueueArn"] == "arn:aws:sqs:us-east-1:000000000000:" + name, attrs

    def tags():
        sqs.tag_queue(QueueUrl=state["url"], Tags={"env": "ci"})
        sqs.untag_queue(QueueUrl=state["url"], TagKeys=["team"])
        assert sqs.list_queue_tags(QueueUrl=state["url"])["Tags"] == {"env": "ci"}

    def send_receive():
        # boto3 checks MD5OfMessageBody and MD5OfMessageAttributes.
        sent = sqs.send_message(QueueUrl=state["url"], MessageBody="héllo <xml> & more",
                                MessageAttributes={"kind": {"DataType": "String", "StringValue": "greeting"},
                                                   "raw": {"DataType": "Binary", "BinaryValue": b"\x00\x01"}})
        out = sqs.receive_message(QueueUrl=state["url"], MaxNumberOfMessages=10, WaitTimeSeconds=5,
                                  AttributeNames=["All"], MessageAttributeNames=["All"])
        msgs = out["Messages"]
        assert len(msgs) == 1 and msgs[0]["MessageId"] == sent["MessageId"], msgs
        m = msgs[0]
        assert m["Body"] == "héllo <xml> & more", m
        assert m["MessageAttributes"]["raw"]["BinaryValue"] == b"\x00\x01", m
        assert m["Attributes"]["ApproximateReceiveCount"] == "1", m
        sqs.change_message_visibility(QueueUrl=state["url"], ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=60)
        sqs.delete_message(QueueUrl=state["url"], ReceiptHandle=m["ReceiptHandle"])

    def batches():
        out = sqs.send_message_batch(QueueUrl=state["url"], Entries=[
            {"Id": "a", "MessageBody": "one"}, {"Id": "b", "MessageBody": "x" * 5000}, {"Id": "c", "MessageBody": "three"}])
        assert sorted(e["Id"] for e in out["Successful"]) == ["a", "c"], out
        assert [(e["Id"], e["SenderFault"]) for e in out["Failed"]] == [("b", True)], out
        got = sqs.receive_message(QueueUrl=state["url"], MaxNumberOfMessages=10, WaitTimeSeconds=5)["Messages"]
        assert sorted(m["Body"] for m in got) == ["one", "three"], got
        out = sqs.change_message_visibility_batch(QueueUrl=state["url"], Entries=[
            {"Id": "v%d" % i, "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 60} for i, m in enumerate(got)])
        assert len(out["Successful"]) == 2, out
        out = sqs.delete_message_batch(QueueUrl=state["url"], Entries=[
            {"Id": "d%d" % i, "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)])
        assert len(out["Successful"]) == 2, out

    def fifo():
        for body in ["1", "2", "2"]:
            sqs.send_message(QueueUrl=state["fifo"], MessageBody=body, MessageGroupId="g")
        got = sqs.receive_message(QueueUrl=state["fifo"], MaxNumberOfMessages=10, AttributeNames=["All"])["Messages"]
        assert [m["Body"] for m in got] == ["1", "2"], got
        assert got[0]["Attributes"]["MessageGroupId"] == "g", got

    def dead_letter_sources():
        dlq = sqs.create_queue(QueueName=name + "-dlq")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        sqs.set_queue_attributes(QueueUrl=state["url"], Attributes={
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": "3"})})
        assert sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"] == [state["url"]]
        sqs.delete_queue(QueueUrl=dlq)

    def purge_and_delete():
        sqs.send_message(QueueUrl=state["url"], MessageBody="left")
        sqs.purge_queue(QueueUrl=state["url"])
        n = sqs.get_queue_attributes(QueueUrl=state["url"], AttributeNames=["ApproximateNumberOfMessages"])
        assert n["Attributes"]["ApproximateNumberOfMessages"] == "0", n
        for url in (state["url"], state["fifo"]):
            sqs.delete_queue(QueueUrl=url)
        try:
            sqs.get_queue_url(QueueName=name)
        except sqs.exceptions.QueueDoesNotExist:
            pass
        else:
            raise AssertionError("the deleted queue is still there")

    steps = [
        ("CreateQueue", create_queue), ("GetQueueUrl", get_queue_url), ("ListQueues", list_queues),
        ("SetQueueAttributes and GetQueueAttributes", queue_attributes), ("TagQueue, UntagQueue and ListQueueTags", tags),
        ("SendMessage and ReceiveMessage", send_receive), ("batches", batches), ("FIFO queue", fifo),
        ("ListDeadLetterSourceQueues", dead_letter_sources), ("PurgeQueue and DeleteQueue", purge_and_delete),
    ]
    for op, fn in steps:
        try:
            fn()
        except Exception as err:  # report and stop: later steps need this one
            print(json.dumps({"op": op, "ok": False, "error": "%s: %s" % (type(err).__name__, err)}), flush=True)
            return 1
        print(json.dumps({"op": op, "ok": True}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
