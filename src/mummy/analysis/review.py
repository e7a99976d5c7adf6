"""Par and review for a record of either game, found by the record's format.

Like the other layers' tables (``sim/kinds.py``, ``render/narrate.py``), each game's
analysis sits in :data:`ANALYSES` under its kind's name, checked against the registry on
import, so callers (the command line, the server) never ask which game a record is::

    from mummy.analysis.review import par, review
    report = review(record, player=0, progress=lambda done, total: ...)
    score = par(record, player=0)

Both are pure functions of the record: no I/O, no clock, JSON-ready dicts.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.analysis.common import Progress, ReviewError
from mummy.analysis.tomb import DEFAULT as TOMB_DEFAULT
from mummy.analysis.tomb import TombAnalyst, tomb_par, tomb_review
from mummy.analysis.treasure import DEFAULT as TREASURE_DEFAULT
from mummy.analysis.treasure import TreasureAnalyst, treasure_par, treasure_review
from mummy.games import KINDS, kind_of_record


class GameAnalysis(Protocol):
    name: str

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        """``par``, ``score``, ``result`` (positive: better than the bot), ``better``
        (which way the score is better), ``bot`` and the bot's game as a ``record``;
        ``progress(done, total)`` as the bot plays."""
        ...

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        """``decisions``, ``mistakes`` (indexes into them, biggest first),
        ``lost_by_group`` (the chart), ``total_lost``, ``unit``."""
        ...


class TombAnalysis:
    """The Tomb's par and review by ``analyst`` (the strongest bot at its default effort;
    a test may put a smaller search here)."""

    name = "tomb"

    def __init__(self, analyst: TombAnalyst = TOMB_DEFAULT) -> None:
        self.analyst = analyst

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        return tomb_par(record, player, self.analyst, progress)

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        return tomb_review(record, player, progress, self.analyst)


class TreasureAnalysis:
    """Treasure's par and review by ``analyst`` (see :class:`TombAnalysis`)."""

    name = "treasure"

    def __init__(self, analyst: TreasureAnalyst = TREASURE_DEFAULT) -> None:
        self.analyst = analyst

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        return treasure_par(record, player, self.analyst, progress)

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        return treasure_review(record, player, progress, self.analyst)


_TOMB: Final = TombAnalysis()
_TREASURE: Final = TreasureAnalysis()
ANALYSES: Final[dict[str, GameAnalysis]] = {a.name: a for a in (_TOMB, _TREASURE)}
assert set(ANALYSES) == set(KINDS), "every game kind has its analysis"


def analysis_of(record: Any) -> GameAnalysis:
    """The analysis for a record's game, or a ReviewError naming the formats there are."""
    kind = kind_of_record(record)
    if kind is None:
        formats = " or ".join(repr(k.record_format) for k in KINDS.values())
        raise ReviewError(f"not a game record ('format' must be {formats})")
    return ANALYSES[kind.name]


def par(record: Any, player: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """The strongest bot's result on the record's own dice, and the player's against it."""
    return analysis_of(record).par(record, player, progress)


def review(record: Any, player: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """Every decision of ``player`` against the strongest bot's (see each game's module)."""
    return analysis_of(record).review(record, player, progress)


__all__ = ["ANALYSES", "GameAnalysis", "TombAnalysis", "TreasureAnalysis", "analysis_of", "par", "review"]
