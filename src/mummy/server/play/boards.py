"""What the service shows of finished games and of the day's challenge: the daily seeds,
the daily entries, the leaderboards and the replays.

All three read games that no longer change (or, for a daily seed, a secret that never
does), so none of them takes part in play: the service hands them the way to a game in
memory (``current``: the game locked and current) and the repository, and answers for
them (``GameService.leaderboard``, ``daily_seed``, ``replay``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from mummy.server.errors import ServiceError, known_kind
from mummy.server.play.live import LiveGame
from mummy.server.play.replays import Replays
from mummy.server.store.models import GameRow
from mummy.server.store.repository import Repository

#: The game in memory, locked and still the current copy, for the ``with`` block.
Current = Callable[[str], AbstractContextManager[LiveGame]]


class Boards:
    """The daily challenge's seeds, the leaderboards, and the replays of finished games."""

    def __init__(self, repo: Repository, current: Current) -> None:
        self._repo = repo
        self._current = current
        self._replays = Replays()

    def daily_seed(self, kind: str, day: str) -> int:
        """The day's seed for a game: a keyed hash of the day, secret until the day is over."""
        key = self._repo.secret("daily").encode()
        digest = hmac.new(key, f"{kind}:{day}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def entrant(self, kind: str, day: str, name: str, address: str | None) -> str:
        """Who plays a daily game, for its board: one entry per player and day (the first
        game they finish), so that restarting to learn the dice earns no second try.

        There are no accounts, so a player is their client address and their name (in any
        case and spacing): people who share an address (a household, ``make play`` on one
        machine) under their own names each count, and a player who starts again in
        another tab, browser or with a cleared storage counts once. A keyed hash of the
        three, so the table keeps no address, and no two days' entrants can be linked."""
        key = self._repo.secret("daily").encode()
        who = " ".join(name.split()).casefold()
        return hmac.new(key, f"entrant:{kind}:{day}:{address or ''}:{who}".encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def daily_stamp(row: GameRow, stamp: dict[str, Any]) -> dict[str, Any]:
        """What a daily game's ending stamp changes (``stamp`` is its leaderboard columns,
        :meth:`LiveGame.standing`): it stays off the all-time boards, and its standing goes
        to its player's entry for the day, kept only if it is their first finished game
        (``Repository.write_actions``)."""
        return {"b_ranked": False, "d_game_id": row.id, "d_ranked": stamp["b_ranked"],
                "d_ranking": stamp["b_ranking"], "d_finished": stamp["b_finished"]}

    def leaderboard(self, kind: str, where: str | None = None, daily: str | None = None,
                    limit: int = 20) -> list[dict[str, Any]]:
        """Finished solo games, best first: the Tomb by score on a map, Treasure by the
        fewest turns to fill a site. ``daily`` is one day's challenge instead (its board
        alone shows daily games: each player's first finished game that day).

        One query on an index with a limit (the columns stamped when a game ends, see
        :meth:`LiveGame.standing`), so a board costs the same at any number of games:
        loading every finished game took seconds at 100k games, and failed at 260k. Ties
        go to whoever finished first."""
        board_entry = known_kind(kind).board_entry
        games, names = self._repo.board(kind, where, daily, max(1, min(limit, 100)))
        rows = []
        for g in games:
            entry: dict[str, Any] = {"id": g.id, "name": names.get(g.id), "daily": g.daily,
                                     "finished": g.finished.isoformat() if g.finished else None}
            entry.update(board_entry(g.place, g.score, g.turns))
            rows.append(entry)
        return rows

    def replay(self, game_id: str, step: int) -> dict[str, Any]:
        """A finished game as it stood after its first ``step`` log entries, from its tape
        (``replays``): at most ``REPLAY_EVERY`` applies, and one for the next step."""
        with self._current(game_id) as live:
            if not live.revealable:
                raise ServiceError(409, "not_over", "replays open when the game (and its day) is over")
            kind, steps, seed, config = live.kind, live.version, live.row.seed, live.config
            names = [x.name for x in live.seats]
        if not 0 <= step <= steps:
            raise ServiceError(422, "bad_request", f"step is 0 to {steps}")
        tape = self._replays.tape(game_id, lambda: kind.new(seed, config, names))
        with tape.lock:
            game, at = tape.start(step)
            rows = self._repo.entries(game_id, min(at, step - 1), step) if step else []
            for entry in rows:
                if entry.seq > at:
                    kind.apply(game, entry.seat, entry.text)
                    tape.passed(entry.seq, game)
            state = kind.view(game)
            tape.keep(step, game)
        return {"id": game_id, "step": step, "steps": steps,
                "action": {"seat": rows[-1].seat, "action": rows[-1].text} if step else None,
                "state": state}
