"""The bots' own threads: games in turn, a short slice of moves each, and a lane for quick
bots that slow ones never block (docs/server.md §2, "Bots").

Why: bots used to think in the same worker threads as people's calls, a game's
whole turn of bots at a time. Six Tomb games with seven strong bots each took every
worker: another game's greedy bot went from answering in 8 ms to 685 ms at the median
and 6 s at worst, and a person's call that needed a thread waited behind them all.

Here bots have threads of their own, and people's calls keep the app's worker threads:

* **Turns.** A game with bots to move waits in a queue; at its turn it moves for
  ``BOT_SLICE`` (one move at least, however long), then waits again if it has more. A
  greedy bot's whole Tomb round (a few moves of 2 ms) is one turn.
* **Fair shares.** The next game is the one that has had the least bot time (CPU) so
  far, a game joining at the share of the last one served (start-time fair queueing): a
  newcomer goes before games that have had long turns, and no game is starved, since a
  game's share only grows while it moves.
* **A quick lane.** A strong Tomb bot's single move takes up to a second of CPU on a busy
  machine, and a move cannot be interrupted. So of the ``BOT_THREADS`` threads (two), one
  takes only games whose recent turns were short (``QUICK`` seconds): a slow game can
  hold up another slow game, never a quick one. The work is Python under one interpreter
  lock, so more threads would add no speed, only more contenders with the event loop.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Final

log = logging.getLogger("mummy.server.play.bots")

#: Threads for bots: one for any game, and one for games whose turns are quick.
BOT_THREADS: Final = 2
#: Seconds of moves a game makes in its turn (one move at least, however long).
BOT_SLICE: Final = 0.02
#: A game whose turns take at most this (CPU seconds, its recent longest) is quick.
QUICK: Final = 0.05
#: Games whose cost the pool remembers (the most recently served).
REMEMBERED: Final = 4096

#: A game's turn of bot moves: (moves made, whether the game has more bot moves due).
Step = Callable[[str], tuple[int, bool]]


@dataclass
class _Turn:
    """A game in the queue, or having its bots' turn."""

    share: float  # bot time it has had (CPU seconds), counted from the pool's share when it came
    order: int  # first come, first served among equal shares
    epoch: int  # the pool's epoch when it came (see close)
    moves: int = 0  # made since the game joined the queue
    again: bool = False  # asked for again during its turn: look once more after it
    waiters: list[tuple[Future[int], int]] = field(default_factory=list)  # (future, moves when it came)


class BotPool:
    """Bots' moves for every game, in threads of their own (see the module's docstring).

    ``step(game_id)`` makes the game's bot moves for one turn (under the game's lock, as
    any move). :meth:`play` queues a game and answers a future settled with the number of
    moves made once the game has no bot move due. The threads start with the first game
    queued and end when idle for a moment, so a server without bots holds none."""

    IDLE = 0.5  # seconds without work before a thread ends

    def __init__(self, step: Step, threads: int = BOT_THREADS) -> None:
        self.threads = max(1, threads)
        self._step = step
        self._guard = threading.Lock()
        self._wake = threading.Condition(self._guard)
        self._waiting: list[str] = []  # game ids queued, each at most once
        self._turns: dict[str, _Turn] = {}  # queued or moving
        self._lanes = [False] * self.threads  # whether each lane's thread runs; the last is quick
        self._share = 0.0  # the share of the game served last: where a newcomer starts
        self._order = itertools.count()
        self._cost: OrderedDict[str, float] = OrderedDict()  # game id -> its recent longest turn
        self._epoch = 0  # one more at each close: the turns of before are not taken again

    @property
    def queued(self) -> int:
        """Games waiting for their turn (not counting those moving)."""
        return len(self._waiting)

    def play(self, game_id: str) -> Future[int]:
        """Queue the game's bots; the future settles once they have no move due, with the
        number of moves made meanwhile. It cannot be cancelled: the moves go on anyway."""
        done: Future[int] = Future()
        done.set_running_or_notify_cancel()
        with self._guard:
            turn = self._turns.get(game_id)
            if turn is None:
                turn = self._turns[game_id] = _Turn(self._share, next(self._order), self._epoch)
                self._enqueue(game_id)
            else:
                turn.again = True  # its turn is under way: looked at once more after it
            turn.waiters.append((done, turn.moves))
        return done

    def close(self) -> None:
        """Drop every game queued, and answer whoever waits with the moves made so far (a
        turn under way ends first; the bots go on when their game is next loaded, or played
        again). The threads end once idle; the pool can be used again."""
        with self._guard:
            self._epoch += 1
            self._waiting.clear()
            turns, self._turns = self._turns, {}
            self._wake.notify_all()
        for turn in turns.values():
            self._settle(turn, None)

    def _run(self, lane: int) -> None:
        quick = self.threads > 1 and lane == self.threads - 1
        while (next_up := self._next(lane, quick)) is not None:
            game_id, turn = next_up
            error: BaseException | None = None
            began = time.thread_time()
            try:
                moved, more = self._step(game_id)
            except Exception as exc:  # a bug: whoever waits gets it, the thread goes on
                log.exception("a bot of game %s failed", game_id)
                moved, more, error = 0, False, exc
            spent = time.thread_time() - began
            with self._guard:
                turn.moves += moved
                turn.share += spent
                self._cost[game_id] = max(spent, 0.7 * self._cost.pop(game_id, 0.0))
                if len(self._cost) > REMEMBERED:
                    self._cost.popitem(last=False)
                if error is None and (more or turn.again) and turn.epoch == self._epoch:
                    self._enqueue(game_id)
                    continue
                if self._turns.get(game_id) is turn:
                    del self._turns[game_id]
            self._settle(turn, error)

    def _enqueue(self, game_id: str) -> None:
        """Under the guard: the game waits for its turn; a lane that has ended starts again
        (the one left may be the quick lane, which would not take a slow game)."""
        self._waiting.append(game_id)
        self._wake.notify_all()
        for lane, running in enumerate(self._lanes):
            if not running:
                self._lanes[lane] = True
                threading.Thread(target=self._run, args=(lane,), name=f"mummy-bots-{lane}", daemon=True).start()

    def _next(self, lane: int, quick: bool) -> tuple[str, _Turn] | None:
        """The game this lane serves next (the least share first; the quick lane only
        quick games), or None once the lane has had nothing to do for ``IDLE``."""
        with self._guard:
            while True:
                games = [g for g in self._waiting if not quick or self._cost.get(g, 0.0) <= QUICK]
                if games:
                    game_id = min(games, key=lambda g: (self._turns[g].share, self._turns[g].order))
                    self._waiting.remove(game_id)
                    turn = self._turns[game_id]
                    turn.again = False
                    self._share = max(self._share, turn.share)
                    return game_id, turn
                if not self._wake.wait(self.IDLE) and not self._waiting:
                    self._lanes[lane] = False
                    return None

    @staticmethod
    def _settle(turn: _Turn, error: BaseException | None) -> None:
        waiters, turn.waiters = turn.waiters, []
        for done, since in waiters:
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(turn.moves - since)
