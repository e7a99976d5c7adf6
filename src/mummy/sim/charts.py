"""The charts and tables of a simulation report: inline SVG, no plotting library.

Charts use a colour-blind-safe palette (Okabe–Ito) and every bar is labelled with its
number, so nothing depends on telling colours apart. Each game's report sections
(:mod:`mummy.sim.tomb`, :mod:`mummy.sim.treasure`) are built from these.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 980px; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .25rem .6rem; border-bottom: 1px solid #eee;
text-align: right; } th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: .92rem; } svg { display: block; margin: .5rem 0 1rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
"""


def esc(text: object) -> str:
    """Text made safe inside HTML."""
    return html.escape(str(text))


def bar_chart(title: str, labels: Sequence[str], series: Mapping[str, Sequence[float]],
              fmt: str = "{:.1f}", width: int = 460) -> str:
    """Horizontal grouped bars: one group per label, one bar per series."""
    names = list(series)
    bar_h, gap, left = 16, 10, 130
    rows = len(labels)
    height = 40 + rows * (len(names) * bar_h + gap) + 18 * len(names)
    values = [v for s in series.values() for v in s]
    top = max([abs(v) for v in values] + [1e-9])
    has_neg = any(v < 0 for v in values)
    zero = left + ((width - left - 60) / 2 if has_neg else 0)
    scale = (width - left - 60) / (2 * top if has_neg else top)
    out = [f'<svg width="{width}" height="{height}" role="img" aria-label="{esc(title)}">',
           f'<text x="0" y="16" font-weight="bold">{esc(title)}</text>']
    y = 30
    for i, label in enumerate(labels):
        out.append(f'<text x="0" y="{y + bar_h * len(names) / 2 + 4}" font-size="13">{esc(label)}</text>')
        for j, name in enumerate(names):
            v = series[name][i]
            w = abs(v) * scale
            x = zero if v >= 0 else zero - w
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 0.5):.1f}" height="{bar_h - 2}" '
                       f'fill="{PALETTE[j % len(PALETTE)]}"><title>{esc(name)}: {fmt.format(v)}</title></rect>')
            tx = x + w + 4 if v >= 0 else x - 4
            anchor = "start" if v >= 0 else "end"
            out.append(f'<text x="{tx:.1f}" y="{y + bar_h - 4}" font-size="11" text-anchor="{anchor}">'
                       f'{fmt.format(v)}</text>')
            y += bar_h
        y += gap
    out.append(legend(names, y + 4))
    out.append("</svg>")
    return "".join(out)


def legend(names: Sequence[str], y: float) -> str:
    """The colour key of a chart's series, from height ``y`` down."""
    parts = []
    for j, name in enumerate(names):
        yy = y + 18 * j
        parts.append(f'<rect x="0" y="{yy}" width="12" height="12" fill="{PALETTE[j % len(PALETTE)]}"/>'
                     f'<text x="18" y="{yy + 11}" font-size="12">{esc(name)}</text>')
    return "".join(parts)


def histogram(title: str, series: Mapping[str, Sequence[float]], bins: int = 16, width: int = 460) -> str:
    """Step histograms (one outline per series) on shared bins, with an axis."""
    values = [v for s in series.values() for v in s]
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    step = (hi - lo) / bins
    counts: dict[str, list[float]] = {}
    for name, s in series.items():
        c = [0.0] * bins
        for v in s:
            c[min(int((v - lo) / step), bins - 1)] += 1
        counts[name] = [x / max(len(s), 1) for x in c]
    top = max(max(c) for c in counts.values()) or 1
    left, bottom, plot_w, plot_h = 40, 200, width - 60, 160
    out = [f'<svg width="{width}" height="{bottom + 30 + 18 * len(series)}" role="img" '
           f'aria-label="{esc(title)}">', f'<text x="0" y="16" font-weight="bold">{esc(title)}</text>',
           f'<line x1="{left}" y1="{bottom}" x2="{left + plot_w}" y2="{bottom}" stroke="#888"/>']
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        x = left + plot_w * k / 4
        out.append(f'<text x="{x:.0f}" y="{bottom + 14}" font-size="11" text-anchor="middle">{v:.0f}</text>')
    for j, c in enumerate(counts.values()):
        points = []
        for i, frac in enumerate(c):
            x0 = left + plot_w * i / bins
            x1 = left + plot_w * (i + 1) / bins
            y = bottom - plot_h * frac / top
            points += [f"{x0:.1f},{y:.1f}", f"{x1:.1f},{y:.1f}"]
        dash = "" if j == 0 else f' stroke-dasharray="{2 + 3 * j},{2 + j}"'
        out.append(f'<polyline fill="none" stroke="{PALETTE[j % len(PALETTE)]}" stroke-width="2"{dash} '
                   f'points="{" ".join(points)}"/>')
    out.append(legend(list(series), bottom + 24))
    out.append("</svg>")
    return "".join(out)


def dash(value: object) -> object:
    """A missing figure shown as a dash."""
    return "-" if value is None else value


def table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """An HTML table with a header row."""
    h = "".join(f"<th>{esc(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(x)}</td>" for x in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"



def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation, as numpy's default does."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
