// The overview: every queue with its counts, rates and a 10-minute depth sparkline, filtered,
// sorted and paged by the server (GET queues / the overview stream, design §2.6), and the
// topics. Below 640 px the CSS turns each row into a card (each cell carries data-label). A tick
// updates the cells of the rows already shown in place, so the focused row keeps the focus and
// the tab stop; rows are added, removed or moved only when the set or the order changes.

import * as api from '../api.js';
import {sparkline} from '../charts.js';
import {h, replace} from '../dom.js';
import * as fmt from '../format.js';
import {rovingRows} from '../keys.js';
import {openStream} from '../stream.js';
import {afterTick, padded} from '../depth.js';
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
  let depth = new Map(); // row key → depth points, oldest first, fineSlots long, for the rows shown
  const shown = new Map(); // row key → {tr, link, cells, said}: the rows in the table body

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

  const slots = () => ctx.status?.fineSlots ?? 120;

  // A row's element with empty cells; fill() writes them. The name's link is made once, so a
  // focused link stays focused.
  function rowEntry(row, key) {
    const href = ctx.queueHash(row.account, row.region, row.name);
    const link = h('a', {class: 'queue-link', href}, row.name);
    const cells = [h('th', {scope: 'row', 'data-label': 'Name'}, link), h('td', {'data-label': 'Type'}),
      ...COLUMNS.slice(2).map(([, label]) => h('td', {class: 'n', 'data-label': label})),
      h('td', {class: 'spark-cell', 'data-label': 'Depth'})];
    const tr = h('tr', {dataset: {queue: key}, onopen: () => { location.hash = href; }}, cells);
    return {tr, link, cells, said: []};
  }

  // Writes each cell whose content changed since the last fill (said: what each cell shows).
  function fill(entry, row, key) {
    const sources = row.deadLetterSources ?? [];
    const points = depth.get(key) ?? [];
    const now = row.visible + row.inflight + row.delayed;
    const contents = [
      [`${state.accounts} ${sources.join(' ')}`, () => [
        state.accounts === 'all' ? h('span', {class: 'sub'}, `${row.account} · ${row.region}`) : null,
        sources.length ? h('span', {class: 'sub dlq-of'}, `DLQ of ${sources.map(arnName).join(', ')}`) : null]],
      [`${row.fifo} ${sources.length > 0}`, () => [row.fifo ? 'FIFO' : 'Standard', sources.length ? ' · DLQ' : '']],
      ...[row.visible, row.inflight, row.delayed].map((n) => [String(n), () => num(n)]),
      [String(row.oldestAgeMillis), () => (row.oldestAgeMillis ? fmt.age(row.oldestAgeMillis) : '–')],
      [String(row.arrivedPerSecond), () => fmt.rate(row.arrivedPerSecond)],
      [String(row.receivedPerSecond), () => fmt.rate(row.receivedPerSecond)],
      [`${now} ${points.join(',')}`, () => sparkline(points, `Depth over 10 minutes of ${row.name}, now ${fmt.exactCount(now)}`)],
    ];
    contents.forEach(([said, content], i) => {
      if (entry.said[i] === said) return;
      entry.said[i] = said;
      const cell = entry.cells[i];
      if (i > 0) {
        replace(cell, content());
        return;
      }
      while (cell.lastChild !== entry.link) cell.lastChild.remove();
      for (const node of content()) if (node) cell.append(node);
    });
  }

  // Puts `tr` before `at` (null: last). moveBefore, where the browser has it, keeps the focus of
  // a row that moves; insertBefore would drop it.
  function place(tr, at) {
    if (tr.isConnected && body.moveBefore) body.moveBefore(tr, at ?? null);
    else body.insertBefore(tr, at ?? null);
  }

  function draw() {
    if (rows.length) {
      const keys = new Set(rows.map(keyOf));
      for (const child of [...body.children]) if (!keys.has(child.dataset.queue)) child.remove();
      for (const key of shown.keys()) if (!keys.has(key)) shown.delete(key);
      rows.forEach((row, i) => {
        const key = keyOf(row);
        let entry = shown.get(key);
        if (!entry) {
          entry = rowEntry(row, key);
          shown.set(key, entry);
        }
        fill(entry, row, key);
        if (body.children[i] !== entry.tr) place(entry.tr, body.children[i]);
      });
    } else {
      shown.clear();
      replace(body, h('tr', null, h('td', {colspan: COLUMNS.length + 1, class: 'empty'},
        state.filter || state.type !== 'all' ? 'No queue matches.' : 'No queues yet.')));
    }
    rovingRows(body);
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
    depth = new Map(rows.map((r) => [keyOf(r), padded(r.depth, slots())]));
    draw();
  }

  // A tick has the rows without their depth, and one new point per row (design §2.6).
  function tick(t) {
    total = t.total;
    rows = t.rows;
    depth = afterTick(depth, rows.map(keyOf), t.depth, slots());
    draw();
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
