// SendMessageBatch (10 messages) in a closed loop: k6 run loadtest/k6/send-batch.js
import { createQueue, sendBatch, USERS, DURATION, NO_FAILURES } from './sqs.js';

export const options = {
  scenarios: { send_batch: { executor: 'constant-vus', vus: USERS, duration: DURATION } },
  thresholds: NO_FAILURES,
};

export function setup() {
  return { queueUrl: createQueue('k6-send-batch') };
}

export default function (data) {
  sendBatch(data.queueUrl);
}
