"""What the two games' JSON records share: the header check and the checked replay loop.

A record is a game's seed plus its actions (each ``{"player": N, "action": TEXT}``);
replaying applies every action on the checked path, so the first one that does not
replay is reported with its index and the engine's rule message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mummy.core.errors import MummyError, RuleError, quote

G = TypeVar("G")


class RecordError(MummyError):
    """A record that is malformed, or whose action ``index`` does not replay."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


@dataclass
class ReplayResult(Generic[G]):
    """The game as far as the record replayed, and the fault, if any."""

    game: G
    error: RecordError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def check_header(obj: Any, format_name: str, version: int | tuple[int, ...], what: str) -> int:
    """Check the format, version (one, or any of several a reader still replays) and seed
    of a record; return the seed."""
    versions = version if isinstance(version, tuple) else (version,)
    if not isinstance(obj, dict) or obj.get("format") != format_name:
        raise RecordError(f"not a {what} game record (format must be {format_name!r})")
    if isinstance(obj.get("version"), bool) or obj.get("version") not in versions:
        raise RecordError(f"unsupported record version {obj.get('version')!r}")
    seed = obj.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RecordError("'seed' must be a non-negative integer")
    return seed


def replay_actions(entries: Any, seats: int, apply_text: Callable[[int, str], object],
                   context: Callable[[], str] = lambda: "") -> RecordError | None:
    """Apply each ``{"player", "action"}`` entry; the first fault, or None."""
    if not isinstance(entries, list):
        raise RecordError("'actions' must be a list")
    for i, entry in enumerate(entries):
        player = entry.get("player") if isinstance(entry, dict) else None
        if not isinstance(player, int) or isinstance(player, bool) or not isinstance(entry.get("action"), str):
            return RecordError(f"action {i + 1}: expected {{'player': N, 'action': TEXT}}", i)
        if not 0 <= player < seats:
            return RecordError(f"action {i + 1}: no player {player}", i)
        where = context()
        try:
            apply_text(player, entry["action"])
        except RuleError as exc:
            return RecordError(f"action {i + 1} ({quote(entry['action'])}, player {player}{where}): {exc}", i)
    return None
