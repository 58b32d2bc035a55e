// The Settings tab: the queue's attributes as a form, the redrive policy as "dead-letter queue +
// maxReceiveCount", the redrive allow policy, and the access policy as JSON. Only changed
// attributes are sent (SetQueueAttributes), and SQS's own validation answers: its error is shown
// under the form as the API wrote it.

import * as api from '../api.js';
import {h, replace} from '../dom.js';
import * as fmt from '../format.js';
import {clearError, errorBox, field, parseRedrive} from './common.js';

const NUMBERS = [
  ['VisibilityTimeout', 'Visibility timeout (s)', 0, 43200],
  ['DelaySeconds', 'Delivery delay (s)', 0, 900],
  ['MessageRetentionPeriod', 'Retention (s)', 60, 1209600],
  ['MaximumMessageSize', 'Maximum message size (bytes)', 1024, 1048576],
  ['ReceiveMessageWaitTimeSeconds', 'Receive wait time (s)', 0, 20],
];
const FIFO_CHOICES = [
  ['ContentBasedDeduplication', 'Content-based deduplication', ['false', 'true']],
  ['DeduplicationScope', 'Deduplication scope', ['queue', 'messageGroup']],
  ['FifoThroughputLimit', 'Throughput limit', ['perQueue', 'perMessageGroupId']],
];

export function mount(panel, q) {
  let loaded = {};
  const inputs = {};
  const error = errorBox('settings-error');
  const result = h('p', {id: 'settings-result', role: 'status', class: 'ok', hidden: true});
  const dlq = h('input', {id: 'redrive-dlq', list: 'queue-arns', autocomplete: 'off', placeholder: 'none',
    'aria-describedby': 'redrive-help'});
  const maxReceive = h('input', {id: 'redrive-max-receive', type: 'number', min: 1, max: 1000});
  const allow = h('select', {id: 'redrive-allow'},
    [['', 'Not set (any queue may use this one as its DLQ)'], ['allowAll', 'Allow all'], ['denyAll', 'Deny all'],
      ['byQueue', 'Only these source queues']].map(([v, label]) => h('option', {value: v}, label)));
  const allowSources = h('textarea', {id: 'redrive-allow-sources', rows: 3, spellcheck: 'false', placeholder: 'One queue ARN a line'});
  const policy = h('textarea', {id: 'attr-Policy', rows: 8, spellcheck: 'false', class: 'code'});
  const arns = h('datalist', {id: 'queue-arns'});
  const readOnly = h('dl', {class: 'facts', id: 'settings-facts'});
  const save = h('button', {type: 'submit', id: 'settings-save', class: 'primary'}, 'Save changes');
  const form = h('form', {id: 'settings-form', class: 'stack', onsubmit: submit, 'aria-busy': 'true'});

  form.append(h('h2', null, 'Settings'),
    h('fieldset', {class: 'grid'}, h('legend', null, 'Attributes'),
      NUMBERS.map(([name, label, min, max]) => {
        // No min/max on the input: SQS validates, and its error is the one shown.
        inputs[name] = h('input', {id: `attr-${name}`, type: 'number', inputmode: 'numeric'});
        return field(`attr-${name}`, `${label}, ${fmt.exactCount(min)}–${fmt.exactCount(max)}`, inputs[name]);
      }),
      q.fifo ? FIFO_CHOICES.map(([name, label, values]) => {
        inputs[name] = h('select', {id: `attr-${name}`}, values.map((v) => h('option', {value: v}, v)));
        return field(`attr-${name}`, label, inputs[name]);
      }) : null),
    h('fieldset', {class: 'grid'}, h('legend', null, 'Dead-letter queue (redrive policy)'),
      field('redrive-dlq', 'Dead-letter queue ARN', dlq), field('redrive-max-receive', 'Maximum receives', maxReceive),
      h('p', {id: 'redrive-help', class: 'sub'}, 'Leave the ARN empty for no dead-letter queue. A message received more than the maximum moves there.'),
      arns),
    h('fieldset', {class: 'grid'}, h('legend', null, 'Redrive allow policy (who may use this queue as their DLQ)'),
      field('redrive-allow', 'Permission', allow), field('redrive-allow-sources', 'Source queue ARNs', allowSources)),
    h('fieldset', null, h('legend', null, 'Access policy'),
      field('attr-Policy', 'Policy (JSON; empty for none)', policy)),
    h('div', {class: 'actions'}, save), error, result,
    h('h3', null, 'Read only'), readOnly);
  panel.append(form);

  function fill(a) {
    loaded = a;
    for (const [name] of [...NUMBERS, ...(q.fifo ? FIFO_CHOICES : [])]) inputs[name].value = a[name] ?? '';
    const redrive = parseRedrive(a.RedrivePolicy);
    dlq.value = redrive?.arn ?? '';
    maxReceive.value = redrive ? String(redrive.maxReceiveCount) : '';
    let allowPolicy = null;
    try { allowPolicy = a.RedriveAllowPolicy ? JSON.parse(a.RedriveAllowPolicy) : null; } catch { /* shown raw below */ }
    allow.value = allowPolicy?.redrivePermission ?? '';
    allowSources.value = (allowPolicy?.sourceQueueArns ?? []).join('\n');
    policy.value = a.Policy ? pretty(a.Policy) : '';
    replace(readOnly, [['QueueArn', a.QueueArn], ['Created', fmtTime(a.CreatedTimestamp)], ['Last modified', fmtTime(a.LastModifiedTimestamp)],
      ['SqsManagedSseEnabled', a.SqsManagedSseEnabled]]
      .filter(([, v]) => v != null).map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
    form.removeAttribute('aria-busy');
  }

  /** The attributes whose value the form changed, as SetQueueAttributes wants them (strings). */
  function changes() {
    const out = {};
    for (const [name] of [...NUMBERS, ...(q.fifo ? FIFO_CHOICES : [])]) {
      if (inputs[name].value !== (loaded[name] ?? '')) out[name] = inputs[name].value;
    }
    const before = parseRedrive(loaded.RedrivePolicy);
    const arn = dlq.value.trim();
    if (arn !== (before?.arn ?? '') || (arn && Number(maxReceive.value) !== before?.maxReceiveCount)) {
      out.RedrivePolicy = arn ? JSON.stringify({deadLetterTargetArn: arn, maxReceiveCount: Number(maxReceive.value) || 10}) : '';
    }
    const sources = allowSources.value.split(/\s+/).filter(Boolean);
    const allowText = allow.value
      ? JSON.stringify(allow.value === 'byQueue' ? {redrivePermission: 'byQueue', sourceQueueArns: sources} : {redrivePermission: allow.value})
      : '';
    if (allowText !== normalise(loaded.RedriveAllowPolicy)) out.RedriveAllowPolicy = allowText;
    if (normalise(policy.value) !== normalise(loaded.Policy)) out.Policy = policy.value.trim();
    return out;
  }

  async function load() {
    try {
      const {Attributes} = await q.sqs('GetQueueAttributes', {QueueUrl: q.url, AttributeNames: ['All']});
      q.attributes = Attributes ?? {};
      fill(q.attributes);
    } catch (e) {
      q.failed(e, error);
    }
    try {
      const list = await api.get('queues', {limit: 500});
      replace(arns, list.rows.filter((r) => r.arn !== q.arn).map((r) => h('option', {value: r.arn}, r.name)));
    } catch {
      // the list only helps typing; the field takes any ARN
    }
  }

  async function submit(e) {
    e.preventDefault();
    const attributes = changes();
    result.hidden = true;
    if (!Object.keys(attributes).length) {
      replace(result, 'Nothing changed.');
      result.hidden = false;
      return;
    }
    save.disabled = true;
    try {
      await q.sqs('SetQueueAttributes', {QueueUrl: q.url, Attributes: attributes});
      clearError(error);
      replace(result, `Saved: ${Object.keys(attributes).join(', ')}.`);
      result.hidden = false;
      q.ctx.notice('Settings saved.');
      await load();
    } catch (err) {
      q.failed(err, error);
    } finally {
      save.disabled = false;
    }
  }

  load();
  return {};
}

function pretty(json) {
  try { return JSON.stringify(JSON.parse(json), null, 2); } catch { return json; }
}

/** JSON text compared by value, so re-indenting a policy is not a change. */
function normalise(json) {
  if (!json || !json.trim()) return '';
  try { return JSON.stringify(JSON.parse(json)); } catch { return json.trim(); }
}

function fmtTime(seconds) {
  return seconds ? `${fmt.time(Number(seconds) * 1000)} (${fmt.iso(Number(seconds) * 1000)})` : null;
}
