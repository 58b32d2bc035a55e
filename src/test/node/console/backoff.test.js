// backoff.js as the Backoff tab uses it (run by ConsoleModulesIT: node --test).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ceilingSeconds, describe, readPolicy} from '../../../main/resources/webroot/console/app/backoff.js';

test('the form is read as the server checks it: whole seconds, 1 <= base <= max <= 43200', () => {
  assert.deepEqual(readPolicy('5', ' 300 '), {baseSeconds: 5, maxSeconds: 300});
  assert.deepEqual(readPolicy('1', '1'), {baseSeconds: 1, maxSeconds: 1});
  for (const [b, m] of [['0', '5'], ['', '5'], ['1.5', '9'], ['-1', '9'], ['5', '4'], ['5', '43201'], ['5', 'x']]) {
    assert.ok(readPolicy(b, m).problem, `${b}..${m}`);
  }
});

test('the ceilings double from the base and stop at the max, without overflow', () => {
  const p = {baseSeconds: 5, maxSeconds: 300};
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 1000].map((n) => ceilingSeconds(p, n)), [5, 10, 20, 40, 80, 160, 300, 300]);
});

test('the policy is described by its ranges of waits, and its absence as such', () => {
  assert.equal(describe({baseSeconds: 5, maxSeconds: 20}), 'After each expired receive, a wait of 0–5 s, 0–10 s, then 0–20 s.');
  assert.equal(describe({baseSeconds: 1, maxSeconds: 1000}),
    'After each expired receive, a wait of 0–1 s, 0–2 s, 0–4 s, 0–8 s, 0–16 s, 0–32 s, … up to 0–1000 s.');
  assert.match(describe({baseSeconds: null, maxSeconds: null}), /^None/);
});
