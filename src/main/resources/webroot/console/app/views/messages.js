// The Messages tab: the peek (GET queues/{q}/messages: reads without receiving, design §2.5) and
// the receive panel, which is a real delivery through ReceiveMessage: it raises the receive count
// and can move a message to its DLQ, so the panel says so. Messages received and not deleted are
// made visible again (ChangeMessageVisibilityBatch 0) on "Return the rest" and when the page goes;
// those the server could not return stay listed, with the reason.

import * as api from '../api.js';
import {h, modal, replace} from '../dom.js';
import * as fmt from '../format.js';
import {rovingRows} from '../keys.js';
import {arnName, clearError, errorBox, field, num, parseRedrive, showError, when} from './common.js';

const PAGE = 20;
const PEEK_END = 10_000; // offset + max may not pass it (design §2.6)
const BATCH = 10; // entries per ChangeMessageVisibilityBatch, SQS's limit
const STATES = {READY: 'Ready', DELAYED: 'Delayed', IN_FLIGHT: 'In flight'};

export function mount(panel, q) {
  // A page holds what the last answer returned, which may be fewer than PAGE (previews cut at
  // 1 MiB): Next starts where that answer ended, Previous goes back to where the page before began.
  let offset = 0;
  let shown = 0; // messages the last answer returned
  const starts = []; // offsets of the pages before this one
  let received = []; // [{MessageId, ReceiptHandle, Body, Attributes}]
  const notReturned = new Map(); // ReceiptHandle → why ChangeMessageVisibilityBatch refused it
  const error = errorBox('peek-error');
  const body = h('tbody', {class: 'rows'});
  let dlq = false; // a "From" column once any message came from a dead-letter source
  const head = h('tr');
  const info = h('p', {class: 'sub', id: 'peek-info'});
  const prev = h('button', {type: 'button', id: 'peek-prev', onclick: () => { offset = starts.pop() ?? 0; peek(); }}, 'Previous');
  const next = h('button', {type: 'button', id: 'peek-next', onclick: () => {
    starts.push(offset);
    offset += shown;
    peek();
  }}, 'Next');
  let columns = [];
  function header() {
    columns = ['State', 'Receives', q.fifo ? 'Group' : null, dlq ? 'From' : null, 'Sent', 'Body'].filter(Boolean);
    replace(head, columns.map((c) => h('th', {scope: 'col', class: c === 'Receives' ? 'n' : null}, c)));
  }

  panel.append(
    h('div', {class: 'toolbar'}, h('h2', null, 'Browse'),
      h('button', {type: 'button', id: 'peek-refresh', onclick: peek}, 'Refresh')),
    h('p', {class: 'sub'}, 'Browsing changes nothing: no receive, no visibility change, no receive count.'),
    error,
    h('table', {id: 'peek', class: 'data cards'}, h('caption', {class: 'visually-hidden'}, 'Messages'),
      h('thead', null, head), body),
    h('div', {class: 'pager'}, prev, info, next),
    receivePanel());

  function rowOf(m) {
    const open = () => showMessage(m);
    return h('tr', {dataset: {messageId: m.messageId, state: m.state}, onopen: open, onclick: open},
      h('td', {'data-label': 'State'}, h('span', {class: `state state-${m.state.toLowerCase()}`}, STATES[m.state] ?? m.state),
        m.state !== 'READY' && m.visibleAt ? h('span', {class: 'sub'}, ` visible in ${fmt.age(m.visibleAt - Date.now())}`) : null),
      h('td', {class: 'n', 'data-label': 'Receives'}, num(m.receiveCount)),
      q.fifo ? h('td', {'data-label': 'Group'}, m.groupId ?? '–') : null,
      dlq ? h('td', {'data-label': 'From'}, m.deadLetterSourceArn ? arnName(m.deadLetterSourceArn) : '–') : null,
      h('td', {'data-label': 'Sent'}, when(m.sentTimestamp)),
      h('td', {'data-label': 'Body', class: 'body-cell'}, h('span', {class: 'preview'}, m.body),
        m.bodyTruncated ? h('span', {class: 'sub'}, ` … ${fmt.bytes(m.bodyBytes)}`) : null));
  }

  async function peek() {
    try {
      const answer = await api.get(`queues/${q.path}/messages`,
        {offset, max: Math.min(PAGE, PEEK_END - offset), preview: 2048});
      clearError(error);
      shown = answer.messages.length;
      dlq = (q.row?.deadLetterSources ?? []).length > 0 || answer.messages.some((m) => m.deadLetterSourceArn);
      header();
      replace(body, answer.messages.length ? answer.messages.map(rowOf)
        : h('tr', null, h('td', {colspan: columns.length, class: 'empty'}, offset ? 'No more messages.' : 'No messages.')));
      rovingRows(body);
      const more = answer.durableOnly ? `, and ${fmt.exactCount(answer.durableOnly)} more held in PostgreSQL only` : '';
      replace(info, `${fmt.exactCount(answer.messages.length ? offset + 1 : 0)}–${fmt.exactCount(offset + answer.messages.length)} `
        + `of ${fmt.exactCount(answer.resident)}${more}${answer.truncated ? ' (previews cut at 1 MiB)' : ''}`);
      prev.disabled = offset === 0;
      next.disabled = shown === 0 || offset + shown >= answer.resident || offset + shown >= PEEK_END;
    } catch (e) {
      q.failed(e, error);
    }
  }

  async function showMessage(m) {
    const bodyEl = h('pre', {id: 'message-body', class: 'message-body', tabindex: 0}, m.body);
    const problem = errorBox('message-error');
    let text = m.body;
    const pretty = h('button', {type: 'button', id: 'message-pretty', onclick: () => {
      try {
        replace(bodyEl, JSON.stringify(JSON.parse(text), null, 2));
      } catch {
        showError(problem, new Error('The body is not JSON.'));
      }
    }}, 'Pretty-print JSON');
    const close = h('button', {type: 'button', id: 'message-close', onclick: () => dialog.close()}, 'Close');
    const attrs = Object.entries(m.attributes ?? {});
    const dialog = modal({id: 'message-dialog', class: 'wide', 'aria-labelledby': 'message-title'},
      h('h2', {id: 'message-title'}, 'Message ', h('code', null, m.messageId)),
      h('dl', {class: 'facts'},
        [['State', STATES[m.state] ?? m.state], ['Receive count', fmt.exactCount(m.receiveCount)], ['Sent', when(m.sentTimestamp)],
          ['First received', when(m.firstReceiveTimestamp)], ['Body', fmt.bytes(m.bodyBytes)], ['MD5 of body', m.md5OfBody],
          ['Group', m.groupId], ['Deduplication id', m.deduplicationId], ['Sequence number', m.sequenceNumber],
          ['Dead-letter source', m.deadLetterSourceArn], ['Sender', m.senderId]]
          .filter(([, v]) => v != null && v !== '').map(([k, v]) => [h('dt', null, k), h('dd', null, v)])),
      attrs.length ? h('table', {class: 'data', id: 'message-attributes'},
        h('thead', null, h('tr', null, h('th', null, 'Attribute'), h('th', null, 'Type'), h('th', null, 'Value'))),
        h('tbody', null, attrs.map(([name, a]) => h('tr', null, h('td', null, name), h('td', null, a.dataType),
          h('td', null, a.stringValue ?? a.binaryValue ?? '', a.truncated ? ` … ${fmt.bytes(a.bytes)}` : ''))))) : null,
      h('div', {class: 'toolbar'}, h('h3', null, 'Body'), pretty), problem, bodyEl,
      h('div', {class: 'actions'}, close));
    close.focus();
    if (m.bodyTruncated) {
      try {
        const whole = await api.get(`queues/${q.path}/messages/${encodeURIComponent(m.key)}`);
        text = whole.body;
        replace(bodyEl, text);
      } catch (e) {
        showError(problem, e.code === 'MessageNotFound' ? new Error('This message is gone (received and deleted, or expired).') : e, q.ctx);
      }
    }
  }

  function receivePanel() {
    const max = h('input', {id: 'receive-max', type: 'number', min: 1, max: 10, value: '1'});
    const visibility = h('input', {id: 'receive-visibility', type: 'number', min: 0, max: 43200, value: '30'});
    const wait = h('input', {id: 'receive-wait', type: 'number', min: 0, max: 20, value: '0'});
    const list = h('ul', {id: 'received', class: 'received', 'aria-label': 'Received messages'});
    const problem = errorBox('receive-error');
    const returnRest = h('button', {type: 'button', id: 'return-rest', hidden: true, onclick: giveBack}, 'Return the rest');
    const redrive = parseRedrive(q.attributes.RedrivePolicy);
    const button = h('button', {type: 'submit', id: 'receive-button'}, 'Receive');

    async function receive(e) {
      e.preventDefault();
      button.disabled = true;
      try {
        const answer = await q.sqs('ReceiveMessage', {QueueUrl: q.url, MaxNumberOfMessages: Number(max.value),
          VisibilityTimeout: Number(visibility.value), WaitTimeSeconds: Number(wait.value),
          AttributeNames: ['All'], MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All']});
        clearError(problem);
        received.push(...(answer.Messages ?? []));
        drawReceived();
        q.ctx.notice(`Received ${(answer.Messages ?? []).length} message(s).`);
      } catch (err) {
        showError(problem, err, q.ctx);
      } finally {
        button.disabled = false;
      }
    }

    async function remove(m) {
      try {
        await q.sqs('DeleteMessage', {QueueUrl: q.url, ReceiptHandle: m.ReceiptHandle});
        received = received.filter((r) => r !== m);
        notReturned.delete(m.ReceiptHandle);
        drawReceived();
        q.ctx.notice(`Deleted message ${m.MessageId}.`);
        peek();
      } catch (err) {
        showError(problem, err, q.ctx);
      }
    }

    async function giveBack() {
      returnRest.disabled = true;
      const failed = await returnAll(false);
      returnRest.disabled = false;
      drawReceived();
      peek();
      if (!failed.length) {
        clearError(problem);
        return;
      }
      showError(problem, new Error(`${failed.length} message(s) could not be made visible again and stay listed `
        + `(${failed[0].reason}).`));
      const trouble = failed.find((f) => f.error?.status === 0 || f.error?.code === 'ServiceUnavailable');
      if (trouble) q.ctx.serverTrouble(trouble.error);
    }

    function drawReceived() {
      replace(list, received.map((m) => h('li', {dataset: {messageId: m.MessageId}},
        h('div', {class: 'received-head'}, h('code', null, m.MessageId),
          h('span', {class: 'sub'}, ` receive count ${m.Attributes?.ApproximateReceiveCount ?? '?'}`),
          notReturned.has(m.ReceiptHandle)
            ? h('span', {class: 'error'}, ` not returned: ${notReturned.get(m.ReceiptHandle)}`) : null,
          h('button', {type: 'button', class: 'danger small', 'aria-label': `Delete message ${m.MessageId}`,
            onclick: () => remove(m)}, 'Delete')),
        h('pre', {class: 'message-body'}, m.Body))));
      returnRest.hidden = received.length === 0;
    }

    return h('section', {id: 'receive-panel', class: 'card', 'aria-labelledby': 'receive-title'},
      h('h2', {id: 'receive-title'}, 'Receive and delete'),
      h('p', {class: 'warning'}, 'Receiving is a delivery: each receive adds 1 to the receive count',
        redrive ? `, and after ${redrive.maxReceiveCount} receives a message moves to its dead-letter queue (${redrive.name}).`
          : '. Messages you do not delete become visible again after the visibility timeout.'),
      h('form', {class: 'inline-form', onsubmit: receive},
        field('receive-max', 'Up to', max), field('receive-visibility', 'Visibility timeout (s)', visibility),
        field('receive-wait', 'Wait (s)', wait), button, returnRest),
      problem, list);
  }

  // Receipt handles still held go back to the queue (visibility 0): on request, and when the tab
  // or page goes. Every batch is sent at once, not one after another: on pagehide only what is
  // already sent leaves the page, and keepalive lets those requests outlive it (unlike
  // sendBeacon, it sends the console's headers). A handle whose entry comes back in Failed, or
  // whose batch failed, stays held; the answer lists those as [{message, code, reason, error}].
  async function returnAll(keepalive) {
    const held = received;
    const batches = [];
    for (let i = 0; i < held.length; i += BATCH) batches.push(held.slice(i, i + BATCH));
    const answers = await Promise.allSettled(batches.map((batch) => q.sqs('ChangeMessageVisibilityBatch',
      {QueueUrl: q.url, Entries: batch.map((m, n) => ({Id: `m${n}`, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0}))},
      {keepalive})));
    const failed = [];
    answers.forEach((answer, b) => {
      if (answer.status === 'rejected') {
        const error = answer.reason;
        const reason = error?.text ?? String(error?.message ?? error);
        batches[b].forEach((message) => failed.push({message, code: error?.code, reason, error}));
        return;
      }
      for (const entry of answer.value.Failed ?? []) {
        const message = batches[b][Number(entry.Id.slice(1))];
        if (message) failed.push({message, code: entry.Code, reason: entry.Message ? `${entry.Code}: ${entry.Message}` : entry.Code});
      }
    });
    const sent = new Set(held);
    const keep = new Set(failed.map((f) => f.message));
    received = received.filter((m) => !sent.has(m) || keep.has(m)); // one received meanwhile stays
    for (const m of held) notReturned.delete(m.ReceiptHandle);
    for (const f of failed) notReturned.set(f.message.ReceiptHandle, f.reason);
    return failed;
  }
  const onLeave = () => {
    if (!received.length) return;
    returnAll(true).then((failed) => {
      // A queue deleted meanwhile took its messages with it: nothing to tell.
      const kept = failed.filter((f) => f.code !== 'QueueDoesNotExist');
      if (kept.length) q.ctx.notice(`${kept.length} received message(s) could not be made visible again.`);
    });
  };
  addEventListener('pagehide', onLeave);

  peek();
  return {
    destroy() {
      removeEventListener('pagehide', onLeave);
      onLeave();
    },
  };
}
