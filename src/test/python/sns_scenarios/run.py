"""boto3 against Sluice's SNS API on 127.0.0.1:$SLUICE_PORT: fan-out with filter policies, raw and
enveloped copies, FIFO topics in order with deduplication, PublishBatch (with a partial failure:
the server under test has a small memory budget) and SNS's error codes with the texts AWS recorded
(LocalStack's test_sns.snapshot.json, gathered in src/site/markdown/design/sns-recorded-behaviour.md).
Exit status 1 if any scenario fails. The scenarios run in parallel except the one that fills the
memory budget, which runs alone, last."""
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sqs_scenarios"))
import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402
from common import ENDPOINT, SCENARIOS, create, eq, err, run_all, scenario, sqs, uid  # noqa: E402

sns = boto3.client("sns", endpoint_url=ENDPOINT, region_name="us-east-1", aws_access_key_id="test",
                   aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}, read_timeout=40))
ACCOUNT = "000000000000"
ENVELOPE_KEYS = ["Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion", "Signature",
                 "SigningCertURL", "UnsubscribeURL", "MessageAttributes"]


def topic(fifo=False, attrs=None):
    attrs = dict(attrs or {})
    name = f"t-{uid()}" + (".fifo" if fifo else "")
    if fifo:
        attrs["FifoTopic"] = "true"
    return sns.create_topic(Name=name, Attributes=attrs)["TopicArn"]


def queue_arn(url):
    return f"arn:aws:sqs:us-east-1:{ACCOUNT}:{url.rsplit('/', 1)[1]}"


def subscribe(topic_arn, url, **attrs):
    return sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=queue_arn(url),
                         Attributes={k: v for k, v in attrs.items()}, ReturnSubscriptionArn=True)["SubscriptionArn"]


def drain(url, expected, timeout=10):
    got = []
    end = time.time() + timeout
    while time.time() < end:
        r = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0 if len(got) >= expected else 1,
                                MessageAttributeNames=["All"], AttributeNames=["All"])
        msgs = r.get("Messages", [])
        if not msgs and len(got) >= expected:
            break
        for m in msgs:
            got.append(m)
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    eq(len(got), expected, f"messages in {url}")
    return got


def number(n):
    return {"DataType": "Number", "StringValue": str(n)}


@scenario("fan_out_to_three_queues_with_filter_policies", "recorded envelope, raw delivery and filter scopes", "fan-out")
def fan_out():
    t = topic()
    everything, big, eu = create(), create(), create()
    subscribe(t, everything)
    subscribe(t, big, RawMessageDelivery="true", FilterPolicy=json.dumps({"amount": [{"numeric": [">=", 100]}]}))
    subscribe(t, eu, FilterPolicyScope="MessageBody", FilterPolicy=json.dumps({"order": {"region": [{"prefix": "eu-"}]}}))
    first = sns.publish(TopicArn=t, Subject="New order", Message=json.dumps({"order": {"region": "us-east-1"}}),
                        MessageAttributes={"amount": number(20)})["MessageId"]
    second = sns.publish(TopicArn=t, Message=json.dumps({"order": {"region": "eu-west-1"}}),
                         MessageAttributes={"amount": number(250)})["MessageId"]
    envelopes = [json.loads(m["Body"]) for m in drain(everything, 2)]
    eq(sorted(e["MessageId"] for e in envelopes), sorted([first, second]), "every publish in the unfiltered queue")
    with_subject = next(e for e in envelopes if e["MessageId"] == first)
    eq(list(with_subject.keys()), ENVELOPE_KEYS, "envelope keys in AWS's order")
    eq(with_subject["Type"], "Notification", "Type")
    eq(with_subject["TopicArn"], t, "TopicArn")
    eq(with_subject["MessageAttributes"], {"amount": {"Type": "Number", "Value": "20"}}, "envelope attributes")
    eq(with_subject["SignatureVersion"], "1", "SignatureVersion")
    raw = drain(big, 1)[0]
    eq(raw["Body"], json.dumps({"order": {"region": "eu-west-1"}}), "raw body")
    eq(raw["MessageAttributes"]["amount"], {"DataType": "Number", "StringValue": "250"}, "raw attributes")
    eq(json.loads(drain(eu, 1)[0]["Body"])["MessageId"], second, "the body filter took the eu order only")


@scenario("message_structure_json_gives_the_sqs_key", "SNS API reference: Publish, MessageStructure", "fan-out")
def message_structure():
    t = topic()
    q = create()
    subscribe(t, q, RawMessageDelivery="true")
    sns.publish(TopicArn=t, MessageStructure="json", Message=json.dumps({"default": "for all", "sqs": "for queues"}))
    eq(drain(q, 1)[0]["Body"], "for queues", "the sqs key")


@scenario("fifo_topic_to_fifo_queues_in_order_with_deduplication", "recorded FIFO envelope and deduplication ids", "fifo")
def fifo():
    t = topic(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    a, b = create(fifo=True), create(fifo=True)
    subscribe(t, a, RawMessageDelivery="true")
    subscribe(t, b)
    answers = []
    for i in range(6):
        answers.append(sns.publish(TopicArn=t, Message=f"m{i}", MessageGroupId=f"g{i % 2}"))
    again = sns.publish(TopicArn=t, Message="m0", MessageGroupId="g0")
    eq(again["MessageId"], answers[0]["MessageId"], "a duplicate answers the first publish's id")
    eq(again["SequenceNumber"], answers[0]["SequenceNumber"], "and its sequence number")
    numbers = [int(x["SequenceNumber"]) for x in answers]
    eq(numbers, sorted(numbers), "sequence numbers rise")
    got = drain(a, 6)
    for group in ("g0", "g1"):
        eq([m["Body"] for m in got if m["Attributes"]["MessageGroupId"] == group],
           [f"m{i}" for i in range(6) if f"g{i % 2}" == group], f"order of {group}")
    first = next(m for m in got if m["Body"] == "m0")
    eq(first["Attributes"]["MessageDeduplicationId"], hashlib.sha256(b"m0").hexdigest(),
       "the content-based deduplication id passed on")
    envelopes = [json.loads(m["Body"]) for m in drain(b, 6)]
    eq(list(envelopes[0].keys())[:3], ["Type", "MessageId", "SequenceNumber"], "FIFO envelope keys")
    eq("Signature" in envelopes[0], False, "FIFO envelopes are unsigned")


@scenario("publish_batch_answers_each_entry", "recorded PublishBatch result shapes", "batch")
def publish_batch():
    t = topic()
    q = create()
    subscribe(t, q, RawMessageDelivery="true")
    r = sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[
        {"Id": "one", "Message": "1"}, {"Id": "two", "Message": "2", "Subject": "s"}])
    eq(sorted(e["Id"] for e in r["Successful"]), ["one", "two"], "both published")
    eq(r["Failed"], [], "none failed")
    eq(sorted(m["Body"] for m in drain(q, 2)), ["1", "2"], "both delivered")
    f = topic(fifo=True, attrs={"ContentBasedDeduplication": "true"})
    r = sns.publish_batch(TopicArn=f, PublishBatchRequestEntries=[
        {"Id": "a", "Message": "x", "MessageGroupId": "g"}, {"Id": "b", "Message": "y", "MessageGroupId": "g"}])
    eq(all("SequenceNumber" in e for e in r["Successful"]), True, "FIFO entries carry sequence numbers")


@scenario("error_codes_and_texts", "recorded SNS errors", "errors")
def errors():
    t = topic()
    missing = t + "-gone"
    fifo_topic = topic(fifo=True)
    fifo_queue = create(fifo=True)
    q = create()
    sub = subscribe(t, q)
    err(lambda: sns.create_topic(Name="bad:name"), "InvalidParameter", "Invalid parameter: Topic Name", 400)
    err(lambda: sns.create_topic(Name="x.fifo"), "InvalidParameter", "Invalid parameter: Topic Name", 400)
    err(lambda: sns.get_topic_attributes(TopicArn=missing), "NotFound", "Topic does not exist", 404)
    err(lambda: sns.get_topic_attributes(TopicArn="test-topic"), "InvalidParameter",
        "Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1", 400)
    err(lambda: sns.get_topic_attributes(TopicArn=t.replace("us-east-1", "eu-west-1")), "InvalidParameter",
        "Invalid parameter: TopicArn", 400)
    err(lambda: sns.set_topic_attributes(TopicArn=t, AttributeName="FifoTopic", AttributeValue="false"),
        "InvalidParameter", "Invalid parameter: AttributeName", 400)
    err(lambda: sns.subscribe(TopicArn=t, Protocol="test-protocol", Endpoint="x"), "InvalidParameter",
        "Invalid parameter: Amazon SNS does not support this protocol string: test-protocol", 400)
    err(lambda: sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=q), "InvalidParameter",
        "Invalid parameter: SQS endpoint ARN", 400)
    err(lambda: sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=queue_arn(fifo_queue)), "InvalidParameter",
        "Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics", 400)
    err(lambda: sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=queue_arn(create()),
                              Attributes={"RawMessageDelivery": "wrongvalue"}), "InvalidParameter",
        "Invalid parameter: Attributes Reason: RawMessageDelivery: Invalid value [wrongvalue]. Must be true or false.", 400)
    err(lambda: sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=queue_arn(q), Attributes={"RawMessageDelivery": "true"}),
        "InvalidParameter", "Invalid parameter: Attributes Reason: Subscription already exists with different attributes", 400)
    err(lambda: sns.unsubscribe(SubscriptionArn="randomstring"), "InvalidParameter",
        "Invalid parameter: SubscriptionArn Reason: An ARN must have at least 6 elements, not 1", 400)
    err(lambda: sns.get_subscription_attributes(SubscriptionArn=sub[:-8] + "00000000"), "NotFound",
        "Subscription does not exist", 404)
    err(lambda: sns.set_subscription_attributes(SubscriptionArn=sub, AttributeName="FakeAttribute", AttributeValue="x"),
        "InvalidParameter", "Invalid parameter: AttributeName", 400)
    err(lambda: sns.set_subscription_attributes(SubscriptionArn=sub, AttributeName="RedrivePolicy",
                                                AttributeValue=json.dumps({"deadLetterTargetArn": "fake-arn"})),
        "InvalidParameter", "Invalid parameter: RedrivePolicy: deadLetterTargetArn is an invalid arn", 400)
    err(lambda: sns.confirm_subscription(TopicArn=t, Token="randomtoken"), "InvalidParameter", "Invalid token", 400)
    err(lambda: sns.confirm_subscription(TopicArn=t, Token="ab" * 32), "InvalidParameter", "Invalid parameter: Token", 400)
    err(lambda: sns.publish(TopicArn=missing, Message="x"), "NotFound", "Topic does not exist", 404)
    err(lambda: sns.publish(TopicArn=t, Message=""), "InvalidParameter", "Invalid parameter: Empty message", 400)
    err(lambda: sns.publish(TopicArn=t, Message="x", Subject=""), "InvalidParameter", "Invalid parameter: Subject", 400)
    err(lambda: sns.publish(TopicArn=t, Message="x" * 262145), "InvalidParameter", "Invalid parameter: Message too long", 400)
    err(lambda: sns.publish(TopicArn=t, MessageStructure="json", Message=json.dumps({"sqs": "x"})), "InvalidParameter",
        "Invalid parameter: Message Structure - No default entry in JSON message body", 400)
    err(lambda: sns.publish(TopicArn=t, Message="x", MessageDeduplicationId="d"), "InvalidParameter",
        "Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type", 400)
    err(lambda: sns.publish(TopicArn=fifo_topic, Message="x"), "InvalidParameter",
        "Invalid parameter: The MessageGroupId parameter is required for FIFO topics", 400)
    err(lambda: sns.publish(TopicArn=fifo_topic, Message="x", MessageGroupId="g"), "InvalidParameter",
        "Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly", 400)
    err(lambda: sns.publish(TopicArn=t, Message="x", MessageAttributes={"attr1": {"DataType": "String", "StringValue": ""}}),
        "ParameterValueInvalid",
        "The message attribute 'attr1' must contain non-empty message attribute value for message attribute type 'String'.", 400)
    err(lambda: sns.publish(TopicArn=t, Message="x", MessageAttributes={".abc": {"DataType": "String", "StringValue": "v"}}),
        "ParameterValueInvalid", "Invalid message attribute name starting with character '.' was found.", 400)
    err(lambda: sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[{"Id": str(i), "Message": "x"} for i in range(11)]),
        "TooManyEntriesInBatchRequest", "The batch request contains more entries than permissible.", 400)
    err(lambda: sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[{"Id": "1", "Message": "x"}, {"Id": "1", "Message": "y"}]),
        "BatchEntryIdsNotDistinct", "Two or more batch entries in the request have the same Id.", 400)
    err(lambda: sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[{"Id": "message.id", "Message": "x"}]),
        "InvalidBatchEntryId", "The Id of a batch entry in the batch request contains an impermissible character: message.id", 400)
    err(lambda: sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[{"Id": "a", "Message": "x" * 131072},
                                                                        {"Id": "b", "Message": "x" * 131073}]),
        "BatchRequestTooLong", "The length of all the messages put together is more than the limit.", 400)
    err(lambda: sns.tag_resource(ResourceArn=missing, Tags=[{"Key": "k", "Value": "v"}]), "ResourceNotFound",
        "Resource does not exist", 404)
    err(lambda: sns.tag_resource(ResourceArn=t, Tags=[{"Key": "k1", "Value": "v"}, {"Key": "k2", "Value": "v"},
                                                      {"Key": "k2", "Value": "w"}]),
        "InvalidParameter", "Invalid parameter: Duplicated keys are not allowed.", 400)
    err(lambda: sns.create_platform_application(Name="app", Platform="GCM", Attributes={"PlatformCredential": "x"}),
        "InvalidAction", None, None)


@scenario("a_fifo_topic_takes_one_hundred_subscriptions", "AWS quota: 100 subscriptions per FIFO topic", "errors")
def subscription_limit():
    t = topic(fifo=True)
    for i in range(100):
        sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=f"arn:aws:sqs:us-east-1:{ACCOUNT}:absent-{uid()}.fifo")
    err(lambda: sns.subscribe(TopicArn=t, Protocol="sqs", Endpoint=f"arn:aws:sqs:us-east-1:{ACCOUNT}:one-more.fifo"),
        "SubscriptionLimitExceeded", "Subscription limit exceeded", 403)


@scenario("an_entry_a_queue_cannot_take_now_fails_alone", "SNS API reference: PublishBatch, Failed", "budget")
def partial_batch():
    t = topic()
    q = create()
    subscribe(t, q, RawMessageDelivery="true")
    big = "b" * 200_000
    stored = 0
    while stored < 40:
        try:
            sns.publish(TopicArn=t, Message=big)
            stored += 1
        except ClientError as e:
            eq(e.response["Error"]["Code"], "Throttled", "a full budget")
            eq(e.response["ResponseMetadata"]["HTTPStatusCode"], 429, "status")
            break
    assert 0 < stored < 40, f"the budget filled after {stored}"
    r = sns.publish_batch(TopicArn=t, PublishBatchRequestEntries=[{"Id": "small", "Message": "fits"},
                                                                  {"Id": "large", "Message": big}])
    eq([e["Id"] for e in r["Successful"]], ["small"], "the small entry is published")
    eq([(f["Id"], f["Code"], f["SenderFault"]) for f in r["Failed"]], [("large", "Throttled", False)], "the large fails")
    drain(q, stored + 1, timeout=20)
    sns.publish(TopicArn=t, Message=big)
    drain(q, 1)


if __name__ == "__main__":
    ok = run_all({s[0] for s in SCENARIOS if s[2] != "budget"})
    ok = run_all({s[0] for s in SCENARIOS if s[2] == "budget"}) and ok
    sys.exit(0 if ok else 1)
