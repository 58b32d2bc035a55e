// The AWS JSON 1.0 protocol for k6, and the settings every script shares (environment:
// SLUICE_URL, USERS, DURATION in seconds, BODY_BYTES). Sluice ignores signatures unless credentials
// are configured, so requests carry a fixed one, shaped like the SDKs'.
import http from 'k6/http';
import { check } from 'k6';

export const URL = __ENV.SLUICE_URL || 'http://127.0.0.1:9324';
export const USERS = parseInt(__ENV.USERS || '64', 10);
export const DURATION = `${parseInt(__ENV.DURATION || '30', 10)}s`;
const BODY = 'x'.repeat(parseInt(__ENV.BODY_BYTES || '100', 10));
const HEADERS = {
  'Content-Type': 'application/x-amz-json-1.0',
  Authorization: 'AWS4-HMAC-SHA256 Credential=k6/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=0',
  'X-Amz-Date': '20260101T000000Z',
};

/** One SQS action; the response is checked for 200 and returned. `timeout` covers long polls. */
export function call(action, body, timeout) {
  const res = http.post(`${URL}/`, JSON.stringify(body), {
    headers: Object.assign({ 'X-Amz-Target': `AmazonSQS.${action}` }, HEADERS),
    tags: { name: action },
    timeout: timeout || '60s',
  });
  check(res, { [`${action} 200`]: (r) => r.status === 200 });
  return res;
}

/** A fresh queue for this run; call it from setup(). */
export function createQueue(prefix) {
  const res = call('CreateQueue', { QueueName: `${prefix}-${Date.now()}` });
  if (res.status !== 200) {
    throw new Error(`CreateQueue answered ${res.status}: ${res.body}`);
  }
  return res.json('QueueUrl');
}

export function sendOne(queueUrl) {
  return call('SendMessage', { QueueUrl: queueUrl, MessageBody: BODY });
}

export function sendBatch(queueUrl) {
  const entries = [];
  for (let i = 0; i < 10; i++) {
    entries.push({ Id: `e${i}`, MessageBody: BODY });
  }
  return call('SendMessageBatch', { QueueUrl: queueUrl, Entries: entries });
}

/** Long-polls up to 10 messages and deletes what came, in one batch. */
export function receiveAndDelete(queueUrl) {
  const res = call('ReceiveMessage', { QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 });
  const messages = res.status === 200 ? (res.json('Messages') || []) : [];
  if (messages.length > 0) {
    call('DeleteMessageBatch', {
      QueueUrl: queueUrl,
      Entries: messages.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })),
    });
  }
}

/** Every scenario's pass mark: no failed request. */
export const NO_FAILURES = { http_req_failed: ['rate==0'], checks: ['rate==1'] };
