// SendMessage in a closed loop: k6 run loadtest/k6/send.js  (see loadtest/README.md)
import { createQueue, sendOne, USERS, DURATION, NO_FAILURES } from './sqs.js';

export const options = {
  scenarios: { send: { executor: 'constant-vus', vus: USERS, duration: DURATION } },
  thresholds: NO_FAILURES,
};

export function setup() {
  return { queueUrl: createQueue('k6-send') };
}

export default function (data) {
  sendOne(data.queueUrl);
}
