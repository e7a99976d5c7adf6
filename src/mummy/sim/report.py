"""A self-contained HTML report of a simulation, with inline SVG charts.

No plotting library and no network: the page is one file a designer can mail around.
Charts use a colour-blind-safe palette (Okabe–Ito) and every bar is labelled with its
number, so nothing depends on telling colours apart.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mummy.sim.summary import ACHIEVEMENTS, summarise
from mummy.tomb.content import map_ids, map_spec

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 980px; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .25rem .6rem; border-bottom: 1px solid #eee;
text-align: right; } th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: .92rem; } svg { display: block; margin: .5rem 0 1rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
"""


def _esc(text: object) -> str:
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
    out = [f'<svg width="{width}" height="{height}" role="img" aria-label="{_esc(title)}">',
           f'<text x="0" y="16" font-weight="bold">{_esc(title)}</text>']
    y = 30
    for i, label in enumerate(labels):
        out.append(f'<text x="0" y="{y + bar_h * len(names) / 2 + 4}" font-size="13">{_esc(label)}</text>')
        for j, name in enumerate(names):
            v = series[name][i]
            w = abs(v) * scale
            x = zero if v >= 0 else zero - w
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 0.5):.1f}" height="{bar_h - 2}" '
                       f'fill="{PALETTE[j % len(PALETTE)]}"><title>{_esc(name)}: {fmt.format(v)}</title></rect>')
            tx = x + w + 4 if v >= 0 else x - 4
            anchor = "start" if v >= 0 else "end"
            out.append(f'<text x="{tx:.1f}" y="{y + bar_h - 4}" font-size="11" text-anchor="{anchor}">'
                       f'{fmt.format(v)}</text>')
            y += bar_h
        y += gap
    out.append(_legend(names, y + 4))
    out.append("</svg>")
    return "".join(out)


def _legend(names: Sequence[str], y: float) -> str:
    parts = []
    for j, name in enumerate(names):
        yy = y + 18 * j
        parts.append(f'<rect x="0" y="{yy}" width="12" height="12" fill="{PALETTE[j % len(PALETTE)]}"/>'
                     f'<text x="18" y="{yy + 11}" font-size="12">{_esc(name)}</text>')
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
           f'aria-label="{_esc(title)}">', f'<text x="0" y="16" font-weight="bold">{_esc(title)}</text>',
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
    out.append(_legend(list(series), bottom + 24))
    out.append("</svg>")
    return "".join(out)


def _dash(value: object) -> object:
    return "-" if value is None else value


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    h = "".join(f"<th>{_esc(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{_esc(x)}</td>" for x in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _tomb_sections(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    by_map: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_map[(r["map"], r["mode"])].append(r)
    for (map_id, mode), group in by_map.items():
        summary = summarise(group)
        bots = summary["bots"]
        out.append(f"<h2>{_esc(map_id)}, {_esc(mode)} mode ({len(group)} games)</h2>")
        out.append(_table(["bot", "players", "mean", "median", "p10", "p90", "s per game"],
                          [[b, v["players"], v["mean"], v["median"], v["p10"], v["p90"], v["seconds_per_game"]]
                           for b, v in bots.items()]))
        scores: dict[str, list[float]] = defaultdict(list)
        kinds = ("oozes", "skeletons", "zombies", "golems", "mimics", "mummy_hits", "items")
        defeated: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        found: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for r in group:
            for seat, bot in enumerate(r["bots"]):
                scores[bot].append(r["scores"][seat])
                sheet = r["sheets"][seat]
                for k in kinds:
                    defeated[bot][k].append(sheet[k])
                for k, v in sheet["found"].items():
                    found[bot][k].append(v)
        charts = [histogram("Final score distribution", scores)]
        line_names = list(next(iter(bots.values()))["lines"])
        charts.append(bar_chart("Mean points per scoring line", line_names,
                                {b: [v["lines"][k] for k in line_names] for b, v in bots.items()}))
        charts.append(bar_chart("Defeats, items and Mummy hits (mean)", list(kinds),
                                {b: [sum(defeated[b][k]) / len(defeated[b][k]) for k in kinds] for b in bots}))
        # How often each finding of the map is collected: found / on the map.
        spec = map_spec(map_id) if map_id in map_ids() else None
        if spec is not None:
            available = {"oozes": len(spec.oozes), "mimics": len(spec.mimics),
                         "sarcophagi": sum(1 for r in spec.rooms if r.finding == "sarcophagus"),
                         "golems": len(spec.golems), "gems": sum(1 for r in spec.rooms if r.finding == "gem"),
                         "keys": spec.key_track}
            fkinds = list(available)
            charts.append(bar_chart("Share of the map's findings collected", fkinds,
                                    {b: [sum(found[b][k]) / len(found[b][k]) / available[k] for k in fkinds]
                                     for b in bots}, fmt="{:.0%}"))
            coins = {b: sum(found[b]["coins"]) / len(found[b]["coins"]) for b in bots}
            out.append('<p class="note">Coins gained per game (floor and rewards): '
                       + ", ".join(f"{_esc(b)} {v:.1f}" for b, v in coins.items()) + ".</p>")
        out.append('<div class="charts">' + "".join(charts) + "</div>")
        out.append("<h3>Achievements (share of sheets)</h3>")
        out.append(_table(["bot", *ACHIEVEMENTS],
                          [[b, *(f"{v['achievements'][a]:.1%}" for a in ACHIEVEMENTS)] for b, v in bots.items()]))
    return out


def _treasure_sections(rows: list[dict[str, Any]]) -> list[str]:
    summary = summarise(rows)
    out = [f"<h2>Results ({len(rows)} games)</h2>"]
    if summary["solo"]:
        out.append(_table(["bot", "games", "finished", "mean turns when finished", "mean squares when not"],
                          [[b, v["seats"], f"{v['finished_rate']:.0%}", _dash(v["mean_turns_finished"]),
                            _dash(v["mean_squares_unfinished"])] for b, v in summary["bots"].items()]))
    else:
        out.append(_table(["bot", "seats played", "win rate", "mean turns"],
                          [[b, v["seats"], f"{v['win_rate']:.1%}", v["mean_turns"]]
                           for b, v in summary["bots"].items()]))
    charts = []
    turns: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for seat, bot in enumerate(r["bots"]):
            turns[bot].append(r["turns"][seat])
    charts.append(histogram("Turns taken", turns))
    piles = list(rows[0]["takes"])
    charts.append(bar_chart("Tiles taken per game, by pile", piles,
                            {"all bots": [sum(r["takes"][p] for r in rows) / len(rows) for p in piles]}))
    if not summary["solo"]:
        seats = list(summary["seat_win_rate"])
        charts.append(bar_chart("Win rate by seat (first-seat advantage)", [f"seat {int(s) + 1}" for s in seats],
                                {"win rate": [summary["seat_win_rate"][s] for s in seats]}, fmt="{:.1%}"))
    # Odds realised: the chance of a fitting top tile at a turn's first roll, against how
    # often that tile was then taken.
    bins = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01)]
    labels, taken_rates, predicted = [], [], []
    for lo, hi in bins:
        inside = [c for r in rows for c in r["chances"] if lo <= c[1] < hi]
        if inside:
            labels.append(f"{lo:.0%}-{min(hi, 1):.0%} (n={len(inside)})")
            predicted.append(sum(c[1] for c in inside) / len(inside))
            taken_rates.append(sum(1 for c in inside if c[2]) / len(inside))
    if labels:
        charts.append(bar_chart("Odds realised: chance to roll a top tile vs. taken", labels,
                                {"exact chance (mean)": predicted, "taken that turn": taken_rates},
                                fmt="{:.0%}"))
    out.append('<div class="charts">' + "".join(charts) + "</div>")
    out.append('<p class="note">A tile can show and still not be taken: the player may prefer another '
               "tile, so the taken rate sits below the chance to roll it.</p>")
    return out


def write_report(lines: list[dict[str, Any]], out_dir: str | Path, source: str = "") -> Path:
    """Write ``index.html`` (and ``summary.json``) into ``out_dir``; return the page's path."""
    if not lines:
        raise ValueError("no games to report")
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    game = lines[0]["game"]
    title = "The Mummy's Tomb" if game == "tomb" else "Mummy's Treasure"
    bots = ", ".join(sorted({b for r in lines for b in r["bots"]}))
    body = [f"<h1>{title}: simulation report</h1>",
            f'<p class="note">{len(lines)} games from {_esc(source or "a simulation")}; '
            f"seeds {_esc(lines[0]['seed'])}..{_esc(lines[-1]['seed'])}; bots {_esc(bots)}.</p>"]
    body += _tomb_sections(lines) if game == "tomb" else _treasure_sections(lines)
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{title} report</title>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>")
    path = directory / "index.html"
    path.write_text(page, encoding="utf-8")
    (directory / "summary.json").write_text(json.dumps(summarise(lines), indent=1), encoding="utf-8")
    return path
