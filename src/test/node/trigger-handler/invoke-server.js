// The handler behind the Lambda runtime interface emulator's invoke path, on 127.0.0.1 and a port
// the system picks (printed first as "listening <port>"). It answers as the emulator does: 200 with
// the handler's result as JSON; 200 with {"errorType","errorMessage"} when the handler throws;
// 400 with no body to a second invoke while one runs. A failed SqsSchema.parse is answered with the
// errorType "EventParseError", so a test can tell it from the handler's own errors. Each invoke is
// also reported on stdout as one JSON line: the records as they came, the outcome and the answer.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import { handler } from './handler.js';

const PATH = '/2015-03-31/functions/function/invocations';
let busy = false;

const context = () => {
  const deadline = Date.now() + 2000;
  return {
    functionName: 'function',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:function',
    memoryLimitInMB: '128',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/function',
    logStreamName: 'sluice-test',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
};

const records = (event) => (Array.isArray(event?.Records) ? event.Records : []).map((r) => ({
  messageId: r?.messageId,
  body: r?.body,
  receiveCount: r?.attributes?.ApproximateReceiveCount,
  eventSourceARN: r?.eventSourceARN,
}));

const invoke = async (text) => {
  let event;
  try {
    event = JSON.parse(text);
    const result = await handler(event, context());
    return { outcome: 'ok', event, answer: result ?? null };
  } catch (e) {
    const parse = e instanceof ZodError;
    return {
      outcome: parse ? 'parse_error' : 'error',
      event,
      answer: { errorType: parse ? 'EventParseError' : e.name, errorMessage: parse ? JSON.stringify(e.issues) : e.message },
    };
  }
};

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== PATH) {
    res.writeHead(404).end();
    return;
  }
  if (busy) {
    res.writeHead(400).end(); // the emulator's answer while it runs another invoke
    req.resume();
    return;
  }
  busy = true;
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const { outcome, event, answer } = await invoke(Buffer.concat(chunks).toString('utf8'));
    console.log(JSON.stringify({ outcome, records: records(event), answer }));
    busy = false;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
