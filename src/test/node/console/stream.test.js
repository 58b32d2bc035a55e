// stream.js against a scripted fetch, timers and document (run by ConsoleModulesIT: node --test):
// the event format, reconnecting with back-off, TooManyStreams, errors that end the stream, the
// server's "gone", and closing while the tab is hidden.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventParser, openStream} from '../../../main/resources/webroot/console/app/stream.js';
import {errorOf} from '../../../main/resources/webroot/console/app/api.js';

function parse(chunks) {
  const events = [];
  const parser = new EventParser((name, data) => events.push([name, data]));
  for (const c of chunks) parser.push(c);
  return events;
}

test('events are split at blank lines whatever the line ends and chunk bounds', () => {
  assert.deepEqual(parse(['event: snapshot\ndata: {"a":1}\n\n']), [['snapshot', '{"a":1}']]);
  assert.deepEqual(parse(['event: ti', 'ck\r\ndata: 1\r', '\n\r\n', 'data: 2\r\r', ': ping\n']), [['tick', '1'], ['message', '2']]);
  assert.deepEqual(parse(['data: 3\r\r']), [], 'a CR ending a chunk waits: it may be half a CRLF');
  assert.deepEqual(parse(['data: one\ndata: two\n\n']), [['message', 'one\ntwo']]);
  assert.deepEqual(parse([': ping\n\n', 'event: gone\ndata: {}\n\n']), [['gone', '{}']], 'comments are no events');
  assert.deepEqual(parse(['data:no space\nid: 7\nretry: 10\n\n']), [['message', 'no space']]);
  assert.deepEqual(parse(['event: tick\ndata: 1\n']), [], 'no event before its blank line');
  assert.deepEqual(parse(['event: x\n\n', 'data: y\n\n']), [['message', 'y']], 'an event without data is dropped, its name too');
});

test('multi-byte characters split across chunks survive', async () => {
  const seen = [];
  const env = harness();
  const bytes = new TextEncoder().encode('event: snapshot\ndata: {"name":"zürich-€"}\n\n');
  env.respond(200, [bytes.slice(0, 25), bytes.slice(25)]);
  const s = env.open({onEvent: (n, d) => seen.push([n, d])});
  await env.settle();
  assert.deepEqual(seen, [['snapshot', {name: 'zürich-€'}]]);
  s.close();
});

/** A fetch whose answers the test scripts, timers it runs by hand, and a document it hides. */
function harness() {
  const answers = [];
  const timers = [];
  const calls = [];
  const doc = new EventTarget();
  doc.hidden = false;
  const env = {
    calls, timers, doc,
    respond(status, chunks, headers = {}, open = false) { answers.push({status, chunks, headers, open}); },
    fail() { answers.push({error: new TypeError('fetch failed')}); },
    fetch: async (url, init) => {
      calls.push({url, init});
      const a = answers.shift();
      if (!a) return new Promise(() => {});
      if (a.error) throw a.error;
      let controller;
      const body = new ReadableStream({start(c) {
        controller = c;
        for (const chunk of a.chunks) c.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
        if (!a.open) c.close();
      }});
      init.signal.addEventListener('abort', () => { try { controller.error(new DOMException('aborted', 'AbortError')); } catch { /* closed */ } });
      return new Response(body, {status: a.status, headers: a.headers});
    },
    setTimeout: (fn, ms) => { const t = {fn, ms, done: false}; timers.push(t); return t; },
    clearTimeout: (t) => { if (t) t.done = true; },
    /** Runs the earliest pending timer; answers its delay. */
    async tick() {
      const t = timers.filter((x) => !x.done).sort((a, b) => a.ms - b.ms)[0];
      assert.ok(t, 'a timer is pending');
      t.done = true;
      t.fn();
      await env.settle();
      return t.ms;
    },
    pending: () => timers.filter((x) => !x.done).map((x) => x.ms),
    settle: () => new Promise((r) => setImmediate(() => setImmediate(r))),
    states: [],
    open(handlers = {}) {
      return openStream('api/stream?view=overview', {
        headers: () => ({'X-Sluice-Console': '1'}),
        errorOf,
        onEvent: handlers.onEvent ?? (() => {}),
        onState: (s, d) => env.states.push(d?.delay ? `${s} ${d.delay}` : d?.code ? `${s} ${d.code}` : s),
      }, {fetch: env.fetch, setTimeout: env.setTimeout, clearTimeout: env.clearTimeout, document: doc});
    },
  };
  return env;
}

test('events arrive parsed, with the console header sent', async () => {
  const env = harness();
  const seen = [];
  env.respond(200, ['event: snapshot\ndata: {"total":2}\n\n', ': ping\n\n', 'event: tick\ndata: {"total":3}\n\n'], {}, true);
  const s = env.open({onEvent: (n, d) => seen.push([n, d])});
  await env.settle();
  assert.deepEqual(seen, [['snapshot', {total: 2}], ['tick', {total: 3}]]);
  assert.deepEqual(env.states, ['open']);
  assert.equal(env.calls[0].init.headers['X-Sluice-Console'], '1');
  s.close();
});

test('a network failure retries after 1 s, doubling to 30 s, and an answer resets the delay', async () => {
  const env = harness();
  for (let i = 0; i < 7; i++) env.fail();
  env.respond(200, ['event: snapshot\ndata: {}\n\n']); // then the server ends the stream
  const s = env.open();
  await env.settle();
  const delays = [];
  for (let i = 0; i < 7; i++) delays.push(await env.tick());
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(env.states.at(-2), 'open');
  assert.equal(env.states.at(-1), 'retrying 1000', 'a stream the server ended is reopened, from 1 s again');
  s.close();
  assert.deepEqual(env.pending(), [], 'close stops every timer');
});

test('TooManyStreams pauses live updates and tries again after Retry-After', async () => {
  const env = harness();
  env.respond(503, ['{"__type":"TooManyStreams","message":"32 live-update streams are open"}'], {'Retry-After': '30'});
  const s = env.open();
  await env.settle();
  assert.deepEqual(env.states, ['paused TooManyStreams']);
  assert.deepEqual(env.pending(), [30000]);
  env.respond(200, ['event: snapshot\ndata: {}\n\n'], {}, true);
  await env.tick();
  assert.equal(env.calls.length, 2);
  assert.equal(env.states.at(-1), 'open');
  s.close();
});

test('the starting 503 is retried; a refusal (401, 403, 404) is not', async () => {
  const env = harness();
  env.respond(503, ['{"__type":"ServiceUnavailable","message":"starting"}'], {'Retry-After': '1'});
  const s = env.open();
  await env.settle();
  assert.deepEqual(env.states, ['retrying 1000']);
  s.close();
  for (const [status, type] of [[401, 'MissingToken'], [403, 'Forbidden'], [404, 'com.amazonaws.sqs#QueueDoesNotExist']]) {
    const e = harness();
    e.respond(status, [JSON.stringify({__type: type, message: 'no'})]);
    const t = e.open();
    await e.settle();
    assert.deepEqual(e.states, [`failed ${type.slice(type.lastIndexOf('#') + 1)}`]);
    assert.deepEqual(e.pending(), []);
    t.close();
  }
});

test('"gone" ends the stream for good', async () => {
  const env = harness();
  const seen = [];
  env.respond(200, ['event: snapshot\ndata: {}\n\n', 'event: gone\ndata: {}\n\n'], {}, true);
  env.open({onEvent: (n) => seen.push(n)});
  await env.settle();
  assert.deepEqual(seen, ['snapshot', 'gone']);
  assert.deepEqual(env.states, ['open', 'ended']);
  assert.deepEqual(env.pending(), []);
  assert.equal(env.calls[0].init.signal.aborted, true, 'the connection is let go');
});

test('a tab hidden for 30 s closes its stream and reopens it when shown', async () => {
  const env = harness();
  env.respond(200, ['event: snapshot\ndata: {}\n\n'], {}, true);
  const s = env.open();
  await env.settle();
  env.doc.hidden = true;
  env.doc.dispatchEvent(new Event('visibilitychange'));
  assert.deepEqual(env.pending(), [30000]);
  env.doc.hidden = false;
  env.doc.dispatchEvent(new Event('visibilitychange'));
  assert.deepEqual(env.pending(), [], 'shown again within 30 s: nothing happens');
  env.doc.hidden = true;
  env.doc.dispatchEvent(new Event('visibilitychange'));
  await env.tick();
  assert.equal(env.calls[0].init.signal.aborted, true);
  assert.deepEqual(env.states, ['open', 'hidden']);
  assert.deepEqual(env.pending(), [], 'no reconnecting while hidden');
  env.respond(200, ['event: snapshot\ndata: {}\n\n'], {}, true);
  env.doc.hidden = false;
  env.doc.dispatchEvent(new Event('visibilitychange'));
  await env.settle();
  assert.equal(env.calls.length, 2);
  assert.deepEqual(env.states, ['open', 'hidden', 'open']);
  s.close();
  assert.equal(env.calls[1].init.signal.aborted, true);
});
