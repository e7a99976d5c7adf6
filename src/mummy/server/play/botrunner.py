"""The bot runner: when a game's bots move, in which threads, and in which process.

* **When.** Right after the action that gives them the turn (``GameService.act``, or
  :meth:`BotRunner.play` for the app, which leaves people's calls free), and when a copy
  is rebuilt from the log (moves cut short by a crash or a failed write go on).
* **Threads.** The bots' own (``bots.BotPool``): games in turn, a short slice of moves
  each, a lane for quick bots.
* **Process.** Several processes may hold copies of a game (PostgreSQL): its bots move
  only in the one that holds the game's lease (``leases``). A process refused the lease
  notes the game (:attr:`BotRunner.waiting`) and asks again a moment later, so that the
  bots of a process that died go on in another once its lease expires; meanwhile the
  holder hears of the moves that make its bots due (``relay``) and plays them.

Each move is made on a copy caught up with the log and written like any action: should a
move's place in the log be taken meanwhile (``copies.Lost``), the next turn goes on from
the log as it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Final

from mummy.server.errors import ServiceError
from mummy.server.play.bots import BOT_SLICE, BotPool
from mummy.server.play.copies import Copies, Lost
from mummy.server.play.live import LiveGame
from mummy.server.store.leases import BotLeases

BOT_ID: Final = "bot:"  # the prefix of the client ids of bots' actions
#: Seconds before a process refused a game's lease asks for it again.
RETRY: Final = 1.0

#: Applies, writes and settles one action on a locked copy: (copy, seat, text, client id).
Apply = Callable[[LiveGame, int, str, str], dict[str, Any]]


class BotRunner:
    """Bots' moves for the games of one service (see the module's docstring)."""

    def __init__(self, copies: Copies, leases: BotLeases, apply: Apply, threads: int, shared: bool) -> None:
        self.copies = copies
        self.leases = leases
        self.apply = apply
        self.shared = shared  # other processes write too: catch up with the log before each turn
        self.pool = BotPool(self.step, threads)
        #: Game id -> when to ask again for its lease, held by another process (time.monotonic()).
        self.waiting: dict[str, float] = {}

    def due(self, game_id: str) -> bool:
        """Whether a bot of this game has a move to make (a hint read without the lock)."""
        live = self.copies.games.get(game_id)
        return live is not None and bool(live.agents) and live.bot_seat() is not None

    def play(self, game_id: str) -> Future[int]:
        """Let the game's bots make their moves in the bots' threads; the future settles
        with the moves made once none is due (or the lease is another process's)."""
        return self.pool.play(game_id)

    def close(self) -> None:
        """Drop the bots' queue and give back every lease (other processes take over)."""
        self.pool.close()
        self.leases.close()
        self.waiting.clear()

    def overdue(self) -> list[str]:
        """The games whose bots wait for a lease held elsewhere, to ask again now (a game
        let go, or whose bots have moved meanwhile, waits no more)."""
        now = time.monotonic()
        ready = []
        for game_id, when in list(self.waiting.items()):
            if not self.due(game_id):
                self.waiting.pop(game_id, None)
            elif when <= now:
                ready.append(game_id)
        return ready

    def step(self, game_id: str) -> tuple[int, bool]:
        """The game's turn in the bots' threads: bot moves for up to ``BOT_SLICE`` seconds
        (one at least), so that a quick bot's few moves take one turn, not one turn each
        behind every other game. (moves made, whether more are due). A game that had to
        be loaded counts as moved: its bots went on in the load."""
        loaded = game_id in self.copies.games
        moved = 0
        try:
            with self.copies.current(game_id, catch_up=self.shared) as live:
                until = time.monotonic() + BOT_SLICE
                while (seat := live.bot_seat()) is not None and self.leased(game_id):
                    if moved and time.monotonic() >= until:
                        return moved, True
                    self.move(live, seat)
                    moved += 1
                return (moved if moved or loaded else 1), False
        except Lost:  # another process wrote first: the next turn goes on from the log
            return moved, True
        except ServiceError:  # no such game, or a move not written: the bots go on at the next load
            return moved, False

    def run(self, live: LiveGame) -> None:
        """Let bots play while it is a bot's turn (the caller holds the copy's lock)."""
        while (seat := live.bot_seat()) is not None and self.leased(live.row.id):
            self.move(live, seat)

    def move(self, live: LiveGame, seat: int) -> dict[str, Any]:
        """The bot thinks and its move is applied and written (the caller holds the lock)."""
        text = live.kind.text(live.game, seat, live.agents[seat].act(live.game, seat))
        return self.apply(live, seat, text, f"{BOT_ID}{live.version + 1}")

    def leased(self, game_id: str) -> bool:
        """Whether this process plays the game's bots now; if not, it asks again later."""
        if self.leases.take(game_id):
            self.waiting.pop(game_id, None)
            return True
        self.waiting[game_id] = time.monotonic() + RETRY
        return False
