// The Danger zone: PurgeQueue and DeleteQueue, each after the queue's name is typed into a native
// <dialog> (focus stays inside it; Esc cancels). The API would let the token holder do either
// at once; the typing is the page's own brake against a wrong click.

import {h, modal, replace} from '../dom.js';
import {showError} from './common.js';

export function mount(panel, q) {
  const result = h('p', {id: 'danger-result', role: 'status', hidden: true});

  function confirm(action, what, run) {
    const input = h('input', {id: 'confirm-input', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'confirm-help'});
    const button = h('button', {type: 'submit', id: 'confirm-button', class: 'danger', disabled: true}, action);
    const problem = h('p', {id: 'confirm-error', class: 'error', role: 'alert', hidden: true});
    input.addEventListener('input', () => { button.disabled = input.value !== q.name; });
    const dialog = modal({id: 'confirm-dialog', 'aria-labelledby': 'confirm-title'},
      h('form', {method: 'dialog', onsubmit: async (e) => {
        e.preventDefault();
        if (input.value !== q.name) return;
        button.disabled = true;
        try {
          await run();
          dialog.close();
        } catch (err) {
          showError(problem, err, q.ctx);
          button.disabled = false;
        }
      }},
      h('h2', {id: 'confirm-title'}, `${action} ${q.name}?`),
      h('p', null, what),
      h('label', {for: 'confirm-input', id: 'confirm-help'}, 'Type the queue name, ', h('strong', null, q.name), ', to confirm'),
      input, problem,
      h('div', {class: 'actions'},
        h('button', {type: 'button', id: 'confirm-cancel', onclick: () => dialog.close()}, 'Cancel'), button)));
    input.focus();
  }

  const purge = () => confirm('Purge', 'Every message in the queue is deleted, in flight and delayed ones too. This cannot be undone.',
    async () => {
      await q.sqs('PurgeQueue', {QueueUrl: q.url});
      replace(result, `Purged ${q.name}.`);
      result.hidden = false;
      q.ctx.notice(`Purged ${q.name}.`);
    });
  const remove = () => confirm('Delete', 'The queue and all its messages are deleted. Producers and consumers using it will fail.',
    async () => {
      await q.sqs('DeleteQueue', {QueueUrl: q.url});
      q.ctx.notice(`Deleted ${q.name}.`);
      location.hash = '#/';
    });

  panel.append(h('h2', null, 'Danger zone'),
    h('div', {class: 'danger-row'}, h('div', null, h('h3', null, 'Purge'), h('p', {class: 'sub'}, 'Delete every message, keep the queue.')),
      h('button', {type: 'button', id: 'purge-open', class: 'danger', onclick: purge}, 'Purge queue…')),
    h('div', {class: 'danger-row'}, h('div', null, h('h3', null, 'Delete'), h('p', {class: 'sub'}, 'Delete the queue and its messages.')),
      h('button', {type: 'button', id: 'delete-open', class: 'danger', onclick: remove}, 'Delete queue…')),
    result);
  return {};
}
