"""A self-contained HTML report of a simulation, with inline SVG charts.

No plotting library and no network: the page is one file a designer can mail around.
The charts are in :mod:`mummy.sim.charts`; each game's sections in its own module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mummy.games import kind_named
from mummy.sim.charts import CSS, bar_chart, esc, histogram
from mummy.sim.kinds import sim_named
from mummy.sim.summary import summarise

__all__ = ["bar_chart", "histogram", "write_report"]


def write_report(lines: list[dict[str, Any]], out_dir: str | Path, source: str = "") -> Path:
    """Write ``index.html`` (and ``summary.json``) into ``out_dir``; return the page's path."""
    if not lines:
        raise ValueError("no games to report")
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    game = lines[0]["game"]
    title = kind_named(game).title
    bots = ", ".join(sorted({b for r in lines for b in r["bots"]}))
    body = [f"<h1>{title}: simulation report</h1>",
            f'<p class="note">{len(lines)} games from {esc(source or "a simulation")}; '
            f"seeds {esc(lines[0]['seed'])}..{esc(lines[-1]['seed'])}; bots {esc(bots)}.</p>"]
    body += sim_named(game).sections(lines)
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{title} report</title>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>")
    path = directory / "index.html"
    path.write_text(page, encoding="utf-8")
    (directory / "summary.json").write_text(json.dumps(summarise(lines), indent=1), encoding="utf-8")
    return path
