#!/usr/bin/env python3
"""Plots the latency runs of a results directory as an SVG: every run's percentile spectrum (x: 50% to
99.99% on the 1/(1-p) scale, y: ms, log), then per run the p99 and max of each second with the
server's pauses as ticks on the time axis. Standard library only (no matplotlib here).

usage: loadtest/scripts/plot-latency.py OUTDIR [SVG [PART...]]   (SVG defaults to OUTDIR/latency.svg)

With PARTs, only the runs whose directory name contains one of them are drawn (e.g. `r1-` for
one round of tails-bench.sh, or `send-batch`).

OUTDIR holds one sub-directory per run; its name is the run's label unless it has a `label` file
(first line). In a run's directory, all optional but at least one of the first two:
  latency.hgrm     HdrHistogram's outputPercentileDistribution, values in ms (text or CSV form)
  per-second.csv   second,count,p50_ms,p99_ms,max_ms; `second` counts whole seconds from the start
                   of the measured run, a row covering [second, second + 1)
  gc-pauses.csv    what GcPauses writes (uptime_s,time,kind,name,duration_ms): drawn as ticks, the
                   safepoints (stop-the-world, time to safepoint included) and ZGC's stalls of
                   single threads; the gc-pause rows only when the log had no safepoint lines
  start-uptime     the server's uptime (s, as in gc-pauses.csv) when the first per-second row began
  start-time       or the wall-clock time then: epoch ms, or ISO-8601 as the GC log's time column
Without either start file the ticks are placed relative to the first pause, and the panel says so.
"""
import csv
import datetime
import math
import os
import sys
from xml.sax.saxutils import escape

WIDTH, LEFT, RIGHT, TOP, GAP, BOTTOM = 960, 80, 30, 60, 70, 50
SPECTRUM_HEIGHT, TIME_HEIGHT, TICK_STRIP, TIME_GAP, MAX_TIME_PANELS = 340, 150, 22, 56, 6
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
TICK_COLOURS = {"safepoint": "#444", "gc-pause": "#444", "degenerated": "#d62728",
                "allocation-stall": "#9467bd", "relocation-stall": "#e377c2"}
TICK_LABELS = {"safepoint": "safepoint (all threads stopped)", "gc-pause": "GC pause", "degenerated": "degenerated GC",
               "allocation-stall": "allocation stall (one thread)", "relocation-stall": "relocation stall (one thread)"}
SPECTRUM_MAX = 10_000  # 1/(1-p) at 99.99%
SPECTRUM_TICKS = [(2, "50%"), (10, "90%"), (100, "99%"), (1000, "99.9%"), (10_000, "99.99%")]


def read_hgrm(path):
    """(percentile, ms) rows and the max, or None when there is no file."""
    if not os.path.exists(path):
        return None
    rows, top = [], None
    with open(path) as f:
        for line in map(str.strip, f):
            if line.startswith("#[Max"):
                top = float(line.split("=")[1].split(",")[0])
            fields = line.split(",") if "," in line else line.split()
            try:
                rows.append((float(fields[1]), float(fields[0])))
            except (IndexError, ValueError):
                continue  # header, blank, footer
    return {"rows": rows, "max": top if top is not None or not rows else rows[-1][1]}


def value_at(rows, p):
    """HdrHistogram's step function: the value of the first row at or above percentile p."""
    return next((v for q, v in rows if q >= p), rows[-1][1])


def read_per_second(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return [(float(r["second"]), float(r["p99_ms"]), float(r["max_ms"])) for r in csv.DictReader(f)]


def parse_time(text):
    """Seconds since the epoch, from epoch ms or ISO-8601 (the GC log's 2026-11-27T20:56:43.344+0000)."""
    text = text.strip()
    return float(text) / 1000 if text.replace(".", "", 1).isdigit() else datetime.datetime.fromisoformat(text).timestamp()


def first_line(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.readline().strip() or None


def read_pauses(run_dir, first_second):
    """[(x seconds on the run's axis, kind, name, ms)] and how they were aligned."""
    path = os.path.join(run_dir, "gc-pauses.csv")
    if not os.path.exists(path):
        return [], None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    # A GC pause is inside its safepoint: draw the safepoint only, unless the log had no safepoint lines.
    inside = ("gc-pause", "degenerated") if any(r["kind"] == "safepoint" for r in rows) else ()
    rows = [r for r in rows if r["kind"] not in inside]
    if not rows:
        return [], None
    start_uptime, start_time = first_line(os.path.join(run_dir, "start-uptime")), first_line(os.path.join(run_dir, "start-time"))
    if start_uptime is not None:
        at, origin, how = (lambda r: float(r["uptime_s"])), float(start_uptime), "aligned by start-uptime"
    elif start_time is not None:
        at, origin, how = (lambda r: parse_time(r["time"])), parse_time(start_time), "aligned by start-time"
    else:
        at, how = (lambda r: float(r["uptime_s"])), "NOT aligned (no start-uptime): the first one put at 0 s"
        origin = at(rows[0])
    return [(first_second + at(r) - origin, r["kind"], r["name"], float(r["duration_ms"])) for r in rows], how


def log_ticks(low, high):
    """From the largest of 1, 2, 5 × 10^n (only 10^n past three decades) at or below low to the smallest at or above high."""
    lo, hi = math.floor(math.log10(low)), math.ceil(math.log10(high))
    if hi == lo:
        hi += 1
    steps = (1, 2, 5) if hi - lo <= 3 else (1,)
    ticks = [m * 10 ** e for e in range(lo, hi + 1) for m in steps if m * 10 ** e <= 10 ** hi * 1.0001]
    first = max(t for t in ticks if t <= low * 1.0001)
    last = min(t for t in ticks if t >= high / 1.0001)
    return [t for t in ticks if first <= t <= last]


def nice_ticks(low, high, count=8):
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [round(i * step, 10) for i in range(math.floor(low / step), math.ceil(high / step - 1e-9) + 1)]


def label(v):
    return f"{v:,.0f}" if abs(v) >= 10 or v == int(v) else f"{v:g}"


class Panel:
    """A frame with a linear or log x and a log y, and SVG helpers in plot-backlog.py's manner."""

    def __init__(self, top, height, x_lo, x_hi, x_log, y_lo, y_hi, strip=0):
        self.top, self.height, self.x_lo, self.x_hi, self.x_log = top, height, x_lo, x_hi, x_log
        self.strip = strip  # a band under the frame for the pause ticks, clear of the data
        self.y_ticks = log_ticks(y_lo, y_hi)
        self.plot_width = WIDTH - LEFT - RIGHT

    def x(self, t):
        f = (lambda v: math.log10(v)) if self.x_log else (lambda v: v)
        return LEFT + (f(t) - f(self.x_lo)) / (f(self.x_hi) - f(self.x_lo)) * self.plot_width

    def y(self, v):
        lo, hi = math.log10(self.y_ticks[0]), math.log10(self.y_ticks[-1])
        return self.top + self.height - (math.log10(v) - lo) / (hi - lo) * self.height

    def frame(self, out, title, x_ticks, x_title, y_title):
        bottom = self.top + self.height
        if self.strip:
            out.append(f'<rect x="{LEFT}" y="{bottom}" width="{self.plot_width}" height="{self.strip}" fill="#f4f4f4"/>')
            bottom += self.strip
        out.append(f'<text x="{LEFT}" y="{self.top - 8}" font-weight="bold">{escape(title)}</text>')
        for v in self.y_ticks:
            y = self.y(v)
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label(v)}</text>')
        for t, text in x_ticks:
            x = self.x(t)
            out.append(f'<line x1="{x:.1f}" y1="{self.top}" x2="{x:.1f}" y2="{self.top + self.height}" stroke="#eee"/>')
            out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 5}" stroke="#333"/>')
            out.append(f'<text x="{x:.1f}" y="{bottom + 18}" text-anchor="middle">{escape(text)}</text>')
        out.append(f'<rect x="{LEFT}" y="{self.top}" width="{self.plot_width}" height="{self.height}"'
                   ' fill="none" stroke="#333"/>')
        if x_title:
            out.append(f'<text x="{LEFT + self.plot_width / 2}" y="{bottom + 36}" text-anchor="middle">{escape(x_title)}</text>')
        out.append(f'<text transform="translate({LEFT - 58},{self.top + self.height / 2}) rotate(-90)"'
                   f' text-anchor="middle">{escape(y_title)}</text>')

    def polyline(self, out, points, colour, dash="", width=1.5):
        """One polyline per stretch of positive values (a log axis has no zero)."""
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        stretch = []
        for point in points + [(None, 0)]:
            if point[0] is not None and point[1] > 0:
                stretch.append(point)
                continue
            if stretch:
                coords = " ".join(f"{self.x(t):.1f},{self.y(v):.1f}" for t, v in stretch)
                out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="{width}"{dashing}/>')
            stretch = []

    def pause_ticks(self, out, pauses):
        """In the strip under the frame, one tick per pause, longer for a longer one (0.01 ms to 1 s)."""
        bottom, drawn = self.top + self.height + self.strip, set()
        for t, kind, name, ms in pauses:
            drawn.add(kind)
            length = 2 + (self.strip - 3) / 5 * min(5, max(0, math.log10(max(ms, 0.01)) + 2))
            x = self.x(t)
            out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom - length:.1f}"'
                       f' stroke="{TICK_COLOURS.get(kind, "#444")}" stroke-width="1">'
                       f'<title>{escape(f"{kind} {name} {ms:g} ms at {t:.3f} s")}</title></line>')
        return drawn


def spectrum_points(rows):
    points = [(1 / (1 - q), v) for q, v in rows if 0.5 <= q < 1 and 1 / (1 - q) <= SPECTRUM_MAX]
    points.append((SPECTRUM_MAX, value_at(rows, 1 - 1 / SPECTRUM_MAX)))  # the step at 99.99%
    return points


def find_runs(outdir, parts):
    runs = []
    for name in sorted(os.listdir(outdir)):
        path = os.path.join(outdir, name)
        if not os.path.isdir(path) or (parts and not any(p in name for p in parts)):
            continue
        hgrm, seconds = read_hgrm(os.path.join(path, "latency.hgrm")), read_per_second(os.path.join(path, "per-second.csv"))
        if hgrm is None and seconds is None:
            continue
        runs.append({"dir": path, "label": first_line(os.path.join(path, "label")) or name, "hgrm": hgrm,
                     "seconds": seconds or [], "colour": COLOURS[len(runs) % len(COLOURS)]})
    return runs


def draw_spectra(out, top, runs):
    """Every run's spectrum in one panel, its legend under it (clear of the curves, however many)."""
    values = [v for r in runs for _, v in spectrum_points(r["hgrm"]["rows"]) if v > 0] or [1]
    panel = Panel(top, SPECTRUM_HEIGHT, 2, SPECTRUM_MAX, True, min(values), max(values))
    panel.frame(out, "Response time by percentile", SPECTRUM_TICKS, "percentile", "latency (ms, log)")
    for i, r in enumerate(runs):
        rows, y = r["hgrm"]["rows"], top + SPECTRUM_HEIGHT + 44 + 16 * i
        panel.polyline(out, spectrum_points(rows), r["colour"], width=2)
        text = f'{r["label"]}: p50 {value_at(rows, 0.5):g}, p99 {value_at(rows, 0.99):g}, max {r["hgrm"]["max"]:g} ms'
        out.append(f'<line x1="{LEFT + 10}" y1="{y}" x2="{LEFT + 36}" y2="{y}" stroke="{r["colour"]}" stroke-width="2"/>')
        out.append(f'<text x="{LEFT + 41}" y="{y + 4}">{escape(text)}</text>')
    return top + SPECTRUM_HEIGHT + 44 + 16 * len(runs) + GAP


def draw_timelines(out, top, timed):
    """A small panel per run (the first few), on one time axis and one latency scale; then a legend row."""
    shown = timed[:MAX_TIME_PANELS]
    x_lo = min(s for r in shown for s, _, _ in r["seconds"])
    x_hi = max(s for r in shown for s, _, _ in r["seconds"]) + 1
    ticks = [(t, label(t)) for t in nice_ticks(x_lo, x_hi, 10) if x_lo <= t <= x_hi]
    values = [v for r in shown for _, p99, mx in r["seconds"] for v in (p99, mx) if v > 0] or [1]
    kinds = set()
    for i, r in enumerate(shown):
        panel = Panel(top, TIME_HEIGHT, x_lo, x_hi, False, min(values), max(values), TICK_STRIP)
        pauses, how = read_pauses(r["dir"], r["seconds"][0][0])
        pauses = [p for p in pauses if x_lo <= p[0] <= x_hi]  # not those of warm-up or prefill
        note = f"; {len(pauses)} server pauses, {how}" if how else "; no gc-pauses.csv"
        more = f" (first {MAX_TIME_PANELS} of {len(timed)} runs)" if i == 0 and len(timed) > len(shown) else ""
        last = i == len(shown) - 1
        panel.frame(out, f'{r["label"]}: p99 and max per second{more}{note}', ticks,
                    "seconds since the run started" if last else "", "ms (log)")
        panel.polyline(out, [(s + 0.5, p99) for s, p99, _ in r["seconds"]], r["colour"])
        panel.polyline(out, [(s + 0.5, mx) for s, _, mx in r["seconds"]], r["colour"], "4,3", 1)
        kinds |= panel.pause_ticks(out, pauses)
        top += TIME_HEIGHT + TICK_STRIP + (TIME_GAP if not last else 0)
    x, y = LEFT, top + 56  # under the last panel's axis title
    swatches = [("p99", '<line x1="0" y1="0" x2="26" y2="0" stroke="#333" stroke-width="1.5"/>'),
                ("max", '<line x1="0" y1="0" x2="26" y2="0" stroke="#333" stroke-dasharray="4,3"/>')]
    swatches += [(TICK_LABELS[k], f'<line x1="13" y1="6" x2="13" y2="-6" stroke="{c}"/>') for k, c in TICK_COLOURS.items() if k in kinds]
    for text, swatch in swatches:
        out.append(f'<g transform="translate({x},{y})">{swatch}<text x="31" y="4">{escape(text)}</text></g>')
        x += 50 + 7 * len(text)
    return top + 30


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    outdir = argv[1]
    svg_path = argv[2] if len(argv) > 2 else os.path.join(outdir, "latency.svg")
    runs = find_runs(outdir, argv[3:])
    if not runs:
        sys.exit(f"no run directories with latency.hgrm or per-second.csv in {outdir}")
    out, top = [], TOP
    spectra = [r for r in runs if r["hgrm"] and r["hgrm"]["rows"]]
    if spectra:
        top = draw_spectra(out, top, spectra)
    timed = [r for r in runs if r["seconds"]]
    top = draw_timelines(out, top, timed) if timed else top - GAP
    title = first_line(os.path.join(outdir, "summary.txt")) or f"Latency: {outdir}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{top + BOTTOM}" font-family="sans-serif"'
           ' font-size="12">', '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="14">{escape(title)}</text>'] + out + ["</svg>"]
    os.makedirs(os.path.dirname(os.path.abspath(svg_path)), exist_ok=True)
    with open(svg_path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {svg_path}")


if __name__ == "__main__":
    main(sys.argv)
