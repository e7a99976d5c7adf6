"""A self-contained HTML report of a simulation, with its charts inline as SVG.

The charts are matplotlib's (:mod:`mummy.sim.charts`), but the page asks nothing of the
network or of other files: one file a designer can open offline or mail around. Each
game's sections are in its own module (:mod:`mummy.sim.tomb`, :mod:`mummy.sim.treasure`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mummy.games import kind_named
from mummy.sim.charts import CSS, bar_chart, esc, histogram
from mummy.sim.kinds import sim_named
from mummy.sim.summary import summarise

__all__ = ["CSP", "bar_chart", "histogram", "write_report"]

#: The page's policy: the browser fetches nothing for it (the inline style and the inline
#: SVG need no fetch), so a chart that ever referred to a file or a host would show broken
#: rather than make a request.
CSP = ("<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; "
       "img-src data:\">")


def write_report(lines: list[dict[str, Any]], out_dir: str | Path, source: str = "") -> Path:
    """Write ``index.html`` (and ``summary.json``) into ``out_dir``; return the page's path."""
    if not lines:
        raise ValueError("no games to report")
    game = lines[0]["game"]
    title = kind_named(game).title
    bots = ", ".join(sorted({b for r in lines for b in r["bots"]}))
    body = [f"<h1>{title}: simulation report</h1>",
            f'<p class="note">{len(lines)} games from {esc(source or "a simulation")}; '
            f"seeds {esc(lines[0]['seed'])}..{esc(lines[-1]['seed'])}; bots {esc(bots)}.</p>"]
    body += sim_named(game).sections(lines)
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8>{CSP}<title>{title} report</title>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>")
    # The folder is made once the page is drawn: a missing matplotlib leaves nothing behind.
    directory = Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "index.html"
    path.write_text(page, encoding="utf-8")
    (directory / "summary.json").write_text(json.dumps(summarise(lines), indent=1), encoding="utf-8")
    return path
