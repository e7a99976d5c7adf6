"""The charts and tables of a simulation report: matplotlib figures inlined as SVG.

Each chart is drawn by matplotlib (the ``analysis`` extra, imported on the first chart)
and put into the page as an inline ``<svg>``: text drawn as glyph outlines
(``svg.fonttype: path``), so no font is looked up or fetched; the XML prologue, the
metadata and the namespace declarations are dropped, and every id is prefixed per chart,
so the page references nothing outside itself and no two charts share an id.

Charts use a colour-blind-safe palette (Okabe–Ito) and every bar is labelled with its
number, so nothing depends on telling colours apart; histograms also differ by dash.
Each game's report sections (:mod:`mummy.sim.tomb`, :mod:`mummy.sim.treasure`) are built
from these.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mummy.sim.table import need

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
DASHES = ("solid", "dashed", "dotted", "dashdot", (0, (5, 1, 1, 1)), (0, (1, 3)))
#: matplotlib settings for every chart: fonts as outlines, fixed ids, the page's text size.
STYLE = {"svg.fonttype": "path", "svg.hashsalt": "mummy", "font.size": 9, "axes.titlesize": 10,
         "axes.titleweight": "bold", "axes.spines.top": False, "axes.spines.right": False}
WIDTH = 5.2  # inches: two charts side by side on a wide screen
#: What needs matplotlib, in the message that names the extra when it is missing.
NEEDS = "Drawing the report's charts"

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1120px; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .25rem .6rem; border-bottom: 1px solid #eee;
text-align: right; } th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: .92rem; }
svg { display: block; margin: .5rem 0 1rem; max-width: 100%; height: auto; stroke-linejoin: round;
stroke-linecap: butt; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
"""


def esc(text: object) -> str:
    """Text made safe inside HTML."""
    return html.escape(str(text))


def bar_chart(title: str, labels: Sequence[str], series: Mapping[str, Sequence[float]],
              fmt: str = "{:.1f}") -> str:
    """Horizontal grouped bars: one group per label, one bar per series, each bar
    labelled with its value (``fmt``); negative values go left of zero."""
    names = list(series)
    height = 0.8 / len(names)

    def paint(ax: Any) -> None:
        for j, name in enumerate(names):
            ys = [i + (j - (len(names) - 1) / 2) * height for i in range(len(labels))]
            bars = ax.barh(ys, list(series[name]), height=height * 0.92, color=PALETTE[j % len(PALETTE)],
                           label=name)
            ax.bar_label(bars, labels=[fmt.format(v) for v in series[name]], padding=2, fontsize=7.5)
        ax.set_yticks(range(len(labels)), [str(x) for x in labels])
        ax.invert_yaxis()  # the first label on top, as it reads
        ax.axvline(0, color="#888", linewidth=0.8)
        ax.margins(x=0.18)
        if "%" in fmt:
            ax.xaxis.set_major_formatter(need("matplotlib.ticker", NEEDS).PercentFormatter(1.0))
        if len(names) > 1:
            ax.figure.legend(loc="outside lower center", ncol=min(len(names), 3), frameon=False)

    return draw(title, 0.9 + len(labels) * (0.22 * len(names) + 0.12) + (0.3 if len(names) > 1 else 0), paint)


def histogram(title: str, series: Mapping[str, Sequence[float]], bins: int = 16) -> str:
    """Step histograms (one outline per series, each its colour and dash) on shared
    bins; the height is the share of the series' values in each bin."""
    values = [v for s in series.values() for v in s]
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    edges = [lo + (hi - lo) * k / bins for k in range(bins + 1)]

    def paint(ax: Any) -> None:
        for j, (name, s) in enumerate(series.items()):
            ax.hist(list(s), bins=edges, weights=[1 / max(len(s), 1)] * len(s), histtype="step", linewidth=1.8,
                    color=PALETTE[j % len(PALETTE)], linestyle=DASHES[j % len(DASHES)], label=name)
        ax.set_ylabel("share of games")
        ax.figure.legend(loc="outside lower center", ncol=min(len(series), 4), frameon=False)

    return draw(title, 2.6, paint)


def draw(title: str, height: float, paint: Callable[[Any], None]) -> str:
    """A chart ``paint`` draws on new axes, as an inline ``<svg>`` that references
    nothing outside itself. No pyplot: a bare Figure holds no global state."""
    matplotlib = need("matplotlib", NEEDS)
    mpl_figure = need("matplotlib.figure", NEEDS)
    with matplotlib.rc_context(STYLE):
        fig = mpl_figure.Figure(figsize=(WIDTH, height), layout="constrained")
        paint(fig.add_subplot())
        fig.suptitle(title, x=0.01, ha="left", fontweight="bold", fontsize=10)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight", pad_inches=0.06,
                    metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    return inline(buffer.getvalue(), title)


def inline(text: str, title: str) -> str:
    """matplotlib's SVG file as an element of the page: no XML prologue, metadata or
    namespace declarations (the only ``http`` in the file), no style sheet (in a page it
    would style the whole page; :data:`CSS` holds its two stroke defaults), ids prefixed
    per chart."""
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>|<style[^>]*>.*?</style>", "", text, flags=re.S)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    prefix = "c" + hashlib.sha1(text.encode()).hexdigest()[:8] + "-"
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', text)
    text = re.sub(r"(href=\"|url\()#", lambda m: f"{m.group(1)}#{prefix}", text)
    return text.replace("<svg", f'<svg role="img" aria-label="{esc(title)}"', 1)


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
