// The Send tab: SendMessage with a body, a delay, message attributes (String, Number, Binary as
// base64) and, on a FIFO queue, the group and deduplication ids. Errors are shown as the API
// worded them; the form does not second-guess SQS's validation.

import {h, replace} from '../dom.js';
import {clearError, errorBox, field} from './common.js';

export function mount(panel, q) {
  let rows = 0;
  const bodyInput = h('textarea', {id: 'send-body', rows: 6, required: true, spellcheck: 'false'});
  const delay = h('input', {id: 'send-delay', type: 'number', min: 0, max: 900, placeholder: 'queue default'});
  const group = h('input', {id: 'send-group', required: true, autocomplete: 'off'});
  const dedup = h('input', {id: 'send-dedup', autocomplete: 'off',
    placeholder: q.attributes.ContentBasedDeduplication === 'true' ? 'from the body (content-based)' : ''});
  const attributes = h('div', {id: 'send-attributes', class: 'attribute-rows'});
  const result = h('p', {id: 'send-result', role: 'status', class: 'ok', hidden: true});
  const error = errorBox('send-error');
  const submit = h('button', {type: 'submit', id: 'send-submit', class: 'primary'}, 'Send message');

  function addAttribute() {
    const n = ++rows;
    const name = h('input', {'aria-label': `Attribute name ${n}`, class: 'attr-name', autocomplete: 'off', required: true});
    const type = h('select', {'aria-label': `Attribute type ${n}`, class: 'attr-type'},
      ['String', 'Number', 'Binary'].map((t) => h('option', {value: t}, t)));
    const value = h('input', {'aria-label': `Attribute value ${n}`, class: 'attr-value', autocomplete: 'off', required: true});
    const row = h('div', {class: 'attribute-row'}, name, type, value,
      h('button', {type: 'button', class: 'small', 'aria-label': `Remove attribute ${n}`, onclick: () => row.remove()}, 'Remove'));
    attributes.append(row);
    name.focus();
  }

  function messageAttributes() {
    const result = {};
    for (const row of attributes.children) {
      const name = row.querySelector('.attr-name').value.trim();
      const dataType = row.querySelector('.attr-type').value;
      const value = row.querySelector('.attr-value').value;
      result[name] = dataType === 'Binary' ? {DataType: dataType, BinaryValue: value.trim()} : {DataType: dataType, StringValue: value};
    }
    return result;
  }

  async function send(e) {
    e.preventDefault();
    const request = {QueueUrl: q.url, MessageBody: bodyInput.value};
    if (delay.value !== '') request.DelaySeconds = Number(delay.value);
    const attrs = messageAttributes();
    if (Object.keys(attrs).length) request.MessageAttributes = attrs;
    if (q.fifo) {
      request.MessageGroupId = group.value;
      if (dedup.value) request.MessageDeduplicationId = dedup.value;
    }
    submit.disabled = true;
    try {
      const answer = await q.sqs('SendMessage', request);
      clearError(error);
      result.dataset.messageId = answer.MessageId;
      replace(result, `Sent message ${answer.MessageId} (MD5 of body ${answer.MD5OfMessageBody}`
        + `${answer.SequenceNumber ? `, sequence number ${answer.SequenceNumber}` : ''}).`);
      result.hidden = false;
      q.ctx.notice('Message sent.');
    } catch (err) {
      result.hidden = true;
      q.failed(err, error);
    } finally {
      submit.disabled = false;
    }
  }

  panel.append(h('form', {id: 'send-form', class: 'stack', onsubmit: send},
    h('h2', null, 'Send a message'),
    field('send-body', 'Body', bodyInput),
    q.fifo ? [field('send-group', 'Message group id', group), field('send-dedup', 'Deduplication id', dedup)]
      : field('send-delay', 'Delay (seconds, 0–900)', delay),
    h('fieldset', null, h('legend', null, 'Message attributes'), attributes,
      h('button', {type: 'button', id: 'send-add-attribute', class: 'small', onclick: addAttribute}, 'Add attribute')),
    h('div', {class: 'actions'}, submit), error, result));
  return {};
}
