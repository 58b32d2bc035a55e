"""FIFO queue scenarios through boto3 (SendMessage, SendMessageBatch and DeleteMessage in the AWS API reference; the SQS FIFO queues guide), each named after the AWS-validated
test it restates."""
from common import *

LS = "LS:test_sqs.py::"

@scenario("test_create_fifo_queue_with_same_attributes_is_idempotent", LS)
def _():
    name = f"q-{uid()}.fifo"
    u = create(name=name, attrs={"FifoQueue": "true"})
    eq(create(name=name, attrs={"FifoQueue": "true"}), u, "url")

@scenario("test_create_fifo_queue_with_different_attributes_raises_error", LS + " snapshot queue-already-exists")
def _():
    name = f"q-{uid()}.fifo"
    create(name=name, attrs={"FifoQueue": "true", "ContentBasedDeduplication": "true"})
    err(lambda: create(name=name, attrs={"FifoQueue": "true", "ContentBasedDeduplication": "false"}),
        "QueueAlreadyExists", "A queue already exists with the same name and a different value for attribute ContentBasedDeduplication", 400, "QueueNameExists")

@scenario("test_create_standard_queue_with_fifo_attribute_raises_error", LS + " snapshot")
def _():
    name = f"q-{uid()}"
    err(lambda: create(name=name, attrs={"FifoQueue": "false"}), "InvalidAttributeName", "Unknown Attribute FifoQueue.", 400, "InvalidAttributeName")
    err(lambda: create(name=name, attrs={"ContentBasedDeduplication": "false"}), "InvalidAttributeName", "Unknown Attribute ContentBasedDeduplication.", 400)
    err(lambda: create(name=name, attrs={"DeduplicationScope": "queue"}), "InvalidAttributeName", "You can specify the DeduplicationScope only when FifoQueue is set to true.", 400)
    err(lambda: create(name=name, attrs={"FifoThroughputLimit": "perQueue"}), "InvalidAttributeName", "You can specify the FifoThroughputLimit only when FifoQueue is set to true.", 400)

@scenario("test_fifo_queue_requires_suffix", LS)
def _():
    err(lambda: create(name=f"invalid-{uid()}", attrs={"FifoQueue": "true"}), "InvalidParameterValue")

@scenario("test_standard_queue_cannot_have_fifo_suffix", LS)
def _():
    err(lambda: sqs.create_queue(QueueName=f"q-{uid()}.fifo"), "InvalidParameterValue")

@scenario("test_set_unsupported_attribute_fifo", LS + " snapshot")
def _():
    u = create()
    err(lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"FifoQueue": "true"}), "InvalidAttributeName", "Unknown Attribute FifoQueue.", 400)
    f = create(fifo=True)
    sqs.set_queue_attributes(QueueUrl=f, Attributes={"FifoQueue": "true"})
    err(lambda: sqs.set_queue_attributes(QueueUrl=f, Attributes={"FifoQueue": "false"}), "InvalidAttributeValue",
        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.", 400, "InvalidAttributeValue")

@scenario("test_send_message_with_delay_0_works_for_fifo", LS)
def _():
    u = create(fifo=True)
    h = sqs.send_message(QueueUrl=u, DelaySeconds=0, MessageBody="Hello World!", MessageGroupId="test", MessageDeduplicationId="42")["MD5OfMessageBody"]
    eq(sqs.receive_message(QueueUrl=u, VisibilityTimeout=0)["Messages"][0]["MD5OfBody"], h, "md5")

@scenario("test_message_deduplication_id_success", LS)
def _():
    u = create(fifo=True)
    sqs.send_message(QueueUrl=u, MessageBody="Hello World!", MessageGroupId="test", MessageDeduplicationId="a" * 128)

@scenario("test_message_deduplication_id_invalid[empty,too_long,spaces]", LS + " snapshot")
def _():
    u = create(fifo=True)
    for v in ["", "a" * 129, "group 123"]:
        err(lambda: sqs.send_message(QueueUrl=u, MessageBody="Hello World!", MessageGroupId="test", MessageDeduplicationId=v),
            "InvalidParameterValue", f"Value {v} for parameter MessageDeduplicationId is invalid. Reason: MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.", 400, "InvalidParameterValueException")

@scenario("test_send_message_to_standard_queue_with_invalid_message_group_id[empty,too_long,spaces]", LS + " snapshot")
def _():
    u = create()
    for v in ["", "a" * 129, "group 123"]:
        err(lambda: sqs.send_message(QueueUrl=u, MessageBody="message", MessageGroupId=v),
            "InvalidParameterValue", f"Value {v} for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.", 400, "InvalidParameterValueException")

@scenario("test_fair_queue_with_message_group_id", LS + " snapshot")
def _():
    u = create()
    r = sqs.send_message(QueueUrl=u, MessageBody="message", MessageGroupId="test")
    eq(sorted(strip(r)), ["MD5OfMessageBody", "MessageId"], "send keys")
    m = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=5, AttributeNames=["All"])["Messages"][0]
    eq(sorted(m["Attributes"]), ["ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "MessageGroupId", "SenderId", "SentTimestamp"], "attribute keys")
    eq(m["Attributes"]["MessageGroupId"], "test", "MessageGroupId")

@scenario("test_fifo_approximate_number_of_messages_not_visible", LS + " (vis timeout 60->2s)")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "True", "VisibilityTimeout": "2"})
    for i, g in enumerate(["1", "1", "2", "2", "3", "3"]):
        sqs.send_message(QueueUrl=u, MessageBody=f"message-{i+1}", MessageGroupId=g)
    m1 = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, MessageSystemAttributeNames=["MessageGroupId"])
    m2 = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, MessageSystemAttributeNames=["MessageGroupId"])
    eq(m1["Messages"][0]["Attributes"]["MessageGroupId"], "1", "first group")
    eq(m2["Messages"][0]["Attributes"]["MessageGroupId"], "2", "second group")
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"]
    eq(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=names)["Attributes"],
       {"ApproximateNumberOfMessages": "4", "ApproximateNumberOfMessagesNotVisible": "2", "ApproximateNumberOfMessagesDelayed": "0"}, "counts before timeout")
    time.sleep(2.5)
    eq(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=names)["Attributes"],
       {"ApproximateNumberOfMessages": "6", "ApproximateNumberOfMessagesNotVisible": "0", "ApproximateNumberOfMessagesDelayed": "0"}, "counts after timeout")

@scenario("test_fifo_delete_after_visibility_timeout", LS + " snapshot delete_after_timeout_fifo")
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "1", "FifoQueue": "True", "ContentBasedDeduplication": "True"})
    sqs.send_message(QueueUrl=u, MessageBody="foobar", MessageGroupId="1")
    r = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=5)
    eq(sorted(r["Messages"][0]), ["Body", "MD5OfBody", "MessageId", "ReceiptHandle"], "message keys")
    h = r["Messages"][0]["ReceiptHandle"]
    time.sleep(1.1)
    err(lambda: sqs.delete_message(QueueUrl=u, ReceiptHandle=h), "InvalidParameterValue",
        f"Value {h} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.", 400, "InvalidParameterValueException")

@scenario("test_fifo_delete_after_visibility_timeout_extended", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "1", "FifoQueue": "True", "ContentBasedDeduplication": "True"})
    sqs.send_message(QueueUrl=u, MessageBody="foobar", MessageGroupId="1")
    h = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=5)["Messages"][0]["ReceiptHandle"]
    sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=h, VisibilityTimeout=5)
    time.sleep(1.5)
    sqs.delete_message(QueueUrl=u, ReceiptHandle=h)
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"expected no Messages key, got {strip(r)}"

@scenario("test_fifo_empty_message_groups_added_back_to_queue", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True"})
    sqs.send_message(QueueUrl=u, MessageDeduplicationId="1", MessageGroupId="g1", MessageBody="Message 1")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Message 1"], "initial")
    eq(r["Messages"][0]["MD5OfBody"], "68390233272823b7adf13a1db79b2cd7", "md5")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"empty receive should have no Messages key: {strip(r)}"
    sqs.send_message(QueueUrl=u, MessageDeduplicationId="2", MessageGroupId="g1", MessageBody="Message 2")
    eq(bodies(sqs.receive_message(QueueUrl=u)), ["Message 2"], "final")

@scenario("test_fifo_message_group_visibility", LS)
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "60", "ContentBasedDeduplication": "true"})
    q = Queue()
    def rec():
        r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, WaitTimeSeconds=10)
        if r.get("Messages"):
            q.put(r["Messages"][0])
    ts = [threading.Thread(target=rec) for _ in range(3)]
    for t in ts: t.start()
    time.sleep(0.3)
    sqs.send_message(QueueUrl=u, MessageBody="message-1", MessageGroupId="1")
    m = q.get(timeout=2)
    eq(m["Body"], "message-1", "first")
    sqs.send_message(QueueUrl=u, MessageBody="message-2", MessageGroupId="1")
    try:
        extra = q.get(timeout=2)
        raise AssertionError(f"group should be locked, but a poller got {extra['Body']}")
    except Empty:
        pass
    sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
    try:
        m2 = q.get(timeout=2)
    except Empty:
        raise AssertionError("waiting long poll did not get message-2 within 2s after delete")
    eq(m2["Body"], "message-2", "second")
    for t in ts: t.join()

@scenario("test_fifo_messages_in_order_after_timeout", LS)
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "1"})
    for i in range(3):
        sqs.send_message(QueueUrl=u, MessageBody=f"message-{i}", MessageGroupId="1", MessageDeduplicationId=f"{i}")
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10))[:3], ["message-0", "message-1", "message-2"], "first")
    time.sleep(2)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10))[:3], ["message-0", "message-1", "message-2"], "after timeout")

@scenario("test_fifo_receive_message_group_id_ordering", LS)
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g2-m1", "group-2"), ("g1-m2", "group-1"), ("g1-m3", "group-1")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10)), ["g1-m1", "g1-m2", "g1-m3", "g2-m1"], "order")

@scenario("test_fifo_receive_message_visibility_timeout_shared_in_group", LS)
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "1", "ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g1-m2", "group-1"), ("g1-m3", "group-1"), ("g1-m4", "group-1"), ("g2-m1", "group-2"), ("g3-m1", "group-3")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2)), ["g1-m1", "g1-m2"], "first receive")
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1)), ["g2-m1"], "second receive")
    time.sleep(2)
    o = bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10, VisibilityTimeout=0))
    assert o in (["g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1"], ["g3-m1", "g2-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4"]), \
        f"got {o}, AWS ['g3-m1','g1-m1','g1-m2','g1-m3','g1-m4','g2-m1']"

@scenario("test_fifo_receive_message_with_zero_visibility_timeout", LS)
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g2-m1", "group-2"), ("g2-m2", "group-2"), ("g3-m1", "group-3"), ("g1-m2", "group-1")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=3, VisibilityTimeout=0)), ["g1-m1", "g1-m2", "g2-m1"], "first receive")
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10, VisibilityTimeout=0)), ["g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"], "second receive")

@scenario("test_fifo_message_group_visibility_after_terminate_visibility_timeout", LS)
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "30", "ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g1-m2", "group-1"), ("g2-m1", "group-2")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2)
    eq(bodies(r), ["g1-m1", "g1-m2"], "first")
    sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"], VisibilityTimeout=0)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=3, WaitTimeSeconds=2)), ["g2-m1", "g1-m1"], "second")

@scenario("test_fifo_message_group_visibility_after_change_message_visibility", LS)
def _():
    u = create(fifo=True, attrs={"VisibilityTimeout": "30", "ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g1-m2", "group-1"), ("g2-m1", "group-2")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2)
    eq(bodies(r), ["g1-m1", "g1-m2"], "first")
    sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"], VisibilityTimeout=1)
    time.sleep(2)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=3)), ["g2-m1", "g1-m1"], "second")

def _group_ext(pos, expected):
    u = create(fifo=True, name=f"test-queue-{uid()}.fifo", attrs={"VisibilityTimeout": "1"})
    for b in ["foo", "bar", "baz"]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId="1", MessageDeduplicationId=b)
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=5)
    eq(bodies(r), ["foo", "bar", "baz"], "receive all")
    sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=r["Messages"][pos]["ReceiptHandle"], VisibilityTimeout=4)
    time.sleep(2.5)
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=5)
    eq(bodies(r), expected, f"after extending message {pos}")

for _pos, _exp in [(0, []), (1, ["foo"]), (2, ["foo", "bar"])]:
    scenario(f"test_fifo_group_visibility_extends_with_change_message_visibility[{_pos}-visible]", LS + " snapshot (2025-11)")(
        (lambda p, e: (lambda: _group_ext(p, e)))(_pos, _exp))

def _g_setup():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    for b, g in [("g1-m1", "group-1"), ("g2-m1", "group-2"), ("g1-m2", "group-1"), ("g2-m2", "group-2"), ("g1-m2", "group-1"), ("g1-m3", "group-1"), ("g1-m4", "group-1"), ("g3-m1", "group-3")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    return u

@scenario("test_fifo_message_group_visibility_after_delete", LS)
def _():
    u = _g_setup()
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2)
    eq(bodies(r), ["g1-m1", "g1-m2"], "first")
    for m in r["Messages"]:
        sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
    o = bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10))
    assert o in (["g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1"], ["g2-m1", "g2-m2", "g3-m1", "g1-m3", "g1-m4"]), f"got {o}, AWS ['g2-m1','g2-m2','g1-m3','g1-m4','g3-m1']"

@scenario("test_fifo_message_group_visibility_after_partial_delete", LS)
def _():
    u = _g_setup()
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2)
    eq(bodies(r), ["g1-m1", "g1-m2"], "first")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10)), ["g2-m1", "g2-m2", "g3-m1"], "drain")

@scenario("test_fifo_queue_send_message_with_delay_seconds_fails", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    err(lambda: sqs.send_message(QueueUrl=u, MessageBody="message-1", MessageGroupId="1", DelaySeconds=2), "InvalidParameterValue",
        "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.", 400, "InvalidParameterValueException")

@scenario("test_fifo_queue_send_message_with_delay_on_queue_works", LS)
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true", "DelaySeconds": "2"})
    for i in range(1, 4):
        sqs.send_message(QueueUrl=u, MessageBody=f"message-{i}", MessageGroupId="1")
    eq(bodies(sqs.receive_message(QueueUrl=u, WaitTimeSeconds=1)), [], "during delay")
    time.sleep(2.2)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=3)), ["message-1", "message-2", "message-3"], "after delay")

@scenario("test_fifo_queue_send_message_with_zero_delay_defaults_to_queue_delay", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true", "DelaySeconds": "2"})
    r = sqs.send_message(QueueUrl=u, MessageBody="message-1", MessageGroupId="1", DelaySeconds=0)
    eq(sorted(strip(r)), ["MD5OfMessageBody", "MessageId", "SequenceNumber"], "send keys")
    r = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=1)
    assert "Messages" not in r, f"initial receive: {strip(r)}"
    time.sleep(2.2)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1)), ["message-1"], "after delay")

@scenario("test_fifo_message_attributes", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true", "VisibilityTimeout": "0", "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"})
    s = sqs.send_message(QueueUrl=u, MessageBody="message-body-1", MessageGroupId="group-1", MessageDeduplicationId="dedup-1")
    eq(sorted(strip(s)), ["MD5OfMessageBody", "MessageId", "SequenceNumber"], "send keys")
    eq(s["MD5OfMessageBody"], "19c9e282d65f9733bc6b35d50062c7ee", "md5")
    keys = ["ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "MessageDeduplicationId", "MessageGroupId", "SenderId", "SentTimestamp", "SequenceNumber"]
    for i in (1, 2):
        m = sqs.receive_message(QueueUrl=u, AttributeNames=["All"], WaitTimeSeconds=10)["Messages"][0]
        eq(sorted(m), ["Attributes", "Body", "MD5OfBody", "MessageId", "ReceiptHandle"], f"receive {i} message keys")
        a = m["Attributes"]
        eq(sorted(a), keys, f"receive {i} attribute keys")
        eq(a["ApproximateReceiveCount"], str(i), "ApproximateReceiveCount")
        eq(a["MessageDeduplicationId"], "dedup-1", "dedup")
        eq(a["MessageGroupId"], "group-1", "group")
        eq(a["SequenceNumber"], s["SequenceNumber"], "SequenceNumber")

@scenario("test_fifo_approx_number_of_messages", LS)
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    eq(qsize(u), 0, "initial")
    for b, g in [("g1-m1", "1"), ("g1-m2", "1"), ("g1-m3", "1"), ("g2-m1", "2"), ("g3-m1", "3")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
    eq(qsize(u), 5, "after send")
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=4, WaitTimeSeconds=1)
    eq(qsize(u), 1, "after receive of 4")
    for m in r["Messages"]:
        sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
    eq(qsize(u), 1, "after delete")

FIFO_ALL = {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesDelayed": "0", "ApproximateNumberOfMessagesNotVisible": "0",
            "ContentBasedDeduplication": "true", "DeduplicationScope": "queue", "DelaySeconds": "0", "FifoQueue": "true",
            "FifoThroughputLimit": "perQueue", "MaximumMessageSize": "1048576", "MessageRetentionPeriod": "345600",
            "ReceiveMessageWaitTimeSeconds": "0", "SqsManagedSseEnabled": "true", "VisibilityTimeout": "30"}

def _cmp_all(a, exp, what):
    a = dict(a)
    for k in ("CreatedTimestamp", "LastModifiedTimestamp", "QueueArn"):
        assert k in a, f"{what}: missing {k}"
        a.pop(k)
    eq(a, exp, what)

@scenario("test_fifo_set_content_based_deduplication_strategy", LS + " snapshot (2025-08)")
def _():
    u = create(fifo=True, attrs={"SqsManagedSseEnabled": "true", "ContentBasedDeduplication": "true"})
    _cmp_all(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"], FIFO_ALL, "before-update")
    sqs.set_queue_attributes(QueueUrl=u, Attributes={"ContentBasedDeduplication": "false"})
    _cmp_all(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"], dict(FIFO_ALL, ContentBasedDeduplication="false"), "after-update")

@scenario("test_send_batch_missing_deduplication_id_for_fifo_queue", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "false"})
    err(lambda: sqs.send_message_batch(QueueUrl=u, Entries=[
        {"Id": "a1", "MessageBody": "messageBody", "MessageGroupId": "test-group", "MessageDeduplicationId": f"dedup-{uid()}"},
        {"Id": "a2", "MessageBody": "messageBody", "MessageGroupId": "test-group"}]),
        "InvalidParameterValue", "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly", 400, "InvalidParameterValueException")

@scenario("test_send_batch_missing_message_group_id_for_fifo_queue", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "false"})
    err(lambda: sqs.send_message_batch(QueueUrl=u, Entries=[
        {"Id": "a1", "MessageBody": "messageBody", "MessageGroupId": "test-group", "MessageDeduplicationId": f"dedup-{uid()}"},
        {"Id": "a2", "MessageBody": "messageBody", "MessageDeduplicationId": f"dedup-{uid()}"}]),
        "InvalidParameterValue", "The request must contain the parameter MessageGroupId.", 400, "InvalidParameterValueException")

@scenario("test_create_and_send_to_fifo_queue", LS)
def _():
    name = f"queue-{uid()}.fifo"
    u = create(name=name, attrs={"FifoQueue": "true"})
    assert name in u
    mid = sqs.send_message(QueueUrl=u, MessageBody="test", MessageDeduplicationId=f"dedup-{uid()}", MessageGroupId="test_group")["MessageId"]
    eq(sqs.receive_message(QueueUrl=u)["Messages"][0]["MessageId"], mid, "MessageId")

@scenario("test_fifo_queue_send_multiple_messages_multiple_single_receives", LS)
def _():
    u = create(fifo=True)
    sent = [sqs.send_message(QueueUrl=u, MessageBody=f"message{i}", MessageDeduplicationId=f"deduplication{i}", MessageGroupId="g") for i in range(4)]
    for i in range(4):
        m = sqs.receive_message(QueueUrl=u)["Messages"][0]
        eq(m["Body"], f"message{i}", "body")
        eq(m["MessageId"], sent[i]["MessageId"], "id")
        sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])

@scenario("test_fifo_content_based_message_deduplication_arrives_once", LS)
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    item = '{"foo": "bar"}'
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-1")
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-1")
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, WaitTimeSeconds=2)), [item], "first")
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, WaitTimeSeconds=1)), [], "second")

def _dedup_after_delete(cbd):
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"} if cbd else {})
    item = '{"foo": "bar"}'
    kw = {} if cbd else {"MessageDeduplicationId": "dedup1"}
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-1", **kw)
    r = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=3)
    eq(bodies(r), [item], "first")
    eq(r["Messages"][0]["MD5OfBody"], "94232c5b8fc9272f6f73a1e36eb68fcf", "md5")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-1", **kw)
    r = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=1)
    assert "Messages" not in r, f"duplicate delivered / Messages key present: {strip(r)}"

scenario("test_fifo_deduplication_arrives_once_after_delete[True]", LS + " snapshot")(lambda: _dedup_after_delete(True))
scenario("test_fifo_deduplication_arrives_once_after_delete[False]", LS + " snapshot")(lambda: _dedup_after_delete(False))

def _dedup_not_group(cbd):
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"} if cbd else {})
    item = '{"foo": "bar"}'
    kw = {} if cbd else {"MessageDeduplicationId": "dedup1"}
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-1", **kw)
    sqs.send_message(QueueUrl=u, MessageBody=item, MessageGroupId="group-2", **kw)
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, WaitTimeSeconds=2)), [item], "first")
    r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=1, WaitTimeSeconds=1)
    assert "Messages" not in r, f"second: {strip(r)}"

scenario("test_fifo_deduplication_not_on_message_group_id[True]", LS + " snapshot")(lambda: _dedup_not_group(True))
scenario("test_fifo_deduplication_not_on_message_group_id[False]", LS + " snapshot")(lambda: _dedup_not_group(False))

@scenario("test_sequence_number", LS)
def _():
    f = create(fifo=True)
    assert "SequenceNumber" in sqs.send_message(QueueUrl=f, MessageBody="x", MessageGroupId="g", MessageDeduplicationId="d")
    s = create()
    assert "SequenceNumber" not in sqs.send_message(QueueUrl=s, MessageBody="x")

@scenario("test_fifo_sequence_number_increases", LS)
def _():
    f = create(fifo=True)
    seq = [int(sqs.send_message(QueueUrl=f, MessageBody=f"message-{i}", MessageGroupId="group", MessageDeduplicationId=f"m{i}")["SequenceNumber"]) for i in range(3)]
    assert seq[0] < seq[1] < seq[2], seq

@scenario("test_posting_to_fifo_requires_deduplicationid_group_id", LS + " snapshot")
def _():
    u = create(fifo=True)
    err(lambda: sqs.send_message(QueueUrl=u, MessageBody="x", MessageGroupId="g"), "InvalidParameterValue",
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly", 400, "InvalidParameterValueException")
    err(lambda: sqs.send_message(QueueUrl=u, MessageBody="x", MessageDeduplicationId="d"), "MissingParameter",
        "The request must contain the parameter MessageGroupId.", 400, "MissingRequiredParameterException")

@scenario("test_purge_queue_clears_fifo_deduplication_cache", LS)
def _():
    u = create(fifo=True)
    sqs.send_message(QueueUrl=u, MessageBody="message-1", MessageGroupId="g", MessageDeduplicationId="d")
    sqs.purge_queue(QueueUrl=u)
    sqs.send_message(QueueUrl=u, MessageBody="message-2", MessageGroupId="g", MessageDeduplicationId="d")
    eq(bodies(sqs.receive_message(QueueUrl=u, WaitTimeSeconds=1)), ["message-2"], "after purge")

@scenario("test_sqs_fifo_same_dedup_id_different_message_groups", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "False"})
    sqs.send_message(QueueUrl=u, MessageBody="Test", MessageGroupId="group1", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Test"], "1")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody="Test", MessageGroupId="group2", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"2: {strip(r)}"

@scenario("test_fifo_high_throughput_ordering", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "False", "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"})
    sqs.send_message(QueueUrl=u, MessageBody="Test1", MessageGroupId="group1", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Test1"], "1")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody="Test2", MessageGroupId="group2", MessageDeduplicationId="same-dedup")
    eq(bodies(sqs.receive_message(QueueUrl=u)), ["Test2"], "2")

@scenario("test_fifo_change_to_high_throughput_after_creation", LS + " snapshot (2025-08)")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "False", "DeduplicationScope": "queue"})
    sqs.send_message(QueueUrl=u, MessageBody="Test1", MessageGroupId="group1", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Test1"], "1")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody="Test2", MessageGroupId="group2", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u, VisibilityTimeout=0)
    assert "Messages" not in r, f"Test2 should be a duplicate: {strip(r)}"
    sqs.set_queue_attributes(QueueUrl=u, Attributes={"DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"})
    _cmp_all(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"],
             dict(FIFO_ALL, ContentBasedDeduplication="false", DeduplicationScope="messageGroup", FifoThroughputLimit="perMessageGroupId"), "set-to-high-throughput")
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"old duplicate resurfaced: {strip(r)}"
    sqs.send_message(QueueUrl=u, MessageBody="Test3", MessageGroupId="group3", MessageDeduplicationId="same-dedup")
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"Test3 (same dedup id, new group, after switch) delivered; AWS keeps queue scope: {bodies(r)}"
    sqs.send_message(QueueUrl=u, MessageBody="Test4", MessageGroupId="group4", MessageDeduplicationId="dedup_2")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Test4"], "Test4")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody="Test5", MessageGroupId="group5", MessageDeduplicationId="dedup_2")
    r = sqs.receive_message(QueueUrl=u)
    assert "Messages" not in r, f"Test5 (dedup_2 in new group) delivered; AWS treated it as duplicate: {bodies(r)}"

@scenario("test_fifo_change_to_regular_throughput_after_creation", LS + " snapshot (2025-08)")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "False", "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"})
    for b, g in [("Test1", "group1"), ("Test2", "group2")]:
        sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g, MessageDeduplicationId="same-dedup")
        r = sqs.receive_message(QueueUrl=u)
        eq(bodies(r), [b], b)
        sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.set_queue_attributes(QueueUrl=u, Attributes={"DeduplicationScope": "queue", "FifoThroughputLimit": "perQueue"})
    _cmp_all(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"], dict(FIFO_ALL, ContentBasedDeduplication="false"), "set-to-regular-throughput")
    sqs.send_message(QueueUrl=u, MessageBody="Test3", MessageGroupId="group3", MessageDeduplicationId="same-dedup")
    eq(bodies(sqs.receive_message(QueueUrl=u)), ["Test3"], "Test3 (AWS keeps messageGroup scope)")

@scenario("test_sqs_fifo_message_group_scope_no_throughput_setting", LS + " snapshot")
def _():
    u = create(fifo=True, attrs={"FifoQueue": "True", "ContentBasedDeduplication": "True", "DeduplicationScope": "messageGroup"})
    sqs.send_message(QueueUrl=u, MessageBody="Test", MessageGroupId="group1")
    r = sqs.receive_message(QueueUrl=u)
    eq(bodies(r), ["Test"], "1")
    sqs.delete_message(QueueUrl=u, ReceiptHandle=r["Messages"][0]["ReceiptHandle"])
    sqs.send_message(QueueUrl=u, MessageBody="Test", MessageGroupId="group2")
    eq(bodies(sqs.receive_message(QueueUrl=u)), ["Test"], "2")

@scenario("test_receive_message_attribute_names_filters[multiple_attributes incl. SequenceNumber on standard]", LS + " snapshot")
def _():
    u = create(attrs={"VisibilityTimeout": "0"})
    sqs.send_message(QueueUrl=u, MessageBody="msg", MessageAttributes={"Foo": {"DataType": "String", "StringValue": "Bar"}})
    m = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=5, AttributeNames=["SenderId", "SequenceNumber"])["Messages"][0]
    eq(sorted(m["Attributes"]), ["SenderId"], "attributes")
    eq(sorted(m), ["Attributes", "Body", "MD5OfBody", "MessageId", "ReceiptHandle"], "message keys")


@scenario("FIFO ReceiveRequestAttemptId retry returns same messages and receipt handles", "BOTO ReceiveMessage doc [M]", group="D")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    for i in range(3):
        sqs.send_message(QueueUrl=u, MessageBody=f"m{i}", MessageGroupId=f"g{i}")
    r1 = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2, ReceiveRequestAttemptId="attempt-1")
    r2 = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=2, ReceiveRequestAttemptId="attempt-1")
    eq([(m["MessageId"], m["ReceiptHandle"]) for m in r2.get("Messages", [])], [(m["MessageId"], m["ReceiptHandle"]) for m in r1["Messages"]], "retried receive")

@scenario("FIFO SendMessageBatch: SequenceNumber per entry, request order kept", "DG FIFO / BOTO [D]", group="D")
def _():
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    r = sqs.send_message_batch(QueueUrl=u, Entries=[{"Id": f"e{i}", "MessageBody": f"b{i}", "MessageGroupId": "g"} for i in range(5)])
    eq(len(r["Successful"]), 5, "successful")
    for e in r["Successful"]:
        assert "SequenceNumber" in e, f"no SequenceNumber in {e}"
    eq(bodies(sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10)), [f"b{i}" for i in range(5)], "order")

@scenario("FIFO content-based MessageDeduplicationId = sha256(body)", "DG using-messagededuplicationid [D]", group="D")
def _():
    import hashlib
    u = create(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    sqs.send_message(QueueUrl=u, MessageBody="hello", MessageGroupId="g")
    m = sqs.receive_message(QueueUrl=u, MessageSystemAttributeNames=["MessageDeduplicationId"])["Messages"][0]
    eq(m["Attributes"].get("MessageDeduplicationId"), hashlib.sha256(b"hello").hexdigest(), "dedup id")
