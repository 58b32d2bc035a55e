// format.js as the pages use it, with the locale pinned (run by ConsoleModulesIT: node --test).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import * as fmt from '../../../main/resources/webroot/console/app/format.js';

const L = 'en-US';

test('counts are exact below 10,000 and compact above, with the exact value beside', () => {
  assert.equal(fmt.count(0, L), '0');
  assert.equal(fmt.count(9876, L), '9,876');
  assert.equal(fmt.count(9999, L), '9,999');
  assert.equal(fmt.count(10_000, L), '10K');
  assert.equal(fmt.count(12_345, L), '12.3K');
  assert.equal(fmt.count(4_500_000, L), '4.5M');
  assert.equal(fmt.exactCount(4_500_000, L), '4,500,000');
  assert.deepEqual(fmt.countParts(123_456, L), {text: '123.5K', exact: '123,456'});
  assert.deepEqual(fmt.countParts(42, L), {text: '42', exact: '42'});
});

test('missing numbers show a dash, not NaN', () => {
  for (const f of [fmt.count, fmt.exactCount, fmt.rate, fmt.age, fmt.bytes]) {
    assert.equal(f(null, L), '–');
    assert.equal(f(undefined, L), '–');
  }
  assert.equal(fmt.count(NaN, L), '–');
});

test('rates keep one decimal below 10, none above, and compact past 10,000', () => {
  assert.equal(fmt.rate(0, L), '0');
  assert.equal(fmt.rate(0.4, L), '0.4/s');
  assert.equal(fmt.rate(2.25, L), '2.3/s');
  assert.equal(fmt.rate(12.4, L), '12/s');
  assert.equal(fmt.rate(1234, L), '1,234/s');
  assert.equal(fmt.rate(12_300, L), '12.3K/s');
  assert.equal(fmt.rate(0.01, L), '<0.1/s', 'a small rate is not shown as 0');
});

test('ages read as seconds, minutes, hours and days', () => {
  assert.equal(fmt.age(0), '0 s');
  assert.equal(fmt.age(999), '0 s');
  assert.equal(fmt.age(45_000), '45 s');
  assert.equal(fmt.age(12 * 60_000 + 30_000), '12 min');
  assert.equal(fmt.age(3 * 3_600_000), '3 h');
  assert.equal(fmt.age(3 * 3_600_000 + 5 * 60_000), '3 h 5 min');
  assert.equal(fmt.age(2 * 86_400_000), '2 d');
  assert.equal(fmt.age(2 * 86_400_000 + 4 * 3_600_000), '2 d 4 h');
  assert.equal(fmt.age(-5000), '0 s', 'a clock a little ahead gives no negative age');
});

test('bytes are binary: B, KiB, MiB', () => {
  assert.equal(fmt.bytes(0, L), '0 B');
  assert.equal(fmt.bytes(1023, L), '1,023 B');
  assert.equal(fmt.bytes(1024, L), '1 KiB');
  assert.equal(fmt.bytes(5120, L), '5 KiB');
  assert.equal(fmt.bytes(262_144, L), '256 KiB');
  assert.equal(fmt.bytes(1_048_576, L), '1 MiB');
  assert.equal(fmt.bytes(1_572_864, L), '1.5 MiB');
});

test('times are local with an ISO title', () => {
  const t = Date.UTC(2026, 10, 28, 3, 4, 5);
  assert.equal(fmt.iso(t), '2026-11-28T03:04:05.000Z');
  assert.equal(fmt.time(t, L, 'UTC'), '11/28/26, 3:04:05 AM');
  assert.equal(fmt.clock(t, L, 'UTC'), '3:04 AM');
  assert.equal(fmt.time(null, L), '–');
  assert.equal(fmt.iso(null), '');
});

test('error codes are the text after the last # of __type', () => {
  assert.equal(fmt.errorCode('com.amazonaws.sqs#QueueDoesNotExist'), 'QueueDoesNotExist');
  assert.equal(fmt.errorCode('a#b#InvalidAttributeValue'), 'InvalidAttributeValue');
  assert.equal(fmt.errorCode('TooManyStreams'), 'TooManyStreams');
  assert.equal(fmt.errorCode(''), '');
  assert.equal(fmt.errorCode(undefined), '');
});
