#!/usr/bin/env python3
"""Plots a backlog-bench.sh run as an SVG: the server's RSS (MB) above, fill and drain msgs/s below,
both against the run's time, with its phases shaded. Standard library only (no matplotlib here).

usage: loadtest/scripts/plot-backlog.py OUTDIR [SVG]
SVG defaults to loadtest/results/<date>-<commit>-backlog.svg, date and commit read from
OUTDIR/summary.txt (today and this checkout's HEAD when it has none).
"""
import csv
import datetime
import math
import os
import re
import subprocess
import sys
from xml.sax.saxutils import escape

WIDTH, LEFT, RIGHT = 960, 80, 20
PANEL_HEIGHT, TOP, GAP, BOTTOM = 240, 60, 70, 50
PHASE_COLOURS = {"fill": "#dbe9f6", "drain": "#fde4cf", "restart": "#e3e3e3", "start": "#f0f0f0",
                 "stop": "#f0f0f0", "warmup": "#e8f3e0"}
SERIES = [  # (file prefix, label, colour, dash)
    ("main-fill", "fill", "#1f77b4", ""),
    ("main-drain", "drain", "#ff7f0e", ""),
    ("baseline-fill", "baseline fill", "#1f77b4", "5,4"),
    ("baseline-drain", "baseline drain", "#ff7f0e", "5,4"),
]


def read_csv(path, columns):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [tuple(float(row[c]) for c in columns) for row in csv.DictReader(f)]


def read_phases(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [(r["phase"], float(r["start_t"]), float(r["end_t"])) for r in csv.DictReader(f)]


def nice_ticks(low, high, count=6):
    """Ticks at 1, 2 or 5 times a power of ten covering [low, high]."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first, last = math.floor(low / step), math.ceil(high / step - 1e-9)
    return [round(i * step, 10) for i in range(first, last + 1)]


def label(v):
    return f"{v:,.0f}" if abs(v) >= 10 or v == int(v) else f"{v:g}"


class Panel:
    def __init__(self, top, x_ticks, y_max, title, y_label):
        self.top, self.x_ticks = top, x_ticks
        self.y_ticks = nice_ticks(0, y_max if y_max > 0 else 1)
        self.title, self.y_label = title, y_label
        self.plot_width = WIDTH - LEFT - RIGHT

    def x(self, t):
        lo, hi = self.x_ticks[0], self.x_ticks[-1]
        return LEFT + (t - lo) / (hi - lo) * self.plot_width

    def y(self, v):
        return self.top + PANEL_HEIGHT - v / self.y_ticks[-1] * PANEL_HEIGHT

    def frame(self, out, x_unit, x_scale):
        bottom = self.top + PANEL_HEIGHT
        out.append(f'<text x="{LEFT}" y="{self.top - 8}" font-weight="bold">{escape(self.title)}</text>')
        for v in self.y_ticks:
            y = self.y(v)
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label(v)}</text>')
        for t in self.x_ticks:
            x = self.x(t)
            out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 5}" stroke="#333"/>')
            out.append(f'<text x="{x:.1f}" y="{bottom + 18}" text-anchor="middle">{label(t / x_scale)}</text>')
        out.append(f'<rect x="{LEFT}" y="{self.top}" width="{self.plot_width}" height="{PANEL_HEIGHT}"'
                   ' fill="none" stroke="#333"/>')
        out.append(f'<text x="{LEFT + self.plot_width / 2}" y="{bottom + 36}" text-anchor="middle">'
                   f'time since the run started ({x_unit})</text>')
        out.append(f'<text transform="translate({LEFT - 58},{self.top + PANEL_HEIGHT / 2}) rotate(-90)"'
                   f' text-anchor="middle">{escape(self.y_label)}</text>')

    def phases(self, out, phases):
        for name, start, end in phases:
            kind = name.split("-", 1)[-1]
            x0, x1 = self.x(start), self.x(end)
            out.append(f'<rect x="{x0:.1f}" y="{self.top}" width="{max(x1 - x0, 0.5):.1f}" height="{PANEL_HEIGHT}"'
                       f' fill="{PHASE_COLOURS.get(kind, "#f5f5f5")}"><title>{escape(name)}</title></rect>')
            if x1 - x0 > 8 * len(name) and kind in ("fill", "drain", "restart", "warmup"):
                out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{self.top + 14}" text-anchor="middle"'
                           f' fill="#666" font-size="11">{escape(name)}</text>')

    def polyline(self, out, points, colour, dash):
        """One polyline per stretch without a gap of more than 3 s (no server between two runs)."""
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        stretch = []
        for i, point in enumerate(points):
            stretch.append(point)
            if i + 1 == len(points) or points[i + 1][0] - point[0] > 3:
                coords = " ".join(f"{self.x(t):.1f},{self.y(v):.1f}" for t, v in stretch)
                out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"{dashing}/>')
                stretch = []

    def legend(self, out, entries):
        """In a row above the panel's top right corner, clear of the data."""
        x = WIDTH - RIGHT - sum(40 + 7 * len(text) for text, _, _ in entries)
        y = self.top - 12
        for text, colour, dash in entries:
            dashing = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<line x1="{x}" y1="{y}" x2="{x + 26}" y2="{y}" stroke="{colour}" stroke-width="2"{dashing}/>')
            out.append(f'<text x="{x + 31}" y="{y + 4}">{escape(text)}</text>')
            x += 40 + 7 * len(text)


def default_svg(outdir):
    here = os.path.dirname(os.path.abspath(__file__))
    date, commit = datetime.date.today().isoformat(), None
    summary = os.path.join(outdir, "summary.txt")
    if os.path.exists(summary):
        with open(summary) as f:
            m = re.search(r"(\d{4}-\d\d-\d\d), commit (\w+)", f.readline())
            if m:
                date, commit = m.group(1), m.group(2)
    if commit is None:
        try:
            commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "unknown"
    return os.path.join(here, "..", "results", f"{date}-{commit}-backlog.svg")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    outdir = argv[1]
    svg_path = os.path.normpath(argv[2] if len(argv) > 2 else default_svg(outdir))
    rss = [(t, kb / 1024, pid) for t, kb, pid in read_csv(os.path.join(outdir, "rss.csv"), ("t_seconds", "rss_kb", "pid"))]
    phases = read_phases(os.path.join(outdir, "phases.csv"))
    series = [(read_csv(os.path.join(outdir, f"{prefix}.csv"), ("t_seconds", "msgs_per_s")), text, colour, dash)
              for prefix, text, colour, dash in SERIES]
    series = [s for s in series if s[0]]
    times = [t for t, _, _ in rss] + [t for points, *_ in series for t, _ in points] + [p[2] for p in phases]
    if not times:
        sys.exit(f"nothing to plot in {outdir}")
    x_scale, x_unit = (60, "min") if max(times) > 1200 else (1, "s")
    x_ticks = [t * x_scale for t in nice_ticks(0, max(times) / x_scale, 10)]
    title = ""
    summary = os.path.join(outdir, "summary.txt")
    if os.path.exists(summary):
        with open(summary) as f:
            title = f.readline().strip()

    top2 = TOP + PANEL_HEIGHT + GAP
    rss_panel = Panel(TOP, x_ticks, max((v for _, v, _ in rss), default=1) * 1.1, "Server RSS", "RSS (MB)")
    rate_panel = Panel(top2, x_ticks, max((v for points, *_ in series for _, v in points), default=1) * 1.1,
                       "Throughput", "messages per second")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{top2 + PANEL_HEIGHT + BOTTOM}"'
           f' font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="14">{escape(title or "Backlog benchmark: " + outdir)}</text>']
    for panel in (rss_panel, rate_panel):
        panel.phases(out, phases)
        panel.frame(out, x_unit, x_scale)
    for pid in dict.fromkeys(p for _, _, p in rss):  # one line per server process, in order
        rss_panel.polyline(out, [(t, v) for t, v, p in rss if p == pid], "#2ca02c", "")
    rss_panel.legend(out, [("server VmRSS (one line per process)", "#2ca02c", "")])
    for points, text, colour, dash in series:
        rate_panel.polyline(out, points, colour, dash)
    rate_panel.legend(out, [(text, colour, dash) for _, text, colour, dash in series])
    out.append("</svg>")
    os.makedirs(os.path.dirname(svg_path), exist_ok=True)
    with open(svg_path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {svg_path}")


if __name__ == "__main__":
    main(sys.argv)
