"""A game with bots goes on after a restart exactly as it would have without one (issue 16's
carry-over: a bot's tie-break randomness rebuilt from the log).

Each bot is made anew whenever its game is rebuilt from the log (a restarted server, a
game let go of and loaded again, its bots moving on to another process). A bot's draws
and plans are a function of the game (bots/base.py, ``Planner`` in bots/tomb.py), so the
new bot plays the moves the old one would have. Here a game is played by one service to
its end, and the same game (the same seed, set-up and person's moves) again with the
service closed and a new one opened on the same database along the way, and with the
log cut back in the middle of the bots' moves (as if the server died before writing the
rest): the logs are the same, entry for entry.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from mummy.server.play.service import GameService
from mummy.server.store.db import make_engine
from mummy.server.store.models import ActionRow, GameRow

Log = list[tuple[int, str]]  # (seat, action), in order


def _log(service: GameService, game_id: str) -> Log:
    with service.engine.connect() as conn:
        rows = conn.execute(select(ActionRow.seat, ActionRow.text).where(ActionRow.game_id == game_id)
                            .order_by(ActionRow.seq)).all()
    return [(seat, text) for seat, text in rows]


class Table:
    """One game played by a person (seat 0, always their first legal action) against bots,
    through a service that can be closed and replaced by a new one on the same database."""

    def __init__(self, db_url: str, kind: str, bots: list[str], config: dict[str, Any], seed: int) -> None:
        self.db_url = db_url
        self.service = GameService(make_engine(db_url))
        seats = [{"name": "Ann"}, *({"bot": b} for b in bots)]
        created = self.service.create(kind, seats, config, seed=seed)
        self.id, self.token = created["id"], created["seats"][0]["token"]
        self.moves = 0  # the person's

    def restart(self) -> None:
        """The server goes away and another starts on the same database (bots due move as
        it loads the game)."""
        self.service.close()
        self.service.engine.dispose()
        self.service = GameService(make_engine(self.db_url))

    def crash_back_to(self, version: int) -> None:
        """The server dies having written only the first ``version`` entries (the rest of
        the bots' moves, and of the person's, never were), and another starts."""
        self.service.close()
        with Session(self.service.engine) as s, s.begin():
            s.execute(delete(ActionRow).where(ActionRow.game_id == self.id, ActionRow.seq > version))
            s.execute(update(GameRow).where(GameRow.id == self.id).values(version=version))
        self.service.engine.dispose()
        self.service = GameService(make_engine(self.db_url))

    def view(self) -> dict[str, Any]:
        return self.service.view(self.id, self.token)

    def step(self) -> bool:
        """The person's next move (the bots reply in the call); whether the game goes on."""
        view = self.view()
        if view["over"]:
            return False
        self.service.act(self.id, self.token, f"p{self.moves}-{view['version']}", view["version"], view["legal"][0])
        self.moves += 1
        return True

    def log(self) -> Log:
        return _log(self.service, self.id)

    def close(self) -> None:
        self.service.close()
        self.service.engine.dispose()


def _bot_runs(log: Log, size: int = 3) -> list[int]:
    """Versions in the middle of a bot's run of at least ``size`` moves (a seat other than
    the person's, moving again and again): where a crash cuts a bot's round short."""
    out = []
    for i in range(1, len(log) - size):
        seats = {seat for seat, _ in log[i - 1:i + size]}
        if len(seats) == 1 and 0 not in seats:
            out.append(i)
    return out


GAMES = {
    "tomb": ("tomb", ["random", "random"], {}, 4242),
    "treasure": ("treasure", ["random", "random"], {"first": 1}, 4242),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_random_bots_play_the_same_game_through_restarts(name: str, service: GameService, db_url: str) -> None:
    kind, bots, config, seed = GAMES[name]
    straight = Table(db_url, kind, bots, config, seed)
    while straight.step():
        pass
    expected = straight.log()
    straight.close()
    assert len({text for seat, text in expected if seat != 0}) > 20  # the bots chose among many moves

    restarted = Table(db_url, kind, bots, config, seed)
    while True:
        if restarted.moves % 4 == 1:
            restarted.restart()
        if not restarted.step():
            break
    assert restarted.log() == expected
    restarted.close()

    cuts = _bot_runs(expected)
    assert len(cuts) >= 3
    crashed = Table(db_url, kind, bots, config, seed)
    for cut in (cuts[0], cuts[len(cuts) // 2], cuts[-1]):  # mid-game, in the middle of a bot's run
        while crashed.view()["version"] <= cut:
            assert crashed.step()
        crashed.crash_back_to(cut)
        assert crashed.log() == expected[:len(crashed.log())]  # the bots went on as they had
    while crashed.step():
        pass
    assert crashed.log() == expected
    crashed.close()


def test_a_strong_bot_cut_short_mid_round_goes_on_with_the_same_plan(service: GameService, db_url: str) -> None:
    """The strong Tomb bot plans its round and plays the plan move by move: a new bot in
    the middle of it rebuilds the plan from the round's moves so far, and plays it out."""
    rounds = 3

    def until_round(table: Table) -> None:
        while table.view()["state"]["round"] <= rounds and table.step():
            pass

    straight = Table(db_url, "tomb", ["strong"], {}, 77)
    until_round(straight)
    expected = straight.log()
    straight.close()
    cuts = _bot_runs(expected, 2)
    assert len(cuts) >= rounds
    crashed = Table(db_url, "tomb", ["strong"], {}, 77)
    for cut in cuts[::2]:  # one in every other bot's run of moves
        while crashed.view()["version"] <= cut:
            assert crashed.step()
        crashed.crash_back_to(cut)
    until_round(crashed)
    assert crashed.log() == expected
    crashed.close()
