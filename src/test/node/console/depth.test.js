// depth.js: the overview's sparkline series across snapshots and ticks (design §2.6).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {afterTick, padded} from '../../../main/resources/webroot/console/app/depth.js';

test('a short series is padded with nulls in front, a long one keeps its last points', () => {
  assert.deepEqual(padded([1, 2], 4), [null, null, 1, 2]);
  assert.deepEqual(padded(undefined, 3), [null, null, null]);
  assert.deepEqual(padded([1, 2, 3, 4, 5], 3), [3, 4, 5]);
  assert.deepEqual(padded([1], 0), []);
});

test('a tick appends each row its point and keeps the series fineSlots long', () => {
  const before = new Map([['a', [null, 1, 2]], ['b', [5, 6, 7]]]);
  const after = afterTick(before, ['a', 'b'], {a: 3, b: 8}, 3);
  assert.deepEqual(after.get('a'), [1, 2, 3]);
  assert.deepEqual(after.get('b'), [6, 7, 8]);
  assert.deepEqual(before.get('a'), [null, 1, 2], 'the previous map is left as it was');
});

test('rows no longer shown are dropped, and a row new to the page starts as nulls', () => {
  const before = new Map([['gone', [1, 2, 3]], ['kept', [1, 2, 3]]]);
  const after = afterTick(before, ['kept', 'new'], {kept: 4, new: 9}, 4);
  assert.deepEqual([...after.keys()], ['kept', 'new']);
  assert.deepEqual(after.get('kept'), [1, 2, 3, 4]);
  assert.deepEqual(after.get('new'), [null, null, null, 9]);
});

test('a row the tick has no point for gets a null, not a copy of its last point', () => {
  const after = afterTick(new Map([['a', [1, 2]]]), ['a'], {}, 2);
  assert.deepEqual(after.get('a'), [2, null]);
  assert.deepEqual(afterTick(new Map(), ['a'], undefined, 2).get('a'), [null, null]);
});
