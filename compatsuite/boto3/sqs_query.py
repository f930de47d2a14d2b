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

    def client_error(fn, code, message=None, **kw):
        # The error SQS answers, read as boto3 reads the query protocol's.
        try:
            fn(**kw)
        except botocore.exceptions.ClientError as err:
            got = err.response["Error"]
            assert got["Code"] == code, got
            assert message is None or got["Message"] == message, got
        else:
            raise AssertionError("%s succeeded, want %s" % (fn.__name__, code))

    def limits():
        url = sqs.create_queue(QueueName=name + "-big")["QueueUrl"]
        attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["MaximumMessageSize"])["Attributes"]
        assert attrs["MaximumMessageSize"] == "1048576", attrs
        sqs.send_message(QueueUrl=url, MessageBody="x" * 1048576)
        client_error(sqs.send_message, "InvalidParameterValue",
                     "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.",
                     QueueUrl=url, MessageBody="x" * 1048577)
        entries = [{"Id": str(i), "MessageBody": "y" * 104857} for i in range(10)]
        entries[9]["MessageBody"] = "y" * (1048576 - 9 * 104857)
        out = sqs.send_message_batch(QueueUrl=url, Entries=entries)
        assert len(out["Successful"]) == 10, out.get("Failed")
        entries[9]["MessageBody"] += "y"
        client_error(sqs.send_message_batch, "AWS.SimpleQueueService.BatchRequestTooLong",
                     "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.",
                     QueueUrl=url, Entries=entries)
        for bad in ("1023", "1048577"):
            client_error(sqs.set_queue_attributes, "InvalidAttributeValue", QueueUrl=url, Attributes={"MaximumMessageSize": bad})
        sqs.delete_queue(QueueUrl=url)

    def error_texts():
        client_error(sqs.get_queue_url, "AWS.SimpleQueueService.NonExistentQueue",
                     "The specified queue does not exist for this wsdl version.", QueueName="compat-boto3-missing")
        for fn, shape in ((sqs.send_message_batch, "SendMessageBatchRequestEntry"),
                          (sqs.delete_message_batch, "DeleteMessageBatchRequestEntry"),
                          (sqs.change_message_visibility_batch, "ChangeMessageVisibilityBatchRequestEntry")):
            client_error(fn, "AWS.SimpleQueueService.EmptyBatchRequest",
                         "There should be at least one %s in the request." % shape, QueueUrl=state["url"], Entries=[])
        client_error(sqs.send_message_batch, "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id id_2 repeated.",
                     QueueUrl=state["url"], Entries=[{"Id": "id_1", "MessageBody": "1"}, {"Id": "id_2", "MessageBody": "2"},
                                                     {"Id": "id_2", "MessageBody": "3"}])
        # A FIFO queue takes an explicit DelaySeconds of 0, and no other.
        sqs.send_message(QueueUrl=state["fifo"], MessageBody="zero", MessageGroupId="z", DelaySeconds=0)
        client_error(sqs.send_message, "InvalidParameterValue",
                     "Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.",
                     QueueUrl=state["fifo"], MessageBody="five", MessageGroupId="z", DelaySeconds=5)
        client_error(sqs.send_message, "InvalidParameterValue",
                     "The message attribute name 'AWS.x' is invalid. Attribute name can contain A-Z, a-z, 0-9, underscore (_), hyphen (-), and period (.) characters.",
                     QueueUrl=state["url"], MessageBody="x", MessageAttributes={"AWS.x": {"DataType": "String", "StringValue": "v"}})
        arn = "arn:aws:sqs:us-east-1:000000000000:"
        policy = json.dumps({"deadLetterTargetArn": arn + name + "-self", "maxReceiveCount": 3})
        client_error(sqs.create_queue, "InvalidParameterValue",
                     "Value %s for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own dead-letter queue." % policy,
                     QueueName=name + "-self", Attributes={"RedrivePolicy": policy})
        policy = json.dumps({"deadLetterTargetArn": arn + name, "maxReceiveCount": 3})
        client_error(sqs.create_queue, "InvalidParameterValue",
                     "Value %s for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the source.." % policy,
                     QueueName=name + "-src.fifo", Attributes={"FifoQueue": "true", "RedrivePolicy": policy})

    def permissions():
        sqs.add_permission(QueueUrl=state["url"], Label="compat", AWSAccountIds=["111122223333"],
                           Actions=["SendMessage", "ReceiveMessage"])
        attrs = sqs.get_queue_attributes(QueueUrl=state["url"], AttributeNames=["Policy"])["Attributes"]
        doc = json.loads(attrs["Policy"])
        assert doc["Version"] == "2008-10-17" and len(doc["Statement"]) == 1, doc
        st = doc["Statement"][0]
        assert st["Sid"] == "compat" and st["Effect"] == "Allow", st
        assert st["Principal"] == {"AWS": "arn:aws:iam::111122223333:root"}, st
        assert st["Action"] == ["SQS:SendMessage", "SQS:ReceiveMessage"], st
        assert st["Resource"] == "arn:aws:sqs:us-east-1:000000000000:" + name, st
        client_error(sqs.add_permission, "InvalidParameterValue", "Value compat for parameter Label is invalid. Reason: Already exists.",
                     QueueUrl=state["url"], Label="compat", AWSAccountIds=["111122223333"], Actions=["SendMessage"])
        sqs.remove_permission(QueueUrl=state["url"], Label="compat")
        attrs = sqs.get_queue_attributes(QueueUrl=state["url"], AttributeNames=["Policy"]).get("Attributes", {})
        assert "Policy" not in attrs, attrs
        client_error(sqs.remove_permission, "InvalidParameterValue", "Value compat for parameter Label is invalid. Reason: can't find label.",
                     QueueUrl=state["url"], Label="compat")

    def trace_and_names():
        # A queue's bare name serves as its URL.
        short = name + "-trace"
        sqs.create_queue(QueueName=short, Attributes={"VisibilityTimeout": "0"})
        trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
        sqs.send_message(QueueUrl=short, MessageBody="traced",
                         MessageAttributes={k: {"DataType": "String", "StringValue": v}
                                            for k, v in (("Hello", "There"), ("Help.Me", "Me"), ("General", "Kenobi"))},
                         MessageSystemAttributes={"AWSTraceHeader": {"DataType": "String", "StringValue": trace}})
        for names, want in ((["Hel.*"], ["Hello", "Help.Me"]), ([".*"], ["General", "Hello", "Help.Me"])):
            got = sqs.receive_message(QueueUrl=short, AttributeNames=["AWSTraceHeader"], MessageAttributeNames=names)["Messages"]
            assert len(got) == 1 and got[0]["Attributes"] == {"AWSTraceHeader": trace}, got
            assert sorted(got[0].get("MessageAttributes", {})) == want, (names, got)
        sqs.delete_queue(QueueUrl=short)

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
        ("1 MiB messages and batches", limits), ("error texts of the query protocol", error_texts),
        ("AddPermission and RemovePermission", permissions),
        ("AWSTraceHeader, attribute name wildcards and a queue's name as its URL", trace_and_names),
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
