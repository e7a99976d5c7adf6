"""Summary statistics of a simulation, from its JSON lines (so a file can be re-read)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mummy.sim.charts import percentile
from mummy.sim.kinds import sim_named
from mummy.sim.tomb import ACHIEVEMENTS

__all__ = ["ACHIEVEMENTS", "format_summary", "percentile", "summarise"]


def summarise(lines: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The run's figures per bot, in the game's own terms (see mummy.sim.tomb / treasure)."""
    rows = list(lines)
    if not rows:
        return {"games": 0}
    return sim_named(rows[0]["game"]).summarise(rows)


def format_summary(summary: dict[str, Any]) -> str:
    """A plain-text table for the terminal."""
    if not summary.get("games"):
        return "no games"
    return "\n".join([f"{summary['games']} games of {summary['game']}", *sim_named(summary["game"]).format(summary)])
