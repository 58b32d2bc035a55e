"""Dead-letter queue, RedriveAllowPolicy, ListDeadLetterSourceQueues and message move task scenarios through
boto3 (AWS API reference: ListDeadLetterSourceQueues; the SQS dead-letter queues guide), each named after the AWS-validated test or document it restates."""
from common import *

LS = "LS:test_sqs.py::"
MT = "LSMT:test_sqs_move_task.py::"

@scenario("test_dead_letter_queue_config", LS)
def _():
    dl = create(name=f"dead_letter_queue-{uid()}")
    parts = dl.split("/")
    tgt = f"arn:aws:sqs:us-east-1:{parts[-2]}:{parts[-1]}"
    assert create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": tgt, "maxReceiveCount": 50})})

@scenario("test_dead_letter_queue_list_sources", LS)
def _():
    dl = create()
    a = {"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 50})}
    q1, q2 = create(attrs=a), create(attrs=a)
    r = sqs.list_dead_letter_source_queues(QueueUrl=dl)
    eq(len(r), 2, f"top-level response keys {sorted(r)}")
    eq(sorted(r["queueUrls"]), sorted([q1, q2]), "queueUrls")

@scenario("test_dead_letter_queue_with_fifo_and_content_based_deduplication", LS)
def _():
    dlq = create(fifo=True, name=f"test-dlq-{uid()}.fifo", attrs={"ContentBasedDeduplication": "true", "MessageRetentionPeriod": "1209600"})
    q = create(fifo=True, name=f"test-queue-{uid()}.fifo", attrs={"ContentBasedDeduplication": "true", "VisibilityTimeout": "60",
               "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dlq), "maxReceiveCount": 2})})
    mid = sqs.send_message(QueueUrl=q, MessageBody="foobar", MessageGroupId="1")["MessageId"]
    for _ in range(3):
        sqs.receive_message(QueueUrl=q, WaitTimeSeconds=1, VisibilityTimeout=0)
    r = sqs.receive_message(QueueUrl=dlq, WaitTimeSeconds=10)
    eq(len(r.get("Messages", [])), 1, "DLQ messages")
    eq(r["Messages"][0]["MessageId"], mid, "MessageId")
    eq(r["Messages"][0]["Body"], "foobar", "Body")
    mid2 = sqs.send_message(QueueUrl=q, MessageBody="foobar2", MessageGroupId="1")["MessageId"]
    r = sqs.receive_message(QueueUrl=q, WaitTimeSeconds=1)
    eq([m["MessageId"] for m in r.get("Messages", [])], [mid2], "group usable afterwards")

@scenario("test_dead_letter_queue_max_receive_count", LS)
def _():
    dl = create(name=f"dl-queue-{uid()}", attrs={"VisibilityTimeout": "0"})
    q = create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1}), "VisibilityTimeout": "0"})
    mid = sqs.send_message(QueueUrl=q, MessageBody="test")["MessageId"]
    r1 = sqs.receive_message(QueueUrl=q).get("Messages")
    r2 = sqs.receive_message(QueueUrl=q).get("Messages")
    assert (r1 is None) != (r2 is None), f"exactly one receive should return the message: r1={r1 and len(r1)} r2={r2 and len(r2)}"
    end = time.time() + 5
    while time.time() < end and not sqs.receive_message(QueueUrl=dl).get("Messages"):
        time.sleep(0.5)
    eq(sqs.receive_message(QueueUrl=dl)["Messages"][0]["MessageId"], mid, "DLQ MessageId")

@scenario("test_dead_letter_queue_message_attributes", LS + " snapshot")
def _():
    dl = create(name=f"dl-queue-{uid()}")
    q = create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1})})
    src_arn = arn(q)
    trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
    sqs.send_message(QueueUrl=q, MessageBody="message-1", MessageSystemAttributes={"AWSTraceHeader": {"StringValue": trace, "DataType": "String"}},
                     MessageAttributes={"MyAttribute": {"StringValue": "foobar", "DataType": "String"}})
    sqs.send_message(QueueUrl=q, MessageBody="message-2")
    msgs = []
    for _ in range(4):
        msgs += sqs.receive_message(QueueUrl=q, VisibilityTimeout=0, AttributeNames=["All"], MessageAttributeNames=["All"]).get("Messages", [])
    msgs.sort(key=lambda m: m["Body"])
    eq([m["Body"] for m in msgs], ["message-1", "message-2"], "pre-DLQ receives")
    pre = {m["Body"]: m for m in msgs}
    eq(sorted(pre["message-1"]["Attributes"]), ["AWSTraceHeader", "ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "SenderId", "SentTimestamp"], "pre m1 attrs")
    eq(pre["message-1"]["MD5OfMessageAttributes"], "adb59cd4678ea5a855436b949cd07ab6", "pre m1 attr md5")
    eq(sorted(pre["message-2"]["Attributes"]), ["ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "SenderId", "SentTimestamp"], "pre m2 attrs")
    for m in msgs:
        eq(m["Attributes"]["ApproximateReceiveCount"], "1", f"pre {m['Body']} count")
    d = collect(dl, 2, timeout=10, AttributeNames=["All"], MessageAttributeNames=["All"])
    d.sort(key=lambda m: m["Body"])
    eq([m["MessageId"] for m in d], [m["MessageId"] for m in msgs], "DLQ MessageIds preserved")
    a1, a2 = d[0]["Attributes"], d[1]["Attributes"]
    eq(sorted(a1), ["AWSTraceHeader", "ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "DeadLetterQueueSourceArn", "SenderId", "SentTimestamp"], "DLQ m1 attrs")
    eq(sorted(a2), ["ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "DeadLetterQueueSourceArn", "SenderId", "SentTimestamp"], "DLQ m2 attrs")
    eq((a1["ApproximateReceiveCount"], a2["ApproximateReceiveCount"]), ("2", "2"), "DLQ ApproximateReceiveCount")
    eq((a1["DeadLetterQueueSourceArn"], a2["DeadLetterQueueSourceArn"]), (src_arn, src_arn), "DeadLetterQueueSourceArn")
    eq(a1["AWSTraceHeader"], trace, "AWSTraceHeader")
    eq(d[0].get("MD5OfMessageAttributes"), "adb59cd4678ea5a855436b949cd07ab6", "DLQ m1 attr md5")
    eq(d[0].get("MessageAttributes"), {"MyAttribute": {"StringValue": "foobar", "DataType": "String"}}, "DLQ m1 attrs")

@scenario("test_get_specific_queue_attribute_response", LS)
def _():
    dl = create(name=f"dead_letter_queue-{uid()}")
    q = create(attrs={"MessageRetentionPeriod": "604800", "DelaySeconds": "10", "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 10})})
    a = sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["MessageRetentionPeriod", "RedrivePolicy"])["Attributes"]
    eq(a["MessageRetentionPeriod"], "604800", "retention")
    eq(json.loads(a["RedrivePolicy"]).get("maxReceiveCount"), 10, "maxReceiveCount (JSON number)")
    p = q.split("/")
    eq(arn(q), f"arn:aws:sqs:us-east-1:{p[-2]}:{p[-1]}", "QueueArn")

@scenario("test_set_empty_redrive_policy", LS)
def _():
    name = f"dl-queue-{uid()}"
    dl = create(name=name)
    t = arn(dl)
    sqs.set_queue_attributes(QueueUrl=name, Attributes={"RedrivePolicy": ""})
    assert "RedrivePolicy" not in sqs.get_queue_attributes(QueueUrl=name, AttributeNames=["All"])["Attributes"]
    sqs.set_queue_attributes(QueueUrl=dl, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": t, "maxReceiveCount": "42"})})
    a = sqs.get_queue_attributes(QueueUrl=dl, AttributeNames=["All"])["Attributes"]
    assert t in a.get("RedrivePolicy", ""), f"RedrivePolicy {a.get('RedrivePolicy')}"
    sqs.set_queue_attributes(QueueUrl=dl, Attributes={"RedrivePolicy": ""})
    assert "RedrivePolicy" not in sqs.get_queue_attributes(QueueUrl=dl, AttributeNames=["All"])["Attributes"]

@scenario("test_redrive_policy_attribute_validity", LS + " (aws.validated, skipped in LS)")
def _():
    dl = create(name=f"dl-queue-{uid()}")
    t = arn(dl)
    q = create()
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": t})}), "InvalidParameterValue", type_=None)
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedrivePolicy": json.dumps({"maxReceiveCount": "42"})}), "InvalidParameterValue", type_=None)
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": t, "maxReceiveCount": "invalid"})}), "InvalidParameterValue", type_=None)
    sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": t, "maxReceiveCount": "42"})})

@scenario("test_invalid_dead_letter_arn_rejected_before_lookup", LS + " snapshot (2023-11)")
def _():
    pol = json.dumps({"deadLetterTargetArn": "dummy", "maxReceiveCount": 42})
    err(lambda: create(attrs={"RedrivePolicy": pol}), "InvalidParameterValue",
        f"Value {pol} for parameter RedrivePolicy is invalid. Reason: Invalid value for deadLetterTargetArn.", 400, "InvalidParameterValueException")

@scenario("cfn test_create_standard_queue_with_all_properties (RedrivePolicy/RedriveAllowPolicy readback)", "LS:resource_providers/test_aws_sqs_queue snapshot (2025-12)")
def _():
    dl = create(attrs={"RedriveAllowPolicy": json.dumps({"redrivePermission": "allowAll"})})
    q = create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 7})})
    a = sqs.get_queue_attributes(QueueUrl=dl, AttributeNames=["RedriveAllowPolicy"])["Attributes"]
    eq(json.loads(a.get("RedriveAllowPolicy", "null")), {"redrivePermission": "allowAll"}, "RedriveAllowPolicy")
    eq(sorted(a), ["RedriveAllowPolicy"], "attributes returned for [RedriveAllowPolicy]")
    rp = json.loads(sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["RedrivePolicy"])["Attributes"]["RedrivePolicy"])
    eq(rp, {"deadLetterTargetArn": arn(dl), "maxReceiveCount": 7}, "RedrivePolicy")

# ---- doc/model-derived (weaker sources) ----
@scenario("RedriveAllowPolicy denyAll blocks sources", "DG:sqs-dead-letter-queues / API SetQueueAttributes [D]", group="D")
def _():
    dl = create(attrs={"RedriveAllowPolicy": json.dumps({"redrivePermission": "denyAll"})})
    err(lambda: create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1})}), "InvalidParameterValue", type_=None)

@scenario("RedriveAllowPolicy byQueue allows listed / blocks others", "API SetQueueAttributes [D]", group="D")
def _():
    src_name = f"q-{uid()}"
    p = create().split("/")
    src_arn = f"arn:aws:sqs:us-east-1:{p[-2]}:{src_name}"
    dl = create(attrs={"RedriveAllowPolicy": json.dumps({"redrivePermission": "byQueue", "sourceQueueArns": [src_arn]})})
    create(name=src_name, attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1})})
    err(lambda: create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1})}), "InvalidParameterValue", type_=None)

@scenario("RedriveAllowPolicy validation (byQueue w/o ARNs, allowAll with ARNs, bad permission)", "API SetQueueAttributes [D]", group="D")
def _():
    q = create()
    a = arn(q)
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedriveAllowPolicy": json.dumps({"redrivePermission": "byQueue"})}), "InvalidParameterValue", type_=None)
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedriveAllowPolicy": json.dumps({"redrivePermission": "allowAll", "sourceQueueArns": [a]})}), "InvalidParameterValue", type_=None)
    err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedriveAllowPolicy": json.dumps({"redrivePermission": "foo"})}), "InvalidParameterValue", type_=None)

@scenario("RedrivePolicy: FIFO source with standard DLQ rejected", "DG:sqs-dead-letter-queues [D]", group="D")
def _():
    dl = create()
    err(lambda: create(fifo=True, attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 1})}), "InvalidParameterValue", type_=None)

@scenario("RedrivePolicy: maxReceiveCount 0 / 1001 rejected", "DG [D]", group="D")
def _():
    dl = create(); t = arn(dl); q = create()
    for n in (0, 1001):
        err(lambda: sqs.set_queue_attributes(QueueUrl=q, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": t, "maxReceiveCount": n})}), "InvalidParameterValue", type_=None)

@scenario("ListDeadLetterSourceQueues: empty result still has queueUrls; MaxResults paginates", "BOTO model (queueUrls required) [M]", group="D")
def _():
    dl = create()
    r = sqs.list_dead_letter_source_queues(QueueUrl=dl)
    assert "queueUrls" in r and r["queueUrls"] == [], f"empty: {strip(r)}"
    a = {"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": 5})}
    qs = {create(attrs=a) for _ in range(3)}
    r1 = sqs.list_dead_letter_source_queues(QueueUrl=dl, MaxResults=2)
    eq(len(r1["queueUrls"]), 2, "page1 size")
    assert "NextToken" in r1, f"page1 NextToken missing: {strip(r1)}"
    r2 = sqs.list_dead_letter_source_queues(QueueUrl=dl, MaxResults=2, NextToken=r1["NextToken"])
    eq(set(r1["queueUrls"]) | set(r2["queueUrls"]), qs, "all sources")
    assert "NextToken" not in r2, f"page2 NextToken: {strip(r2)}"

# ---------------- move tasks ----------------
def enc(task_id, source_arn):
    return base64.b64encode(f'{{"taskId":"{task_id}","sourceArn":"{source_arn}"}}'.encode()).decode()

def dec(handle):
    # same tolerance as localstack.utils.strings.base64_decode used by the AWS-validated test
    data = handle + "=" * (-len(handle) % 4)
    raw = base64.urlsafe_b64decode(data) if ("-" in data or "_" in data) else base64.b64decode(data)
    d = json.loads(raw)
    return d["taskId"], d["sourceArn"]

@scenario("test_cancel_with_invalid_task_handle", MT + " snapshot")
def _():
    err(lambda: sqs.cancel_message_move_task(TaskHandle="foobared"), "InvalidParameterValue", "Value for parameter TaskHandle is invalid.", 400)

@scenario("test_cancel_with_invalid_source_arn_in_task_handle", MT + " snapshot")
def _():
    h = enc("10f57157-fc38-4da9-a113-4de7e12d05dd", "arn:aws:sqs:us-east-1:878966065785:test-queue-doesnt-exist-123456")
    err(lambda: sqs.cancel_message_move_task(TaskHandle=h), "ResourceNotFoundException", "The resource that you specified for the SourceArn parameter doesn't exist.", 404)

@scenario("test_cancel_with_invalid_task_id_in_task_handle", MT + " snapshot")
def _():
    q = create()
    h = enc("10f57157-fc38-4da9-a113-4de7e12d05aa", arn(q))
    err(lambda: sqs.cancel_message_move_task(TaskHandle=h), "ResourceNotFoundException", "Task does not exist.", 404)

@scenario("test_source_needs_redrive_policy", MT + " snapshot")
def _():
    s, d = create(), create()
    err(lambda: sqs.start_message_move_task(SourceArn=arn(s), DestinationArn=arn(d)), "InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue.", 400)

@scenario("test_destination_needs_to_exist", MT + " snapshot")
def _():
    q, dl = dlq_pipe()
    dest = create()
    err(lambda: sqs.start_message_move_task(SourceArn=arn(dl), DestinationArn=arn(dest) + "doesntexist"),
        "ResourceNotFoundException", "The resource that you specified for the DestinationArn parameter doesn't exist.", 404)

def _fill_dlq(q, dl, n):
    for i in range(n):
        sqs.send_message(QueueUrl=q, MessageBody=f"message-{i}")
    wait_qsize(q, n)
    for _ in range(n * 2):
        sqs.receive_message(QueueUrl=q, VisibilityTimeout=0)
    eq(wait_qsize(dl, n), n, "DLQ size")

def _wait_task(source_arn, pred, timeout=30):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        last = sqs.list_message_move_tasks(SourceArn=source_arn)
        if last.get("Results") and pred(last["Results"][0]):
            return last
        time.sleep(0.5)
    raise AssertionError(f"task never reached expected state; last={strip(last)}")

@scenario("test_basic_move_task_workflow", MT + " snapshot")
def _():
    q, dl = dlq_pipe()
    sa = arn(dl)
    dest = create(); da = arn(dest)
    sqs.send_message(QueueUrl=q, MessageBody="message-1")
    sqs.send_message(QueueUrl=q, MessageBody="message-2")
    for _ in range(4):
        sqs.receive_message(QueueUrl=q, VisibilityTimeout=0)
    eq(wait_qsize(dl, 2), 2, "DLQ size")
    r = sqs.start_message_move_task(SourceArn=sa, DestinationArn=da)
    eq(sorted(strip(r)), ["TaskHandle"], "start response keys")
    try:
        tid, sarn = dec(r["TaskHandle"])
    except Exception as e:
        raise AssertionError(f"TaskHandle {r['TaskHandle']!r} is not base64 JSON {{taskId,sourceArn}} as on AWS ({e})")
    uuid.UUID(tid)
    eq(sarn, sa, "decoded sourceArn")
    eq({m["Body"] for m in collect(dest, 2)}, {"message-1", "message-2"}, "moved bodies")
    lr = _wait_task(sa, lambda t: int(t["ApproximateNumberOfMessagesMoved"]) == 2)
    t = lr["Results"][0]
    eq(sorted(t), ["ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesToMove", "DestinationArn", "SourceArn", "StartedTimestamp", "Status"], "result keys")
    eq((t["Status"], t["ApproximateNumberOfMessagesToMove"], t["SourceArn"], t["DestinationArn"]), ("COMPLETED", 2, sa, da), "result values")
    assert isinstance(t["StartedTimestamp"], int) and t["StartedTimestamp"] > 10**12, f"StartedTimestamp {t['StartedTimestamp']!r} (AWS epoch ms)"
    assert not sqs.receive_message(QueueUrl=dl, WaitTimeSeconds=1).get("Messages"), "DLQ not empty"

@scenario("test_move_task_workflow_with_default_destination", MT + " snapshot")
def _():
    q, dl = dlq_pipe()
    sa = arn(dl)
    sqs.send_message(QueueUrl=q, MessageBody="message-1")
    sqs.send_message(QueueUrl=q, MessageBody="message-2")
    for _ in range(4):
        sqs.receive_message(QueueUrl=q, VisibilityTimeout=0)
    eq(wait_qsize(dl, 2), 2, "DLQ size")
    r = sqs.start_message_move_task(SourceArn=sa)
    tid, sarn = dec(r["TaskHandle"]); eq(sarn, sa, "decoded sourceArn")
    eq({m["Body"] for m in collect(q, 2)}, {"message-1", "message-2"}, "bodies back in source")
    t = _wait_task(sa, lambda t: int(t["ApproximateNumberOfMessagesMoved"]) == 2)["Results"][0]
    eq(sorted(t), ["ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesToMove", "SourceArn", "StartedTimestamp", "Status"], "result keys")
    eq((t["Status"], t["ApproximateNumberOfMessagesToMove"]), ("COMPLETED", 2), "status")
    assert not sqs.receive_message(QueueUrl=dl, WaitTimeSeconds=1).get("Messages"), "DLQ not empty"

@scenario("test_move_task_workflow_with_multiple_sources_as_default_destination", MT + " snapshot")
def _():
    q1, dl = dlq_pipe()
    sa = arn(dl)
    q2 = create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": sa, "maxReceiveCount": 1})})
    for q, p in ((q1, "1"), (q2, "2")):
        sqs.send_message(QueueUrl=q, MessageBody=f"message-{p}-1")
        sqs.send_message(QueueUrl=q, MessageBody=f"message-{p}-2")
    for q in (q1, q2):
        for _ in range(4):
            sqs.receive_message(QueueUrl=q, VisibilityTimeout=0)
    eq(wait_qsize(dl, 4), 4, "DLQ size")
    sqs.start_message_move_task(SourceArn=sa)
    eq({m["Body"] for m in collect(q1, 2)}, {"message-1-1", "message-1-2"}, "q1")
    eq({m["Body"] for m in collect(q2, 2)}, {"message-2-1", "message-2-2"}, "q2")
    t = _wait_task(sa, lambda t: int(t["ApproximateNumberOfMessagesMoved"]) == 4)["Results"][0]
    eq((t["Status"], t["ApproximateNumberOfMessagesToMove"]), ("COMPLETED", 4), "status")

@scenario("test_move_task_with_throughput_limit", MT)
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    dest = create()
    _fill_dlq(q, dl, 4)
    # Timed from before the start: the first message moves at once, the other three one second
    # apart, so a clock started after the answer could read a hair under 3 s.
    t0 = time.time()
    r = sqs.start_message_move_task(SourceArn=sa, DestinationArn=arn(dest), MaxNumberOfMessagesPerSecond=1)
    eq(sorted(strip(r)), ["TaskHandle"], "start keys")
    eq({m["Body"] for m in collect(dest, 4, timeout=30)}, {f"message-{i}" for i in range(4)}, "bodies")
    assert time.time() - t0 >= 3, f"4 messages at 1/s moved in {time.time()-t0:.2f}s (AWS >= 3s)"

@scenario("test_move_task_cancel", MT + " snapshot")
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    dest = create(); da = arn(dest)
    _fill_dlq(q, dl, 10)
    h = sqs.start_message_move_task(SourceArn=sa, DestinationArn=da, MaxNumberOfMessagesPerSecond=1)["TaskHandle"]
    collect(dest, 2, timeout=30)
    t = sqs.list_message_move_tasks(SourceArn=sa)["Results"][0]
    eq(sorted(t), ["ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesToMove", "DestinationArn", "MaxNumberOfMessagesPerSecond", "SourceArn", "StartedTimestamp", "Status", "TaskHandle"], "list-while keys")
    eq((t["Status"], t["ApproximateNumberOfMessagesToMove"], t["MaxNumberOfMessagesPerSecond"], t["TaskHandle"]), ("RUNNING", 10, 1, h), "list-while values")
    c = sqs.cancel_message_move_task(TaskHandle=h)
    eq(sorted(strip(c)), ["ApproximateNumberOfMessagesMoved"], "cancel keys")
    t = _wait_task(sa, lambda t: t["Status"] == "CANCELLED")["Results"][0]
    eq(sorted(t), ["ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesToMove", "DestinationArn", "MaxNumberOfMessagesPerSecond", "SourceArn", "StartedTimestamp", "Status"], "list-after keys")
    assert sqs.receive_message(QueueUrl=dl).get("Messages"), "DLQ should still have messages"

@scenario("test_move_task_delete_destination_queue_while_running", MT + " snapshot")
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    dest = create(); da = arn(dest)
    _fill_dlq(q, dl, 10)
    sqs.start_message_move_task(SourceArn=sa, DestinationArn=da, MaxNumberOfMessagesPerSecond=1)
    sqs.delete_queue(QueueUrl=dest)
    t = _wait_task(sa, lambda t: t["Status"] != "RUNNING")["Results"][0]
    eq(sorted(t), ["ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesToMove", "DestinationArn", "FailureReason", "MaxNumberOfMessagesPerSecond", "SourceArn", "StartedTimestamp", "Status"], "keys")
    eq((t["Status"], t.get("FailureReason"), t["ApproximateNumberOfMessagesToMove"]), ("FAILED", "AWS.SimpleQueueService.NonExistentQueue", 10), "values")
    assert sqs.receive_message(QueueUrl=dl).get("Messages"), "DLQ should still have messages"

@scenario("test_start_multiple_move_tasks", MT + " snapshot")
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    dest = create(); da = arn(dest)
    _fill_dlq(q, dl, 10)
    sqs.start_message_move_task(SourceArn=sa, DestinationArn=da, MaxNumberOfMessagesPerSecond=1)
    err(lambda: sqs.start_message_move_task(SourceArn=sa, DestinationArn=da, MaxNumberOfMessagesPerSecond=1), "InvalidParameterValue",
        "There is already a task running. Only one active task is allowed for a source queue arn at a given time.", 400)

@scenario("StartMessageMoveTask: missing source queue -> 404 SourceArn text", "AWS API reference: StartMessageMoveTask [A LSMT text via cancel]", group="D")
def _():
    err(lambda: sqs.start_message_move_task(SourceArn="arn:aws:sqs:us-east-1:000000000000:nope-" + uid()),
        "ResourceNotFoundException", "The resource that you specified for the SourceArn parameter doesn't exist.", 404)

@scenario("ListMessageMoveTasks: newest first, MaxResults default 1", "BOTO model / DG [M]", group="D")
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    _fill_dlq(q, dl, 1)
    d1 = create(); sqs.start_message_move_task(SourceArn=sa, DestinationArn=arn(d1))
    _wait_task(sa, lambda t: t["Status"] == "COMPLETED")
    _fill_dlq(q, dl, 1)
    d2 = create(); sqs.start_message_move_task(SourceArn=sa, DestinationArn=arn(d2))
    _wait_task(sa, lambda t: t["Status"] == "COMPLETED" and t.get("DestinationArn") == arn(d2))
    r = sqs.list_message_move_tasks(SourceArn=sa)
    eq(len(r["Results"]), 1, "default MaxResults")
    r = sqs.list_message_move_tasks(SourceArn=sa, MaxResults=10)
    eq([t.get("DestinationArn") for t in r["Results"]], [arn(d2), arn(d1)], "newest first")


@scenario("CancelMessageMoveTask on a COMPLETED task is rejected", "API CancelMessageMoveTask: only active tasks [D]", group="D")
def _():
    q, dl = dlq_pipe(); sa = arn(dl)
    _fill_dlq(q, dl, 1)
    h = sqs.start_message_move_task(SourceArn=sa, DestinationArn=arn(create()))["TaskHandle"]
    _wait_task(sa, lambda t: t["Status"] == "COMPLETED")
    try:
        r = sqs.cancel_message_move_task(TaskHandle=h)
    except ClientError as e:
        return
    raise AssertionError(f"cancel of completed task succeeded: {strip(r)}")

@scenario("StartMessageMoveTask MaxNumberOfMessagesPerSecond=501 rejected", "API doc: max 500 [D]", group="D")
def _():
    q, dl = dlq_pipe()
    err(lambda: sqs.start_message_move_task(SourceArn=arn(dl), MaxNumberOfMessagesPerSecond=501), "InvalidParameterValue", type_=None)

@scenario("DLQ move keeps SentTimestamp / ApproximateFirstReceiveTimestamp", "DG:sqs-dead-letter-queues [D]", group="D")
def _():
    q, dl = dlq_pipe()
    sqs.send_message(QueueUrl=q, MessageBody="m")
    m = sqs.receive_message(QueueUrl=q, VisibilityTimeout=0, AttributeNames=["All"])["Messages"][0]
    time.sleep(1.1)
    sqs.receive_message(QueueUrl=q, VisibilityTimeout=0)
    d = collect(dl, 1, AttributeNames=["All"])[0]
    for k in ("SentTimestamp", "ApproximateFirstReceiveTimestamp"):
        eq(d["Attributes"][k], m["Attributes"][k], k)
