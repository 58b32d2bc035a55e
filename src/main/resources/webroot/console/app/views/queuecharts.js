// The queue page's two charts (depth stacked: visible, in flight, delayed; arrived, received and
// deleted per second) over the fine ring (10 min at 5 s) or the coarse one (1 h), each with a text
// summary. The depth figure carries data-last-depth, the latest total, for readers and tests.

import * as api from '../api.js';
import {TimeChart} from '../charts.js';
import {h, replace} from '../dom.js';
import * as fmt from '../format.js';

const GAUGES = ['visible', 'inflight', 'delayed'];
const COUNTS = ['arrived', 'received', 'deleted'];

export class QueueCharts {
  constructor(q) {
    this.q = q;
    this.range = 'fine';
    this.history = null;
    this.depthSummary = h('p', {id: 'depth-summary', class: 'summary'}, 'Depth now: –');
    this.rateSummary = h('p', {id: 'rates-summary', class: 'summary'}, '');
    this.note = h('p', {class: 'sub', id: 'history-note'});
    this.depthBox = h('div', {class: 'chart'});
    this.rateBox = h('div', {class: 'chart'});
    this.depthFigure = h('figure', {id: 'chart-depth', 'aria-describedby': 'depth-summary'},
      h('figcaption', null, 'Messages in the queue'), this.depthBox, this.depthSummary);
    this.rateFigure = h('figure', {id: 'chart-rates', 'aria-describedby': 'rates-summary'},
      h('figcaption', null, 'Messages per second'), this.rateBox, this.rateSummary);
    const rangeButton = (id, range, label) => h('button', {type: 'button', id, 'aria-pressed': String(range === 'fine'),
      onclick: () => this.setRange(range)}, label);
    this.fineButton = rangeButton('range-fine', 'fine', '10 min');
    this.coarseButton = rangeButton('range-coarse', 'coarse', '1 h');
    this.element = h('section', {class: 'charts', 'aria-label': 'Charts'},
      h('div', {class: 'chart-bar'}, h('div', {role: 'group', 'aria-label': 'Time range', class: 'segmented'},
        this.fineButton, this.coarseButton), this.note),
      h('div', {class: 'chart-grid'}, this.depthFigure, this.rateFigure));
    this.depth = new TimeChart(this.depthBox, {stacked: true, format: (v) => fmt.count(v),
      series: [{label: 'Visible', color: '--chart-visible'}, {label: 'In flight', color: '--chart-inflight'},
        {label: 'Delayed', color: '--chart-delayed'}]});
    this.rates = new TimeChart(this.rateBox, {format: (v) => (v == null ? '–' : fmt.rate(v)),
      series: [{label: 'Arrived/s', color: '--chart-arrived'}, {label: 'Received/s', color: '--chart-received'},
        {label: 'Deleted/s', color: '--chart-deleted'}]});
  }

  /** The latest counts: the summary and data-last-depth follow the row, which every tick carries. */
  showRow(row) {
    const total = row.visible + row.inflight + row.delayed;
    this.depthFigure.dataset.lastDepth = String(total);
    replace(this.depthSummary, `Depth now: ${fmt.exactCount(total)} (${fmt.exactCount(row.visible)} visible, `
      + `${fmt.exactCount(row.inflight)} in flight, ${fmt.exactCount(row.delayed)} delayed)`);
    replace(this.rateSummary, `Last tick: ${fmt.rate(row.arrivedPerSecond)} arrived, `
      + `${fmt.rate(row.receivedPerSecond)} received, ${fmt.rate(row.deletedPerSecond)} deleted per second`);
  }

  showHistory(history) {
    this.history = history;
    if (!history.kept) {
      replace(this.note, 'History not kept for this queue (console.historySeries reached); counts are live.');
    } else {
      replace(this.note, h('span', null, 'Since ', h('time', {datetime: fmt.iso(history.since), title: fmt.iso(history.since)},
        fmt.clock(history.since))));
    }
    this.draw();
  }

  /** A tick's point goes on the end of the fine ring, which keeps its length. */
  addPoint(time, point) {
    const fine = this.history?.fine;
    if (!fine) return;
    const slots = this.q.ctx.status?.fineSlots ?? 120;
    const length = fine.visible.length;
    fine.start = length ? fine.start + fine.step * (length + 1 > slots ? 1 : 0) : time;
    for (const k of [...GAUGES, ...COUNTS]) {
      fine[k].push(point[k] ?? null);
      if (fine[k].length > slots) fine[k].shift();
    }
    if (this.range === 'fine') this.draw();
  }

  async setRange(range) {
    this.range = range;
    this.fineButton.setAttribute('aria-pressed', String(range === 'fine'));
    this.coarseButton.setAttribute('aria-pressed', String(range === 'coarse'));
    // The stream carries fine points only; the coarse ring is read when asked for.
    if (range === 'coarse') {
      try {
        const fresh = await api.get(`queues/${this.q.path}/history`);
        this.history = {...fresh, fine: this.history?.fine ?? fresh.fine};
      } catch {
        // keep what we have; the page's error line shows connection trouble
      }
    }
    this.draw();
  }

  draw() {
    const ring = this.history?.[this.range];
    if (!ring) return;
    const n = ring.visible?.length ?? 0;
    const times = Array.from({length: n}, (_, i) => ring.start + i * ring.step);
    this.depth.setData(times, GAUGES.map((k) => ring[k] ?? []));
    this.rates.setData(times, COUNTS.map((k) => (ring[k] ?? []).map((c) => (c == null ? null : (c * 1000) / ring.step))));
  }

  destroy() {
    this.depth.destroy();
    this.rates.destroy();
  }
}
