// The Tags tab: ListQueueTags, TagQueue to add or change one, UntagQueue to remove one.

import {h, replace} from '../dom.js';
import {clearError, errorBox, field} from './common.js';

export function mount(panel, q) {
  const error = errorBox('tags-error');
  const body = h('tbody');
  const key = h('input', {id: 'tag-key', required: true, autocomplete: 'off', maxlength: 128});
  const value = h('input', {id: 'tag-value', autocomplete: 'off', maxlength: 256});

  async function run(action, body) {
    try {
      await q.sqs(action, {QueueUrl: q.url, ...body});
      clearError(error);
      await load();
      return true;
    } catch (e) {
      q.failed(e, error);
      return false;
    }
  }

  async function load() {
    try {
      const {Tags} = await q.sqs('ListQueueTags', {QueueUrl: q.url});
      const entries = Object.entries(Tags ?? {}).sort(([a], [b]) => a.localeCompare(b));
      replace(body, entries.length ? entries.map(([k, v]) => h('tr', {dataset: {tag: k}},
        h('th', {scope: 'row', 'data-label': 'Key'}, k), h('td', {'data-label': 'Value'}, v),
        h('td', null, h('button', {type: 'button', class: 'small', 'aria-label': `Remove tag ${k}`,
          onclick: () => run('UntagQueue', {TagKeys: [k]})}, 'Remove'))))
        : h('tr', null, h('td', {colspan: 3, class: 'empty'}, 'No tags.')));
    } catch (e) {
      q.failed(e, error);
    }
  }

  panel.append(h('h2', null, 'Tags'), error,
    h('table', {id: 'tags', class: 'data cards'}, h('caption', {class: 'visually-hidden'}, 'Tags'),
      h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Key'), h('th', {scope: 'col'}, 'Value'),
        h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Actions')))), body),
    h('form', {class: 'inline-form', id: 'tag-form', onsubmit: async (e) => {
      e.preventDefault();
      if (await run('TagQueue', {Tags: {[key.value.trim()]: value.value}})) {
        q.ctx.notice(`Tag ${key.value.trim()} saved.`);
        key.value = '';
        value.value = '';
      }
    }}, field('tag-key', 'Key', key), field('tag-value', 'Value', value),
    h('button', {type: 'submit', id: 'tag-add'}, 'Add or change tag')));
  load();
  return {};
}
