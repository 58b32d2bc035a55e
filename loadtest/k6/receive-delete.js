// Consumers only, on a queue filled first with PREFILL messages (100,000 by default):
// k6 run -e PREFILL=100000 loadtest/k6/receive-delete.js
import { createQueue, sendBatch, receiveAndDelete, USERS, DURATION, NO_FAILURES } from './sqs.js';

export const options = {
  scenarios: { receive_delete: { executor: 'constant-vus', vus: USERS, duration: DURATION } },
  thresholds: NO_FAILURES,
  setupTimeout: '10m',
};

export function setup() {
  const queueUrl = createQueue('k6-receive');
  const prefill = parseInt(__ENV.PREFILL || '100000', 10);
  for (let i = 0; i < prefill; i += 10) {
    sendBatch(queueUrl);
  }
  return { queueUrl };
}

export default function (data) {
  receiveAndDelete(data.queueUrl);
}
