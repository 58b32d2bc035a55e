// The overview: every queue with its counts, rates and a 10-minute depth sparkline, filtered,
// sorted and paged by the server (GET queues / the overview stream, design §2.6), and the
// topics. Below 640 px the CSS turns each row into a card (each cell carries data-label).

import * as api from '../api.js';
import {sparkline} from '../charts.js';
import {h, replace} from '../dom.js';
import * as fmt from '../format.js';
import {rovingRows} from '../keys.js';
import {openStream} from '../stream.js';
import {arnName, clearError, errorBox, liveStateElement, num, showError, streamState} from './common.js';

const LIMIT = 100;
const COLUMNS = [
  ['name', 'Name'], ['type', 'Type'], ['visible', 'Visible'], ['inflight', 'In flight'],
  ['delayed', 'Delayed'], ['oldest', 'Oldest'], ['arrived', 'Sent/s'], ['received', 'Received/s'],
];

// Kept across visits, so coming back from a queue shows the same filter, sort and page.
const state = {filter: '', type: 'all', sort: 'name', order: 'asc', offset: 0, accounts: 'default'};

const keyOf = (row) => `${row.account}/${row.region}/${row.name}`;

export function mount(main, route, ctx) {
  let stream = null;
  let rows = [];
  let total = 0;
  let debounce = null;
  const depth = new Map(); // row key → depth points, oldest first

  const error = errorBox('overview-error');
  const liveState = liveStateElement();
  const filter = h('input', {id: 'filter', type: 'search', value: state.filter, placeholder: 'Filter by name',
    autocomplete: 'off', 'aria-keyshortcuts': '/', oninput: () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => { state.filter = filter.value.trim(); state.offset = 0; reload(); }, 250);
    }});
  const type = h('select', {id: 'type-filter', onchange: () => { state.type = type.value; state.offset = 0; reload(); }},
    [['all', 'All types'], ['standard', 'Standard'], ['fifo', 'FIFO'], ['dlq', 'Dead-letter queues']]
      .map(([v, label]) => h('option', {value: v, selected: state.type === v}, label)));
  const accounts = h('input', {id: 'all-accounts', type: 'checkbox', checked: state.accounts === 'all',
    onchange: () => { state.accounts = accounts.checked ? 'all' : 'default'; state.offset = 0; reload(); }});
  const head = h('tr');
  const body = h('tbody', {class: 'rows'});
  const totalEl = h('span', {id: 'queues-total'});
  const prev = h('button', {type: 'button', id: 'page-prev', onclick: () => page(-1)}, 'Previous');
  const next = h('button', {type: 'button', id: 'page-next', onclick: () => page(1)}, 'Next');
  const queuesPanel = h('section', {id: 'queues-panel', 'aria-labelledby': 'queues-tab'},
    h('div', {class: 'toolbar'},
      h('label', {for: 'filter', class: 'visually-hidden'}, 'Filter queues by name'), filter,
      h('label', {for: 'type-filter', class: 'visually-hidden'}, 'Queue type'), type,
      h('label', {class: 'check'}, accounts, ' All accounts'), liveState),
    error,
    h('table', {id: 'queues', class: 'data cards'}, h('caption', {class: 'visually-hidden'}, 'Queues'),
      h('thead', null, head), body),
    h('div', {class: 'pager'}, prev, totalEl, next));
  const topicsPanel = h('section', {id: 'topics-panel', 'aria-labelledby': 'topics-tab'});
  const queuesTab = h('a', {id: 'queues-tab', href: '#/'}, 'Queues');
  const topicsTab = h('a', {id: 'topics-tab', href: '#/topics'}, 'Topics');
  main.append(h('nav', {class: 'subnav', 'aria-label': 'Overview'}, queuesTab, topicsTab), queuesPanel, topicsPanel);

  function header() {
    replace(head, COLUMNS.map(([key, label]) => {
      const sorted = state.sort === key;
      return h('th', {scope: 'col', 'aria-sort': sorted ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none',
        class: key === 'name' || key === 'type' ? null : 'n'},
      h('button', {type: 'button', id: `sort-${key}`, class: 'sort', onclick: () => {
        state.order = sorted && state.order === 'asc' ? 'desc' : 'asc';
        state.sort = key;
        state.offset = 0;
        header();
        reload();
      }}, label, sorted ? (state.order === 'asc' ? ' ▲' : ' ▼') : ''));
    }), h('th', {scope: 'col'}, 'Depth, 10 min'));
  }

  function page(step) {
    state.offset = Math.max(0, state.offset + step * LIMIT);
    reload();
  }

  function rowElement(row) {
    const key = keyOf(row);
    const href = ctx.queueHash(row.account, row.region, row.name);
    const points = depth.get(key) ?? [];
    const now = row.visible + row.inflight + row.delayed;
    const sources = row.deadLetterSources ?? [];
    const tr = h('tr', {dataset: {queue: key}, onopen: () => { location.hash = href; }},
      h('th', {scope: 'row', 'data-label': 'Name'},
        h('a', {class: 'queue-link', href}, row.name),
        state.accounts === 'all' ? h('span', {class: 'sub'}, `${row.account} · ${row.region}`) : null,
        sources.length ? h('span', {class: 'sub dlq-of'}, `DLQ of ${sources.map(arnName).join(', ')}`) : null),
      h('td', {'data-label': 'Type'}, [row.fifo ? 'FIFO' : 'Standard', sources.length ? ' · DLQ' : '']),
      ...[row.visible, row.inflight, row.delayed].map((n, i) =>
        h('td', {class: 'n', 'data-label': COLUMNS[2 + i][1]}, num(n))),
      h('td', {class: 'n', 'data-label': 'Oldest'}, row.oldestAgeMillis ? fmt.age(row.oldestAgeMillis) : '–'),
      h('td', {class: 'n', 'data-label': 'Sent/s'}, fmt.rate(row.arrivedPerSecond)),
      h('td', {class: 'n', 'data-label': 'Received/s'}, fmt.rate(row.receivedPerSecond)),
      h('td', {class: 'spark-cell', 'data-label': 'Depth'},
        sparkline(points, `Depth over 10 minutes of ${row.name}, now ${fmt.exactCount(now)}`)));
    return tr;
  }

  function draw() {
    const focused = document.activeElement?.closest?.('tr[data-queue]')?.dataset.queue;
    replace(body, rows.length ? rows.map(rowElement)
      : h('tr', null, h('td', {colspan: COLUMNS.length + 1, class: 'empty'},
        state.filter || state.type !== 'all' ? 'No queue matches.' : 'No queues yet.')));
    rovingRows(body);
    if (focused) body.querySelector(`tr[data-queue="${CSS.escape(focused)}"]`)?.focus();
    const first = total ? state.offset + 1 : 0;
    replace(totalEl, `${fmt.exactCount(first)}–${fmt.exactCount(state.offset + rows.length)} of ${fmt.exactCount(total)}`);
    prev.disabled = state.offset === 0;
    next.disabled = state.offset + LIMIT >= total;
  }

  function params() {
    return {filter: state.filter, type: state.type, sort: state.sort, order: state.order,
      offset: state.offset, limit: LIMIT, accounts: state.accounts};
  }

  function take(answer) {
    rows = answer.rows;
    total = answer.total;
    depth.clear();
    rows.forEach((r) => depth.set(keyOf(r), r.depth ?? []));
    draw();
  }

  function tick(t) {
    const slots = ctx.status?.fineSlots ?? 120;
    total = t.total;
    rows = t.rows;
    for (const r of rows) {
      const key = keyOf(r);
      const points = depth.get(key) ?? [];
      points.push(t.depth?.[key] ?? null);
      if (points.length > slots) points.splice(0, points.length - slots);
      depth.set(key, points);
    }
    draw(); // puts the focus back on the row that had it
  }

  async function fetchOnce() {
    try {
      take(await api.get('queues', params()));
      clearError(error);
    } catch (e) {
      showError(error, e, ctx);
    }
  }

  function reload() {
    stream?.close();
    const qs = new URLSearchParams({view: 'overview', ...params()});
    stream = openStream(`api/stream?${qs}`, {
      headers: api.headers,
      errorOf: api.errorOf,
      onEvent: (name, data) => {
        clearError(error);
        if (name === 'snapshot') take(data);
        else if (name === 'tick') tick(data);
      },
      onState: (s, detail) => {
        streamState(liveState, s, detail, ctx);
        // Without live updates, show the counts once; the page says updates are paused.
        if (s === 'paused' || s === 'failed') fetchOnce();
        if (s === 'failed' && detail?.status === 403) showError(error, detail, ctx);
      },
    });
  }

  async function topics() {
    const table = h('table', {id: 'topics', class: 'data cards'}, h('caption', {class: 'visually-hidden'}, 'Topics'),
      h('thead', null, h('tr', null, ['Name', 'Published', 'Delivered', 'Filtered out', 'Failed', 'Published/s', 'Delivered/s']
        .map((label, i) => h('th', {scope: 'col', class: i ? 'n' : null}, label)))));
    const topicsError = errorBox('topics-error');
    replace(topicsPanel, h('div', {class: 'toolbar'},
      h('button', {type: 'button', id: 'topics-refresh', onclick: topics}, 'Refresh')), topicsError, table);
    try {
      const answer = await api.get('topics');
      table.append(h('tbody', {class: 'rows'}, answer.rows.length ? answer.rows.map((t) =>
        h('tr', {dataset: {topic: t.arn}},
          h('th', {scope: 'row', 'data-label': 'Name'}, t.name,
            state.accounts === 'all' ? h('span', {class: 'sub'}, `${t.account} · ${t.region}`) : null),
          ...[['Published', t.published], ['Delivered', t.delivered], ['Filtered out', t.filteredOut], ['Failed', t.failed]]
            .map(([label, n]) => h('td', {class: 'n', 'data-label': label}, num(n))),
          h('td', {class: 'n', 'data-label': 'Published/s'}, fmt.rate(t.publishedPerSecond)),
          h('td', {class: 'n', 'data-label': 'Delivered/s'}, fmt.rate(t.deliveredPerSecond))))
        : h('tr', null, h('td', {colspan: 7, class: 'empty'}, 'No topics.'))));
      rovingRows(table.tBodies[0]);
    } catch (e) {
      showError(topicsError, e, ctx);
    }
  }

  function show(r) {
    const onTopics = r.tab === 'topics';
    queuesPanel.hidden = onTopics;
    topicsPanel.hidden = !onTopics;
    queuesTab.setAttribute('aria-current', onTopics ? 'false' : 'page');
    topicsTab.setAttribute('aria-current', onTopics ? 'page' : 'false');
    if (onTopics) {
      stream?.close();
      stream = null;
      topics();
    } else if (!stream) {
      reload();
    }
  }

  header();
  show(route);
  return {
    update: show,
    destroy() {
      clearTimeout(debounce);
      stream?.close();
    },
  };
}
