// Many idle long polls: USERS (1,000 by default) virtual users, each on its own connection, repeat
// ReceiveMessage with WaitTimeSeconds 20 on an empty queue. Every poll must come back empty after
// its 20 s (none early, none failed): k6 run -e USERS=1000 loadtest/k6/idle-long-polls.js
import { check } from 'k6';
import { call, createQueue, DURATION, NO_FAILURES } from './sqs.js';

export const options = {
  scenarios: {
    idle: { executor: 'constant-vus', vus: parseInt(__ENV.USERS || '1000', 10), duration: DURATION, gracefulStop: '25s' },
  },
  thresholds: Object.assign({ 'http_req_duration{name:ReceiveMessage}': ['min>=19000'] }, NO_FAILURES),
};

export function setup() {
  return { queueUrl: createQueue('k6-idle') };
}

export default function (data) {
  const res = call('ReceiveMessage', { QueueUrl: data.queueUrl, WaitTimeSeconds: 20 }, '30s');
  check(res, { 'empty': (r) => !r.json('Messages') });
}
