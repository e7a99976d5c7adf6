"""What a review says the same way for both games: its decisions, mistakes and chart.

A review is a list of *decisions*, each a JSON-ready dict with at least ``lost`` (what the
choice cost against the best alternative, in the game's unit: points of the strongest
Tomb bot's evaluation, or expected turns in Treasure), ``group`` (the round or turn it
belongs to, for the chart) and the ``chosen`` and ``best`` moves. From them
:func:`summary` picks the three biggest mistakes and sums the loss per group, so the
command line and the browser read the same fields whatever the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from mummy.core.records import RecordError, ReplayResult

#: ``progress(done, total)``: called after each decision is valued (a bar, a websocket).
Progress = Callable[[int, int], None]

#: How many of the biggest mistakes a review names.
TOP_MISTAKES: Final = 3


class ReviewError(ValueError):
    """A record that cannot be reviewed (not a finished game of that kind, no such
    player, a variant the analysis does not cover); the message says why."""


def replayed(result: ReplayResult[Any]) -> Any:
    """The game of a replayed record, or a ReviewError naming the action at fault."""
    if not result.ok:
        raise ReviewError(f"the record does not replay: {result.error}")
    return result.game


def check_player(player: int, seats: int) -> None:
    if not 0 <= player < seats:
        raise ReviewError(f"there is no player {player}: the record has players 0 to {seats - 1}")


def replay_or_raise(replay: Callable[[Any], ReplayResult[Any]], record: Any) -> Any:
    """Replay with the game's own reader; a malformed record is a ReviewError too."""
    try:
        return replayed(replay(record))
    except RecordError as exc:
        raise ReviewError(f"not a valid record: {exc}") from None


def summary(decisions: Sequence[dict[str, Any]], groups: Sequence[str], threshold: float) -> dict[str, Any]:
    """The three biggest mistakes (a loss of at least ``threshold``: below it the
    evaluation cannot tell two choices apart), the loss per group in ``groups`` order (the
    chart), and the total."""
    ranked = sorted((d for d in decisions if d["lost"] >= threshold), key=lambda d: (-d["lost"], d["index"]))
    by_group = dict.fromkeys(groups, 0.0)
    for d in decisions:
        by_group[d["group"]] = by_group.get(d["group"], 0.0) + d["lost"]
    return {
        "mistakes": [d["index"] for d in ranked[:TOP_MISTAKES]],
        "mistake_count": len(ranked),
        "lost_by_group": [{"group": g, "lost": round(v, 2)} for g, v in by_group.items()],
        "total_lost": round(sum(d["lost"] for d in decisions), 2),
        "threshold": threshold,
    }


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int | None:
    """The first index at which two plans differ (None when they are the same)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


__all__ = ["TOP_MISTAKES", "Progress", "ReviewError", "check_player", "first_difference", "replay_or_raise",
           "replayed", "summary"]
