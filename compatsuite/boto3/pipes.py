"""boto3 1.26 (Debian's python3-boto3) against GridBridge's EventBridge Pipes.

A pipe reads its SQS source from GridBridge's own SQS, so this runs against
the binary that serves SQS itself. compatsuite/boto3_test.go runs it with the
endpoint as its only argument; it prints one JSON line per step,
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
                      "protocol": botocore.session.get_session().get_service_model("pipes").protocol}), flush=True)
    kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
    pipes = boto3.client("pipes", **kw)
    sqs = boto3.client("sqs", **kw)
    name = "compat-boto3-%d" % os.getpid()
    role = "arn:aws:iam::000000000000:role/pipes"
    arn = lambda queue: "arn:aws:sqs:us-east-1:000000000000:" + queue
    state = {}

    def create_pipe():
        for q in ("src", "dst", "dlq"):
            state[q] = sqs.create_queue(QueueName="%s-%s" % (name, q))["QueueUrl"]
        sqs.set_queue_attributes(QueueUrl=state["src"], Attributes={"VisibilityTimeout": "30", "RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": arn(name + "-dlq"), "maxReceiveCount": "2"})})
        out = pipes.create_pipe(
            Name=name, RoleArn=role, Source=arn(name + "-src"), Target=arn(name + "-dst"),
            SourceParameters={"FilterCriteria": {"Filters": [{"Pattern": json.dumps({"body": {"kind": ["order"]}})}]},
                              "SqsQueueParameters": {"BatchSize": 10, "MaximumBatchingWindowInSeconds": 0}},
            TargetParameters={"InputTemplate": '{"order": <$.body.order>, "pipe": "<aws.pipes.pipe-name>"}'},
            Tags={"team": "compat"})
        assert out["Arn"] == "arn:aws:pipes:us-east-1:000000000000:pipe/" + name, out
        assert out["CurrentState"] == "CREATING" and out["DesiredState"] == "RUNNING", out

    def describe_pipe():
        d = pipes.describe_pipe(Name=name)
        assert d["CurrentState"] == "RUNNING", d
        assert d["SourceParameters"]["SqsQueueParameters"]["BatchSize"] == 10, d
        assert d["Tags"] == {"team": "compat"}, d
        assert d["CreationTime"].year >= 2020, d

    def list_pipes():
        found = []
        for page in pipes.get_paginator("list_pipes").paginate(NamePrefix=name, PaginationConfig={"PageSize": 1}):
            found += [p["Name"] for p in page["Pipes"]]
        assert found == [name], found

    def messages():
        sqs.send_message_batch(QueueUrl=state["src"], Entries=[
            {"Id": "1", "MessageBody": json.dumps({"kind": "ping"})},
            {"Id": "2", "MessageBody": json.dumps({"kind": "order", "order": 7})}])
        got = sqs.receive_message(QueueUrl=state["dst"], MaxNumberOfMessages=10, WaitTimeSeconds=5)["Messages"]
        assert [m["Body"] for m in got] == ['{"order": 7, "pipe": "%s"}' % name], got
        sqs.delete_message(QueueUrl=state["dst"], ReceiptHandle=got[0]["ReceiptHandle"])
        n = sqs.get_queue_attributes(QueueUrl=state["src"], AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        assert n["Attributes"] == {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}, n

    def update_pipe():
        out = pipes.update_pipe(Name=name, RoleArn=role, TargetParameters={"InputTemplate": "order <$.body.order>"},
                                SourceParameters={"FilterCriteria": {"Filters": []}})
        assert out["CurrentState"] == "UPDATING", out
        d = pipes.describe_pipe(Name=name)
        assert "FilterCriteria" not in d["SourceParameters"], d
        sqs.send_message(QueueUrl=state["src"], MessageBody=json.dumps({"kind": "refund", "order": 8}))
        got = sqs.receive_message(QueueUrl=state["dst"], WaitTimeSeconds=5)["Messages"]
        assert [m["Body"] for m in got] == ["order 8"], got
        sqs.delete_message(QueueUrl=state["dst"], ReceiptHandle=got[0]["ReceiptHandle"])

    def stop_start():
        assert pipes.stop_pipe(Name=name)["CurrentState"] == "STOPPING"
        assert pipes.describe_pipe(Name=name)["CurrentState"] == "STOPPED"
        assert pipes.start_pipe(Name=name)["CurrentState"] == "STARTING"
        assert pipes.list_pipes(CurrentState="RUNNING", NamePrefix=name)["Pipes"][0]["Name"] == name

    def tags():
        pipe_arn = pipes.describe_pipe(Name=name)["Arn"]
        pipes.tag_resource(resourceArn=pipe_arn, tags={"env": "ci"})
        pipes.untag_resource(resourceArn=pipe_arn, tagKeys=["team"])
        assert pipes.list_tags_for_resource(resourceArn=pipe_arn)["tags"] == {"env": "ci"}

    def errors():
        try:
            pipes.create_pipe(Name=name, RoleArn=role, Source=arn(name + "-src"), Target=arn(name + "-dst"))
        except pipes.exceptions.ConflictException as err:
            assert err.response["resourceId"] == name, err.response
        else:
            raise AssertionError("a second create_pipe succeeded")
        try:
            pipes.create_pipe(Name=name + "-big", RoleArn=role, Source=arn(name + "-src"), Target=arn(name + "-dst"),
                              SourceParameters={"SqsQueueParameters": {"BatchSize": 20000}})
        except pipes.exceptions.ValidationException as err:
            assert "batchSize" in err.response["Error"]["Message"], err.response
        else:
            raise AssertionError("a batch of 20000 was accepted")
        try:
            pipes.describe_pipe(Name=name + "-missing")
        except pipes.exceptions.NotFoundException:
            pass
        else:
            raise AssertionError("describe_pipe of a missing pipe succeeded")

    def delete_pipe():
        out = pipes.delete_pipe(Name=name)
        assert out["CurrentState"] == "DELETING" and out["DesiredState"] == "DELETED", out
        for q in ("src", "dst", "dlq"):
            sqs.delete_queue(QueueUrl=state[q])

    steps = [
        ("create_pipe", create_pipe), ("describe_pipe", describe_pipe), ("list_pipes (paginator)", list_pipes),
        ("messages: SQS source, filter, template, SQS target", messages), ("update_pipe", update_pipe),
        ("stop_pipe / start_pipe", stop_start), ("tag_resource / untag_resource / list_tags_for_resource", tags),
        ("errors (ConflictException, ValidationException, NotFoundException)", errors), ("delete_pipe", delete_pipe),
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
