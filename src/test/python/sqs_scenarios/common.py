"""Helpers for the boto3 scenarios: a client for the Sluice under test (port from SLUICE_PORT), queue
helpers, error assertions that compare code, message, HTTP status and query code, and a small runner
that runs every @scenario on a thread pool and prints PASS/FAIL with the difference.

The scenarios restate, for boto3, behaviour that AWS-validated tests (LocalStack's test_sqs.py and
test_sqs_move_task.py, run against real AWS with recorded snapshots) pin down.
"""
import base64, json, os, sys, time, threading, traceback, uuid
from queue import Queue, Empty
import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

PORT = int(os.environ.get("SLUICE_PORT", "9411"))
ENDPOINT = f"http://127.0.0.1:{PORT}"
sqs = boto3.client("sqs", endpoint_url=ENDPOINT, region_name="us-east-1",
                   aws_access_key_id="test", aws_secret_access_key="test",
                   config=Config(retries={"max_attempts": 1}, read_timeout=40))
RUN = uuid.uuid4().hex[:6]
_ctr = [0]
_lock = threading.Lock()

def uid():
    with _lock:
        _ctr[0] += 1
        return f"{RUN}-{_ctr[0]}"

def create(fifo=False, attrs=None, name=None, **kw):
    attrs = dict(attrs or {})
    if name is None:
        name = f"q-{uid()}" + (".fifo" if fifo else "")
    if fifo:
        attrs.setdefault("FifoQueue", "true")
    return sqs.create_queue(QueueName=name, Attributes=attrs, **kw)["QueueUrl"]

def arn(url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]

def dlq_pipe(max_receive_count=1):
    dl = create()
    src = create(attrs={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dl), "maxReceiveCount": max_receive_count})})
    return src, dl

def qsize(url):
    return int(sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]["ApproximateNumberOfMessages"])

def wait_qsize(url, n, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        if qsize(url) >= n:
            return qsize(url)
        time.sleep(0.2)
    raise AssertionError(f"queue size never reached {n}, is {qsize(url)}")

def collect(url, expected, timeout=10, delete=True, **kw):
    got = []
    end = time.time() + timeout
    while time.time() < end and len(got) < expected:
        r = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1, MaxNumberOfMessages=1, **kw)
        for m in r.get("Messages", []):
            got.append(m)
            if delete:
                sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    if len(got) < expected:
        raise AssertionError(f"collected {len(got)} of {expected} messages")
    return got

def bodies(resp):
    return [m["Body"] for m in resp.get("Messages", [])]

def err(fn, code, message=None, status=None, qcode=None, type_="Sender"):
    try:
        res = fn()
    except ClientError as e:
        r = e.response
        er = r.get("Error", {})
        d = []
        if er.get("Code") != code:
            d.append(f"Code {er.get('Code')!r} (AWS {code!r})")
        if message is not None and er.get("Message") != message:
            d.append(f"Message {er.get('Message')!r} (AWS {message!r})")
        st = r["ResponseMetadata"]["HTTPStatusCode"]
        if status is not None and st != status:
            d.append(f"HTTP {st} (AWS {status})")
        if qcode is not None and er.get("QueryErrorCode") != qcode:
            d.append(f"QueryErrorCode {er.get('QueryErrorCode')!r} (AWS {qcode!r})")
        if type_ is not None and er.get("Type") != type_:
            d.append(f"Type {er.get('Type')!r} (AWS {type_!r})")
        assert not d, "; ".join(d)
        return r
    raise AssertionError(f"expected error {code}, got success: {strip(res)}")

def strip(r):
    if isinstance(r, dict):
        return {k: v for k, v in r.items() if k != "ResponseMetadata"}
    return r

def eq(actual, expected, what=""):
    assert actual == expected, f"{what}: got {actual!r}, AWS {expected!r}"

SCENARIOS = []
def scenario(name, ref, group="A"):
    def deco(fn):
        SCENARIOS.append((name, ref, group, fn))
        return fn
    return deco

def run_all(selected=None, parallel=8):
    results = {}
    def worker(item):
        name, ref, group, fn = item
        t0 = time.time()
        try:
            fn()
            results[name] = ("PASS", "", ref, group, time.time() - t0)
        except AssertionError as e:
            results[name] = ("FAIL", str(e), ref, group, time.time() - t0)
        except ClientError as e:
            results[name] = ("FAIL", f"unexpected ClientError {e.response.get('Error')} HTTP {e.response['ResponseMetadata']['HTTPStatusCode']}", ref, group, time.time() - t0)
        except Exception as e:
            results[name] = ("FAIL", f"exception {type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}", ref, group, time.time() - t0)
    items = [s for s in SCENARIOS if not selected or s[0] in selected]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(parallel) as ex:
        list(ex.map(worker, items))
    npass = 0
    for name, ref, group, fn in items:
        st, msg, ref, group, dt = results[name]
        if st == "PASS":
            npass += 1
        print(f"{st} [{group}] {name} ({ref}) {dt:.1f}s" + (f"\n    -> {msg}" if msg else ""))
    print(f"\n{npass}/{len(items)} passed")
    return npass == len(items)
