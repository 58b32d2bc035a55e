// trouble.js: the banner's words for a server that is unreachable, starting or stopping.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {troubleState, troubleText} from '../../../main/resources/webroot/console/app/trouble.js';

const unavailable = (message) => ({status: 503, code: 'ServiceUnavailable', message});

test('no answer is offline', () => {
  assert.equal(troubleState({status: 0, message: 'Cannot reach Sluice'}), 'offline');
  assert.equal(troubleText({status: 0}, 2), 'Cannot reach Sluice; retrying in 2 s.');
});

test('a server shutting down or a console stopped is not called starting', () => {
  for (const message of ['Sluice is shutting down', 'Sluice is shutting down.', 'The console has stopped.',
    'The server is stopping.']) {
    assert.equal(troubleState(unavailable(message)), 'stopping', message);
    assert.equal(troubleText(unavailable(message), 4), 'Sluice is stopping or restarting; retrying in 4 s.');
  }
});

test('a server starting says so once, with its reason', () => {
  assert.equal(troubleState(unavailable('Sluice is starting (recovering its queues); retry shortly.')), 'starting');
  assert.equal(troubleText(unavailable('Sluice is starting (recovering its queues); retry shortly.'), 1),
    'Sluice is starting (recovering its queues); retry shortly. Retrying in 1 s.');
  assert.equal(troubleText(unavailable('the database is not reachable'), 8),
    'Sluice is starting: the database is not reachable. Retrying in 8 s.');
  assert.equal(troubleText(unavailable(''), 1), 'Sluice is starting. Retrying in 1 s.');
});
