// A queue's page: counts, URL and ARN, the depth and rate charts fed by the queue stream, and the
// tabs (WAI-ARIA tabs pattern) whose panels live in their own modules. A deleted queue (the
// stream's "gone", or QueueDoesNotExist from any action) turns the page into a notice.

import * as api from '../api.js';
import {copyText, h, replace} from '../dom.js';
import * as fmt from '../format.js';
import {openStream} from '../stream.js';
import {QueueCharts} from './queuecharts.js';
import {arnName, errorBox, liveStateElement, num, showError, streamState} from './common.js';
import * as messages from './messages.js';
import * as send from './send.js';
import * as settings from './settings.js';
import * as tags from './tags.js';
import * as backoff from './backoff.js';
import * as deadletters from './deadletters.js';
import * as danger from './danger.js';

const TABS = [
  ['messages', 'Messages', messages], ['send', 'Send', send], ['settings', 'Settings', settings],
  ['tags', 'Tags', tags], ['backoff', 'Backoff', backoff], ['deadletters', 'Dead letters', deadletters], ['danger', 'Danger zone', danger],
];

export function mount(main, route, ctx) {
  const q = {account: route.account, region: route.region, name: route.name, url: null, arn: null,
    fifo: route.name.endsWith('.fifo'), row: null, attributes: {},
    path: api.queuePath(route.account, route.region, route.name),
    sqs: (action, body, opts) => api.sqs(route.region, action, body, opts),
    gone: () => gone(),
    // Every tab's failure handler: a queue deleted meanwhile (from any action) turns the page
    // into the "gone" notice; anything else is shown in the tab's own error box.
    failed: (e, el) => {
      if (e?.code === 'QueueDoesNotExist' || e?.code === 'NonExistentQueue') gone();
      else showError(el, e, ctx);
    },
    ctx};
  let stream = null;
  let panel = null; // {name, view}
  let tab = route.tab;

  const error = errorBox('queue-error');
  const liveState = liveStateElement();
  const counts = {};
  const countList = h('dl', {class: 'counts', id: 'queue-counts'},
    [['visible', 'Visible'], ['inflight', 'In flight'], ['delayed', 'Delayed'], ['oldest', 'Oldest']].map(([k, label]) => {
      counts[k] = h('dd', {id: `count-${k}`}, '–');
      return h('div', null, h('dt', null, label), counts[k]);
    }));
  const urlEl = h('code', {id: 'queue-url'}, '…');
  const arnEl = h('code', {id: 'queue-arn'}, '…');
  const dlqOf = h('p', {class: 'sub', id: 'dlq-of', hidden: true});
  const charts = new QueueCharts(q);
  const tabList = h('div', {role: 'tablist', 'aria-label': 'Queue', class: 'tabs', onkeydown: tabKeys});
  const panels = h('div', {class: 'panels'});
  const tabButtons = new Map();
  const panelEls = new Map();
  for (const [name, label] of TABS) {
    const button = h('button', {type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}`,
      'aria-selected': 'false', tabindex: -1, hidden: name === 'deadletters',
      onclick: () => { location.hash = ctx.queueHash(q.account, q.region, q.name, name); }}, label);
    tabButtons.set(name, button);
    tabList.append(button);
    const el = h('section', {role: 'tabpanel', id: `panel-${name}`, 'aria-labelledby': `tab-${name}`, hidden: true, tabindex: 0});
    panelEls.set(name, el);
    panels.append(el);
  }
  const page = h('div', {class: 'queue-page'},
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: '#/', id: 'back-to-overview'}, 'Queues'),
      ' / ', h('span', null, `${q.account} · ${q.region}`)),
    h('header', {class: 'queue-head'},
      h('h1', {id: 'queue-name'}, q.name),
      h('span', {class: 'badge', id: 'queue-type'}, q.fifo ? 'FIFO' : 'Standard'), liveState),
    dlqOf, error, countList,
    h('div', {class: 'ids'},
      h('div', null, h('span', {class: 'label'}, 'URL'), urlEl,
        h('button', {type: 'button', id: 'copy-url', class: 'small', 'aria-label': 'Copy queue URL',
          onclick: (e) => copyText(q.url ?? '', e.currentTarget)}, 'Copy')),
      h('div', null, h('span', {class: 'label'}, 'ARN'), arnEl,
        h('button', {type: 'button', id: 'copy-arn', class: 'small', 'aria-label': 'Copy queue ARN',
          onclick: (e) => copyText(q.arn ?? '', e.currentTarget)}, 'Copy'))),
    charts.element, tabList, panels);
  main.append(page);

  function tabKeys(e) {
    const visible = [...tabButtons.values()].filter((b) => !b.hidden);
    const at = visible.indexOf(document.activeElement);
    if (at < 0) return;
    const step = {ArrowRight: 1, ArrowLeft: -1}[e.key];
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? visible.length - 1 : step ? (at + step + visible.length) % visible.length : -1;
    if (to < 0) return;
    e.preventDefault();
    visible[to].focus();
    visible[to].click();
  }

  function selectTab(name) {
    if (!tabButtons.has(name) || (name === 'deadletters' && tabButtons.get(name).hidden && q.row)) name = 'messages';
    // The Dead letters panel needs the row's sources; showRow selects it again once they came.
    const waitForRow = name === 'deadletters' && !q.row;
    tab = name;
    for (const [n, b] of tabButtons) {
      b.setAttribute('aria-selected', String(n === name));
      b.tabIndex = n === name ? 0 : -1;
      panelEls.get(n).hidden = n !== name;
    }
    if (!q.url || waitForRow || panel?.name === name) return;
    panel?.view.destroy?.();
    const module = TABS.find(([n]) => n === name)[2];
    replace(panelEls.get(name));
    panel = {name, view: module.mount(panelEls.get(name), q)};
  }

  function showRow(row) {
    q.row = {...q.row, ...row};
    q.arn = row.arn ?? q.arn;
    q.url = q.url ?? row.url;
    replace(arnEl, q.arn ?? '…');
    for (const k of ['visible', 'inflight', 'delayed']) replace(counts[k], num(row[k]));
    replace(counts.oldest, row.oldestAgeMillis ? fmt.age(row.oldestAgeMillis) : '–');
    const sources = row.deadLetterSources ?? [];
    tabButtons.get('deadletters').hidden = sources.length === 0;
    dlqOf.hidden = sources.length === 0;
    replace(dlqOf, sources.length ? `Dead-letter queue of ${sources.map(arnName).join(', ')}` : '');
    charts.showRow(row);
    if (tab === 'deadletters' && !panel) selectTab(tab);
  }

  function gone() {
    stream?.close();
    panel?.view.destroy?.();
    panel = null;
    replace(page, h('div', {id: 'queue-gone', class: 'notice', role: 'alert'},
      h('h1', null, q.name),
      h('p', null, 'This queue does not exist any more (deleted).'),
      h('p', null, h('a', {href: '#/'}, 'Back to the queues'))));
  }

  // Without the stream (too many streams, or refused): the row from the overview and the history once.
  async function fallback() {
    try {
      const list = await api.get('queues', {filter: q.name, accounts: 'all', limit: 500});
      const row = list.rows.find((r) => r.account === q.account && r.region === q.region && r.name === q.name);
      if (row) showRow(row);
      charts.showHistory(await api.get(`queues/${q.path}/history`));
    } catch (e) {
      q.failed(e, error);
    }
  }

  function live() {
    const qs = new URLSearchParams({view: 'queue', q: `${q.account}/${q.region}/${q.name}`});
    stream = openStream(`api/stream?${qs}`, {
      headers: api.headers,
      errorOf: api.errorOf,
      onEvent: (name, data) => {
        if (name === 'snapshot') {
          showRow(data.row);
          charts.showHistory(data.history);
        } else if (name === 'tick') {
          showRow(data.row);
          charts.addPoint(data.time, data.point);
        } else if (name === 'gone') {
          gone();
        }
      },
      onState: (s, detail) => {
        streamState(liveState, s, detail, ctx);
        if (s === 'failed' && detail?.code === 'QueueDoesNotExist') gone();
        else if (s === 'paused' || s === 'failed') fallback();
      },
    });
  }

  async function start() {
    try {
      const {QueueUrl} = await q.sqs('GetQueueUrl', {QueueName: q.name, QueueOwnerAWSAccountId: q.account});
      q.url = QueueUrl;
      replace(urlEl, QueueUrl);
      const {Attributes} = await q.sqs('GetQueueAttributes', {QueueUrl, AttributeNames: ['All']});
      q.attributes = Attributes ?? {};
      q.arn = q.attributes.QueueArn;
      q.fifo = q.attributes.FifoQueue === 'true';
      replace(arnEl, q.arn ?? '…');
      replace(page.querySelector('#queue-type'), q.fifo ? 'FIFO' : 'Standard');
      live();
      selectTab(tab);
    } catch (e) {
      q.failed(e, error);
    }
  }

  selectTab(tab);
  start();
  return {
    update: (r) => selectTab(r.tab),
    destroy() {
      stream?.close();
      panel?.view.destroy?.();
      charts.destroy();
    },
  };
}
