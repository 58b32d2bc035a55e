// Every chart of the console, so a change of charting library touches this module only (design
// §2.8, R5). Row sparklines are small SVG paths (a hundred uPlot instances would cost more than
// they show); the queue page's charts are uPlot. Colours come from the theme's CSS variables and
// the charts are rebuilt when the theme changes, since a canvas keeps the colours it was drawn in.

import uPlot from '../vendor/uplot.js';
import {h} from './dom.js';
import {cssVar, onThemeChange} from './theme.js';

const SPARK_W = 120;
const SPARK_H = 28;

/** An SVG path through `values` (nulls leave gaps), scaled to the sparkline's box. */
function sparkPath(values) {
  const max = Math.max(1, ...values.filter((v) => v != null));
  const step = values.length > 1 ? SPARK_W / (values.length - 1) : 0;
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v == null) { pen = false; return; }
    const x = (i * step).toFixed(1);
    const y = (SPARK_H - 1 - (v / max) * (SPARK_H - 2)).toFixed(1);
    d += `${pen ? 'L' : 'M'}${x} ${y}`;
    pen = true;
  });
  return d;
}

/** A depth sparkline; `label` is its text alternative ("depth over 10 minutes, now 5"). */
export function sparkline(values, label) {
  const path = h('svg:path', {d: sparkPath(values), class: 'spark-line'});
  return h('svg:svg', {class: 'spark', viewBox: `0 0 ${SPARK_W} ${SPARK_H}`, preserveAspectRatio: 'none',
    role: 'img', 'aria-label': label}, path);
}

/** Cumulative columns for a stacked chart: [a, a+b, a+b+c]; null where any part is null. */
function stack(columns) {
  const sums = [];
  let below = null;
  for (const col of columns) {
    const sum = col.map((v, i) => (v == null || (below && below[i] == null) ? null : v + (below ? below[i] : 0)));
    sums.push(sum);
    below = sum;
  }
  return sums;
}

/**
 * A time chart in `container`. series: [{label, color: '--css-var'}] bottom first; stacked draws
 * them as areas on top of each other (depth: visible, in flight, delayed). setData(epochMillis[],
 * columns[][]) redraws; the legend shows each series' own value, not the stacked sum.
 */
export class TimeChart {
  constructor(container, {series, stacked = false, height = 180, format = String}) {
    this.container = container;
    this.series = series;
    this.stacked = stacked;
    this.height = height;
    this.format = format;
    this.times = [];
    this.raw = series.map(() => []);
    this.build();
    this.resize = new ResizeObserver(() => this.plot?.setSize(this.size()));
    this.resize.observe(container);
    this.offTheme = onThemeChange(() => this.build());
  }

  size() {
    return {width: Math.max(200, this.container.clientWidth), height: this.height};
  }

  build() {
    this.plot?.destroy();
    const text = cssVar('--muted');
    const grid = cssVar('--grid');
    const axis = {stroke: text, grid: {stroke: grid, width: 1}, ticks: {stroke: grid, width: 1}};
    // Stacked areas are drawn top of the stack first, so each lower area paints over the one above.
    const order = this.stacked ? [...this.series.keys()].reverse() : [...this.series.keys()];
    this.order = order;
    const opts = {
      ...this.size(),
      cursor: {drag: {x: false, y: false}},
      legend: {show: true},
      scales: {x: {time: true}, y: {range: (u, min, max) => [0, Math.max(1, max)]}},
      axes: [{...axis}, {...axis, values: (u, ticks) => ticks.map((t) => this.format(t))}],
      series: [{value: (u, t) => (t == null ? '–' : new Date(t * 1000).toLocaleTimeString())},
        ...order.map((i) => {
          const s = this.series[i];
          const colour = cssVar(s.color);
          return {
            label: s.label,
            stroke: colour,
            width: 2,
            fill: this.stacked ? cssVar(`${s.color}-fill`) : undefined,
            points: {show: false},
            value: (u, v, si, idx) => (idx == null ? '–' : this.format(this.raw[i][idx])),
          };
        })],
    };
    this.plot = new uPlot(opts, this.plotData(), this.container);
  }

  plotData() {
    const cols = this.stacked ? stack(this.raw) : this.raw;
    return [this.times, ...this.order.map((i) => cols[i])];
  }

  setData(epochMillis, columns) {
    this.times = epochMillis.map((t) => t / 1000);
    this.raw = columns;
    this.plot.setData(this.plotData());
  }

  destroy() {
    this.resize.disconnect();
    this.offTheme();
    this.plot?.destroy();
  }
}
