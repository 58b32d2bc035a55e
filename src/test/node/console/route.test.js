// route.js: the hash routes, and a fragment that is not valid percent-encoding.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseRoute, queueHash} from '../../../main/resources/webroot/console/app/route.js';

const OVERVIEW = {view: 'overview', key: 'overview', tab: 'queues'};

test('an empty fragment, #/ and an unknown route are the overview', () => {
  assert.deepEqual(parseRoute(''), OVERVIEW);
  assert.deepEqual(parseRoute('#/'), OVERVIEW);
  assert.deepEqual(parseRoute('#/nowhere'), OVERVIEW);
  assert.deepEqual(parseRoute('#/topics'), {view: 'overview', key: 'overview', tab: 'topics'});
});

test('a queue route decodes each segment and defaults to the messages tab', () => {
  assert.deepEqual(parseRoute('#/q/000000000000/us-east-1/orders%2Fx.fifo'), {view: 'queue',
    key: 'q/000000000000/us-east-1/orders/x.fifo', account: '000000000000', region: 'us-east-1',
    name: 'orders/x.fifo', tab: 'messages'});
  assert.equal(parseRoute('#/q/000000000000/us-east-1/orders/settings').tab, 'settings');
  assert.deepEqual(parseRoute('#/q/000000000000/us-east-1'), OVERVIEW);
});

test('a malformed fragment is the overview, not an exception', () => {
  assert.deepEqual(parseRoute('#/q/%E0'), OVERVIEW);
  assert.deepEqual(parseRoute('#/q/000000000000/us-east-1/%E0%A4%A'), OVERVIEW);
  assert.deepEqual(parseRoute('#/%'), OVERVIEW);
});

test('queueHash and parseRoute agree on any name', () => {
  const name = 'a b/%E0?#&.fifo';
  const r = parseRoute(queueHash('000000000000', 'eu-west-1', name, 'tags'));
  assert.equal(r.name, name);
  assert.equal(r.tab, 'tags');
  assert.equal(queueHash('1', 'r', 'n'), '#/q/1/r/n');
});
