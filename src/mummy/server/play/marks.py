"""What a game carries beside its play, from coaching (``coaching``, docs/analysis.md §6):
its par, kept in the finished game's stored result, and the mark of the hints its player
was given, kept in its set-up.

* ``games.result`` (JSON, written when the game ends) gets a ``"par"`` object once the
  strongest bot has played the same dice: ``par``, ``score``, ``result`` (positive: better
  than the bot), ``better``, ``unit``, ``bot``, ``effort``. It also gets ``"hints"`` (how
  many the player was given), so that "my games", which reads the stored result, shows both.
* ``games.config`` (the set-up, JSON) gets ``"hints"`` as soon as a hint is given: the view
  shows it, and a game with hints is never ranked (``LiveGame.standing``), like a game on
  a chosen seed.

No migration: both are JSON the tables hold already. This module is light on purpose (the
game in memory reads it on every view of a finished game).
"""

from __future__ import annotations

import json
from typing import Any, Final

#: The set-up's (and the stored result's) count of hints given (coaching.Coach.hint).
HINTS: Final = "hints"
#: The stored result's par, once computed.
PAR: Final = "par"


def par_of(result: str | None) -> dict[str, Any] | None:
    """The par kept in a stored result (JSON text), if there is one."""
    if not result or f'"{PAR}"' not in result:
        return None
    value = json.loads(result).get(PAR)
    return value if isinstance(value, dict) else None


def with_marks(result: str | None, **marks: Any) -> str:
    """A stored result (JSON text) with these keys set (``par``, ``hints``)."""
    out: dict[str, Any] = json.loads(result) if result else {}
    out.update(marks)
    return json.dumps(out)


def hinted(config: dict[str, Any]) -> bool:
    """Whether the game's player was given a hint (never ranked, then)."""
    return bool(config.get(HINTS))


__all__ = ["HINTS", "PAR", "hinted", "par_of", "with_marks"]
