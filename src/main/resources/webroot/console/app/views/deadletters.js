// The Dead letters tab of a DLQ: its source queues, a redrive (StartMessageMoveTask back to the
// sources or to a chosen queue, with an optional rate), and the move tasks with their progress.
// ListMessageMoveTasks is polled once a second only while a task runs (design §2.6), and the
// polling stops when the tab is left.

import {h, replace} from '../dom.js';
import {arnName, arnParts, clearError, errorBox, field, num, showError, when} from './common.js';

const ACTIVE = new Set(['RUNNING', 'CANCELLING']);

export function mount(panel, q) {
  let timer = null;
  let gone = false;
  const error = errorBox('redrive-error');
  const sources = q.row?.deadLetterSources ?? [];
  const destination = h('select', {id: 'redrive-destination'},
    h('option', {value: ''}, 'Back to their source queues'), h('option', {value: 'custom'}, 'To another queue…'));
  const custom = h('input', {id: 'redrive-custom', autocomplete: 'off', placeholder: 'arn:aws:sqs:…', hidden: true,
    'aria-label': 'Destination queue ARN'});
  const rate = h('input', {id: 'redrive-rate', type: 'number', min: 1, max: 500, placeholder: 'any'});
  const start = h('button', {type: 'submit', id: 'redrive-start', class: 'primary'}, 'Start redrive');
  const tasks = h('tbody');
  destination.addEventListener('change', () => { custom.hidden = destination.value !== 'custom'; custom.required = !custom.hidden; });

  panel.append(h('h2', null, 'Dead letters'),
    h('h3', null, 'Source queues'),
    h('ul', {id: 'dlq-sources'}, sources.map((arn) => {
      const p = arnParts(arn);
      return h('li', null, h('a', {href: q.ctx.queueHash(p.account, p.region, p.name)}, p.name), h('span', {class: 'sub'}, ` ${arn}`));
    })),
    h('form', {id: 'redrive-form', class: 'inline-form', onsubmit: redrive},
      field('redrive-destination', 'Move messages', destination), custom,
      field('redrive-rate', 'Messages per second (optional)', rate), start),
    error,
    h('h3', null, 'Move tasks'),
    h('table', {id: 'move-tasks', class: 'data cards'}, h('caption', {class: 'visually-hidden'}, 'Move tasks'),
      h('thead', null, h('tr', null, ['Status', 'Progress', 'Destination', 'Started', 'Failure', ''].map((c) =>
        h('th', {scope: 'col'}, c || h('span', {class: 'visually-hidden'}, 'Actions'))))), tasks));

  async function redrive(e) {
    e.preventDefault();
    const request = {SourceArn: q.arn};
    if (destination.value === 'custom') request.DestinationArn = custom.value.trim();
    if (rate.value) request.MaxNumberOfMessagesPerSecond = Number(rate.value);
    start.disabled = true;
    try {
      await q.sqs('StartMessageMoveTask', request);
      clearError(error);
      q.ctx.notice('Redrive started.');
      await load(); // keeps the button disabled while the task runs
    } catch (err) {
      showError(error, err, q.ctx);
      start.disabled = false;
    }
  }

  async function cancel(handle) {
    try {
      await q.sqs('CancelMessageMoveTask', {TaskHandle: handle});
      clearError(error);
      await load();
    } catch (err) {
      showError(error, err, q.ctx);
    }
  }

  function rowOf(t) {
    const moved = t.ApproximateNumberOfMessagesMoved ?? 0;
    const toMove = t.ApproximateNumberOfMessagesToMove;
    const progress = toMove ? h('progress', {max: toMove, value: Math.min(moved, toMove), 'aria-label': 'Moved'}) : null;
    return h('tr', {dataset: {status: t.Status}},
      h('td', {'data-label': 'Status'}, h('span', {class: `state task-${t.Status.toLowerCase()}`}, t.Status)),
      h('td', {'data-label': 'Progress'}, progress, ' ', num(moved), toMove != null ? [' of ', num(toMove)] : ' moved'),
      h('td', {'data-label': 'Destination'}, t.DestinationArn ? arnName(t.DestinationArn) : 'Source queues'),
      h('td', {'data-label': 'Started'}, when(t.StartedTimestamp)),
      h('td', {'data-label': 'Failure'}, t.FailureReason ?? ''),
      h('td', null, t.Status === 'RUNNING' && t.TaskHandle
        ? h('button', {type: 'button', id: 'cancel-task', class: 'danger small', onclick: () => cancel(t.TaskHandle)}, 'Cancel')
        : null));
  }

  async function load() {
    clearTimeout(timer);
    if (gone) return;
    try {
      const {Results = []} = await q.sqs('ListMessageMoveTasks', {SourceArn: q.arn, MaxResults: 10});
      replace(tasks, Results.length ? Results.map(rowOf) : h('tr', null, h('td', {colspan: 6, class: 'empty'}, 'No move tasks yet.')));
      panel.querySelector('#redrive-form').hidden = false;
      start.disabled = Results.some((t) => ACTIVE.has(t.Status));
      if (Results.some((t) => ACTIVE.has(t.Status)) && !gone) timer = setTimeout(load, 1000);
    } catch (err) {
      q.failed(err, error);
    }
  }

  load();
  return {
    destroy() {
      gone = true;
      clearTimeout(timer);
    },
  };
}

