// The Backoff tab: the queue's redelivery backoff (a Sluice extension, no SQS attribute), read with
// GET and set or removed through the console's admin route queues/{q}/redelivery-backoff.

import * as api from '../api.js';
import {readPolicy, describe} from '../backoff.js';
import {h, replace} from '../dom.js';
import {clearError, errorBox, field, showError} from './common.js';

export function mount(panel, q) {
  const error = errorBox('backoff-error');
  const current = h('p', {id: 'backoff-current'}, '…');
  const base = h('input', {id: 'backoff-base', type: 'number', inputmode: 'numeric', min: 1, max: 43200, required: true});
  const max = h('input', {id: 'backoff-max', type: 'number', inputmode: 'numeric', min: 1, max: 43200, required: true});
  const path = `queues/${q.path}/redelivery-backoff`;

  function show(policy) {
    replace(current, describe(policy));
    current.dataset.base = policy.baseSeconds ?? '';
    current.dataset.max = policy.maxSeconds ?? '';
    base.value = policy.baseSeconds ?? '';
    max.value = policy.maxSeconds ?? '';
  }

  async function run(request, notice) {
    try {
      show(await request());
      clearError(error);
      if (notice) q.ctx.notice(notice);
    } catch (e) {
      if (e?.code === 'NotFound') q.gone();
      else q.failed(e, error);
    }
  }

  panel.append(h('h2', null, 'Redelivery backoff'),
    h('p', {class: 'sub'}, 'When a received message\u2019s visibility timeout runs out without a delete, it stays hidden'
      + ' for a random wait up to min(max, base \u00d7 2^(receives \u2212 1)) seconds. A Sluice setting, not an SQS attribute.'),
    error, current,
    h('form', {class: 'inline-form', id: 'backoff-form', onsubmit: (e) => {
      e.preventDefault();
      const policy = readPolicy(base.value, max.value);
      if (policy.problem) {
        showError(error, new api.ApiError(400, 'InvalidParameterValue', policy.problem), q.ctx);
        return;
      }
      run(() => api.put(path, policy), 'Redelivery backoff saved.');
    }}, field('backoff-base', 'Base (s)', base), field('backoff-max', 'Max (s)', max),
    h('button', {type: 'submit', id: 'backoff-save'}, 'Save'),
    h('button', {type: 'button', id: 'backoff-remove',
      onclick: () => run(() => api.remove(path), 'Redelivery backoff removed.')}, 'Remove')));
  run(() => api.get(path));
  return {};
}
