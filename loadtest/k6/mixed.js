// Producers and consumers on one queue at once (PRODUCERS and CONSUMERS, 32 each by default):
// k6 run loadtest/k6/mixed.js
import { createQueue, sendBatch, receiveAndDelete, DURATION, NO_FAILURES } from './sqs.js';

export const options = {
  scenarios: {
    producers: { executor: 'constant-vus', vus: parseInt(__ENV.PRODUCERS || '32', 10), duration: DURATION, exec: 'produce' },
    consumers: { executor: 'constant-vus', vus: parseInt(__ENV.CONSUMERS || '32', 10), duration: DURATION, exec: 'consume' },
  },
  thresholds: NO_FAILURES,
};

export function setup() {
  return { queueUrl: createQueue('k6-mixed') };
}

export function produce(data) {
  sendBatch(data.queueUrl);
}

export function consume(data) {
  receiveAndDelete(data.queueUrl);
}
