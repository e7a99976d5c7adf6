"""Coaching online (docs/analysis.md §6): par after a solo game, a review of a
finished game's every decision, and hints in practice games. The analysis itself is the
package's (``mummy.analysis``); here is when it runs, where it is kept and who may ask.

* **Par.** When a person's solo game ends (``Play.ended``, the hook after its last move
  is told), the strongest bot plays the same dice in the par lane: a bounded queue, one
  worker thread, a child process at the lowest priority (``lanes``). Par is a function of
  the seed and the set-up only, so it is remembered by them: a day's challenge, one seed
  for everybody, is played once. It is stored in the game's result (``marks``) and the
  game's pages are sent the view again, which now carries ``par``. A full queue refuses
  politely: the results screen may ask again (``POST /api/games/{id}/par``).
* **Reviews.** ``POST /api/games/{id}/review?player=N`` queues the review in its own lane
  (one at a time), or answers the one stored (computed once per game and seat: migration
  0011; the last ``REVIEWS`` also in memory) or under way, with its progress. Gated like
  replays: a finished game, and a daily challenge only once its day is over. A request
  with one of the game's seat tokens goes before everyone else's, and each address may
  have ``REVIEWS_IN_FLIGHT`` reviews of its own under way (nine requests for
  public games held the reviewer for an honest player's minutes). Each decision gets the
  replay's steps where it starts and ends (``step``, ``step_end``), read from the log
  (undos included).
* **Hints.** A solo game's player asks for the strongest bot's choice now (the Tomb's plan
  to the end of the round, Treasure's best by the exact values). Refused in a daily
  challenge (``403 daily``), a game of several seats (``403 not_solo``), and a game that
  would rank, unless the player accepts that it becomes a practice game (``409 ranked``
  without ``practice``): a game with hints is marked (``config.hints``) and never ranked.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar, cast

from mummy.games import GameKind
from mummy.server import clock
from mummy.server.coaching.coach_jobs import EFFORTS
from mummy.server.coaching.coach_store import CoachStore
from mummy.server.coaching.lanes import Job, Lane
from mummy.server.errors import ServiceError, known_kind
from mummy.server.play.hub import Hub
from mummy.server.play.marks import HINTS, PAR, hinted, par_of, with_marks
from mummy.server.play.service import GameService

log = logging.getLogger("mummy.server.coaching.coaching")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Jobs each lane holds waiting: pars (a minute each at most), reviews, hints.
PAR_QUEUE: Final = 64
REVIEW_QUEUE: Final = 8
HINT_QUEUE: Final = 16
#: The lanes' children's niceness (``os.nice``): par last of all; a review and a hint
#: have a person waiting.
NICE: Final = {"par": 19, "review": 10, "hint": 5}
#: Remembered in memory: reviews, pars by seed and set-up, hints by game and version.
REVIEWS: Final = 32
PARS: Final = 512
HINTS_KEPT: Final = 256
#: Seconds a day's board by par is kept before it is read again.
BOARD_FRESH: Final = 5.0
#: How many of a day's entries (best scores first) a board by par reads.
BOARD_READ: Final = 200
#: The environment's say on the analysis: its effort (``full``, ``quick``, or ``off``: no par
#: is computed on its own) and its children's niceness (a test's: 0).
EFFORT_ENV: Final = "MUMMY_ANALYSIS"
NICE_ENV: Final = "MUMMY_ANALYSIS_NICE"


class Bounded(Generic[K, V]):
    """A dictionary that keeps the ``size`` entries used last (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._guard = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._guard:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._guard:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        with self._guard:
            self._items.pop(key, None)


def history_steps(entries: Sequence[Any]) -> list[int]:
    """For each action of a game's history (its record's ``actions``), the log entry that
    made it: undone actions leave the history, and an undo takes back its seat's last one."""
    made: list[tuple[int, int]] = []
    for entry in entries:
        if entry.text == "undo":
            for i in range(len(made) - 1, -1, -1):
                if made[i][0] == entry.seat:
                    del made[i]
                    break
        else:
            made.append((entry.seat, entry.seq))
    return [seq for _, seq in made]


def against(kind: GameKind, config: dict[str, Any], final: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """A solo game's par as stored: the bot's ``par`` on its dice, the game's own ``score``
    in the same unit (points, or turns to fill the site: None for a site left unfilled,
    R4.3), and the ``result`` against it, positive when the player did better."""
    _, points, turns, _ = kind.standing(config, final)
    higher = found["better"] == "higher"
    score = points if higher else (turns if kind.rankable(final) else None)
    bot = found["par"]
    result = None if score is None or bot is None else (score - bot if higher else bot - score)
    out = {"par": bot, "score": score, "result": result, "better": found["better"],
           "unit": "points" if higher else "turns", "bot": found["bot"], "effort": found["effort"]}
    if "par_squares" in found:
        out["par_squares"] = found["par_squares"]
    return out


@dataclass(frozen=True)
class ParWanted:
    """What a finished solo game's par needs, read under its lock: the key of its dice
    (game, seed, set-up), its record for the bot, and its own result to compare."""

    game_id: str
    kind: GameKind
    config: dict[str, Any]
    final: dict[str, Any]
    key: tuple[str, int, str]
    record: dict[str, Any]
    daily: str | None = None  # the day of a daily challenge's game


#: Reviews one address may have under way at once (queued or running).
REVIEWS_IN_FLIGHT: Final = 2


@dataclass(frozen=True)
class Asker:
    """Who asks for a review: their address group (``limits.address_group``) and the seat
    token they sent, if any (a player of the game goes first)."""

    group: str
    token: str | None = None


class Coach:
    """Par, reviews and hints for one app (see the module); ``effort`` and ``nice`` default
    to the environment's (``MUMMY_ANALYSIS``, ``MUMMY_ANALYSIS_NICE``)."""

    def __init__(self, service: GameService, hub: Hub, *, effort: str | None = None, processes: bool = True,
                 nice: int | None = None) -> None:
        self.service = service
        self.hub = hub
        effort = effort or os.environ.get(EFFORT_ENV) or "full"
        #: Whether par is computed when a game ends (``off``: only when a page asks).
        self.automatic = effort != "off"
        self.effort = effort if effort in EFFORTS else "full"
        niceness = nice if nice is not None else os.environ.get(NICE_ENV)
        lane = functools.partial(Lane, processes=processes)
        self.pars = lane("par", self._nice("par", niceness), PAR_QUEUE)
        self.reviews = lane("review", self._nice("review", niceness), REVIEW_QUEUE)
        self.hints = lane("hint", self._nice("hint", niceness), HINT_QUEUE)
        self.store = CoachStore(service.engine, service.repo.writes)
        #: The app's event loop, to tell a game's pages that its par has come.
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pars: Bounded[tuple[str, int, str], dict[str, Any]] = Bounded(PARS)
        self._par_refused: Bounded[str, str] = Bounded(PARS)
        self._par_waiting: set[str] = set()  # games whose par job will store theirs (a job per dice)
        self._reviewed: Bounded[tuple[str, int], tuple[bool, Any]] = Bounded(REVIEWS)
        self._hinted: Bounded[tuple[str, int, int], dict[str, Any]] = Bounded(HINTS_KEPT)
        self._boards: Bounded[tuple[str, str], tuple[float, int, dict[str, Any]]] = Bounded(64)
        #: How many pars each day's board has had stored (a kept board read before the
        #: newest is out of date); a few entries a day.
        self._board_epochs: dict[tuple[str, str], int] = {}
        self._board_guard = threading.Lock()
        #: Reviews under way per address group, and its lock.
        self._in_flight: Counter[str] = Counter()
        self._guard = threading.Lock()

    @staticmethod
    def _nice(lane: str, given: int | str | None) -> int:
        return NICE[lane] if given is None or given == "" else int(given)

    def close(self) -> None:
        """Drop what waits and stop the children (at the app's end)."""
        for lane in (self.pars, self.reviews, self.hints):
            lane.close()

    # -- par --------------------------------------------------------------------------------
    def game_over(self, game_id: str) -> None:
        """The hook of a game's last move (``Play.ended``), on the event loop: the rest is
        done in a thread (:meth:`ended`), so the loop never waits for it."""
        try:
            self.loop = asyncio.get_running_loop()
            self.loop.run_in_executor(None, self.ended, game_id).add_done_callback(
                functools.partial(self._logged, game_id))
        except RuntimeError:  # no running loop (a caller outside the app): do it here
            self.ended(game_id)

    @staticmethod
    def _logged(game_id: str, done: asyncio.Future[Any]) -> None:
        if not done.cancelled() and done.exception() is not None:
            log.error("after the end of game %s: %r", game_id, done.exception(), extra={"game": game_id})

    def ended(self, game_id: str) -> None:
        """A game has ended: its hints' mark goes into its stored result (for "my games")
        and it leaves the boards; a person's solo game has its par queued."""
        with self.service.copies.current(game_id) as live:
            if not live.kind.is_over(live.game):
                return
            hints = live.config.get(HINTS)
            wanted = self._par_wanted(live) if self.automatic else None
        if hints:
            self.store.unrank(game_id)
            self._remember(game_id, self.store.update_result(game_id, lambda old: with_marks(old, hints=hints)))
        if wanted is not None:
            self._queue_par(wanted)

    @staticmethod
    def _par_wanted(live: Any) -> ParWanted | None:
        """What a finished game's par needs (the caller holds its lock): None unless it is a
        person's solo game."""
        if len(live.seats) != 1 or live.seats[0].bot is not None:
            return None
        kind, config = live.kind, dict(live.config)
        key = (kind.name, live.row.seed, json.dumps({k: config.get(k) for k in kind.config_keys}, sort_keys=True))
        return ParWanted(live.row.id, kind, config, kind.result(live.game), key, kind.record(live.game),
                         live.row.daily)

    def _queue_par(self, wanted: ParWanted) -> Job | None:
        """Queue a game's par, or store at once the one known for its seed and set-up
        (None then, as when the queue is full)."""
        known = self._pars.get(wanted.key)
        if known is not None:
            self._store_par(wanted, against(wanted.kind, wanted.config, wanted.final, known))
            return None
        key = ("par", *wanted.key)
        if wanted.game_id in self._par_waiting:  # this game waits on the job already (asked again):
            return self.pars.find(key)  # None once it has ended, while its thread stores its par
        self._par_waiting.add(wanted.game_id)
        job = self.pars.submit(key, "par", (wanted.record, wanted.config, 0, self.effort),
                               functools.partial(self._par_done, wanted))
        if job is None:
            self._par_waiting.discard(wanted.game_id)
            self._par_refused.put(wanted.game_id, f"the server is busy: {self.pars.waiting} games wait for their "
                                  "par; ask again in a few minutes")
        else:
            self._par_refused.pop(wanted.game_id)
        return job

    def _par_done(self, wanted: ParWanted, job: Job) -> None:
        """A par job has ended (in its lane's thread): its par stored, or its failure kept,
        before the game stops waiting on it (until then it is answered as running)."""
        try:
            if job.state != "done":
                self._par_refused.put(wanted.game_id, f"par could not be computed: {job.error}")
                return
            self._pars.put(wanted.key, job.result)
            self._store_par(wanted, against(wanted.kind, wanted.config, wanted.final, job.result))
        finally:
            self._par_waiting.discard(wanted.game_id)

    def _store_par(self, wanted: ParWanted, par: dict[str, Any]) -> None:
        """Keep the par in the game's stored result, in memory too, and send the game's
        pages its view again (the view carries ``par`` from now on). The other processes
        are told by the store (``CoachStore``), and read it again (``Copies.reread_row``).
        A daily game's board by par kept here is dropped: the page that has just been told
        its par must find it on the board too, not ``BOARD_FRESH`` seconds later."""
        game_id = wanted.game_id
        stored = self.store.update_result(game_id, lambda old: with_marks(old, **{PAR: par}))
        if wanted.daily is not None:
            with self._board_guard:  # the day's board kept (or being read) is out of date
                key = (wanted.kind.name, wanted.daily)
                self._board_epochs[key] = self._board_epochs.get(key, 0) + 1
        self._remember(game_id, stored)
        self._tell(game_id)

    def _tell(self, game_id: str) -> None:
        """Send the game's pages here its view again."""
        loop = self.loop
        if loop is not None and game_id in self.hub.rooms:
            asyncio.run_coroutine_threadsafe(self.hub.broadcast(self.service, game_id), loop)

    def _remember(self, game_id: str, result: str | None) -> None:
        """The stored result changed: the copy in memory (if any) reads it from now on, and
        the views it has encoded at this version are made again."""
        live = self.service.cached(game_id)
        if live is None or result is None:
            return
        with live.lock:
            live.row.result = result
            live.views_changed()

    def par(self, game_id: str, start: bool) -> dict[str, Any]:
        """A finished solo game's par: ``{"status": "done", "par": ...}``, or how far it
        is (``queued`` with ``ahead``, ``running`` with ``done`` of ``total``), or
        ``busy`` (the queue was full; ``message``), or ``none`` (not asked; ``start``
        asks)."""
        with self.service.copies.current(game_id) as live:
            if not live.kind.is_over(live.game):
                raise ServiceError(409, "not_over", "par is worked out once the game is over")
            if len(live.seats) != 1 or live.seats[0].bot is not None:
                raise ServiceError(409, "not_solo", "par is for a person's solo game: in a game of several "
                                   "players the others' moves are part of it")
            stored = par_of(live.row.result)
            # Not in the copy: another process may have stored it since the copy was read,
            # and its notice may have been lost (its listening broke): the stored result says.
            result = self.store.result(game_id) if stored is None else None
            if stored is None:
                stored = par_of(result)
            wanted = self._par_wanted(live) if stored is None else None
        if stored is not None:
            if result is not None:  # the copy had none: it keeps it, and the game's pages here are told
                self._remember(game_id, result)
                self._tell(game_id)
            return {"status": "done", PAR: stored}
        assert wanted is not None
        job = self.pars.find(("par", *wanted.key))
        if start or job is not None:  # queued, or this game joins the job of its dice under way
            job = self._queue_par(wanted)
            stored = par_of(self.store.result(game_id))
            if stored is not None:
                return {"status": "done", PAR: stored}
        if job is not None and job.state in ("queued", "running"):
            return {**job.status(), "ahead": self.pars.ahead(job)}
        if job is not None or game_id in self._par_waiting:
            # Its job has just ended: its lane's thread is storing the par (or the failure)
            # now. "done" would be a par the page cannot find yet.
            progress = job.status() if job is not None else {"done": 0, "total": 0}
            return {**progress, "status": "running", "ahead": 0}
        refused = self._par_refused.get(game_id)
        return {"status": "busy", "message": refused} if refused else {"status": "none"}

    # -- reviews ----------------------------------------------------------------------------
    def review(self, game_id: str, player: int, start: bool,
               asker: Asker | None = None) -> tuple[int, dict[str, Any]]:
        """The review of a seat of a finished game (see the module): (200, done), (202, under
        way), or (200, ``none``: not asked, without ``start``). Computed once per game and
        seat (stored, read before any work); a review asked for by one of the game's
        players goes before the others'; each address may have ``REVIEWS_IN_FLIGHT`` of
        its own under way (``429`` beyond)."""
        key = (game_id, player)
        known = self._reviewed.get(key)
        with self.service.copies.current(game_id) as live:
            if not live.revealable:
                raise ServiceError(409, "not_over", "a review opens when the game is over (a daily challenge's "
                                   "when its day is over too: everybody plays on the same dice that day)")
            if not 0 <= player < len(live.seats):
                raise ServiceError(422, "bad_request", f"there is no player {player}: the game has players 0 to "
                                   f"{len(live.seats) - 1}")
            players_own = asker is not None and live.holds(asker.token)
            if known is None:
                record, config, version = live.kind.record(live.game), dict(live.config), live.version
        if known is None:
            stored = self.store.review(game_id, player)
            if stored is not None:
                known = (True, json.loads(stored))
                self._reviewed.put(key, known)
        if known is not None:
            ok, value = known
            if not ok:
                raise ServiceError(422, "cannot_review", str(value))
            return 200, {"status": "done", "review": value}
        job = self.reviews.promote(key) if players_own else self.reviews.find(key)
        if start and job is None:
            job = self._queue_review(key, record, config, version, asker, players_own)
        if job is None:
            return 200, {"status": "none"}
        return 202, {**job.status(), "ahead": self.reviews.ahead(job)}

    def _queue_review(self, key: tuple[str, int], record: Any, config: dict[str, Any], version: int,
                      asker: Asker | None, players_own: bool) -> Job:
        """Queue the review (a player's first), counted against the asker's address while
        it is under way."""
        group = asker.group if asker is not None else "unknown"
        with self._guard:
            if self._in_flight[group] >= REVIEWS_IN_FLIGHT:
                raise ServiceError(429, "too_many_requests",
                                   f"{self._in_flight[group]} reviews asked for from your address are under "
                                   "way; ask again when one is done", retry_after=60)
            self._in_flight[group] += 1
        steps = history_steps(self.service.repo.entries(key[0], 0, version))

        def after(done: Job) -> None:
            try:
                self._review_done(key, steps, done)
            finally:
                self._release(group)

        job = self.reviews.submit(key, "review", (record, config, key[1], self.effort), after, first=players_own)
        if job is None:
            self._release(group)
            raise ServiceError(503, "busy", f"the reviewer is busy ({self.reviews.waiting} reviews wait); "
                               "try again in a minute", retry_after=60)
        return job

    @property
    def reviews_in_flight(self) -> dict[str, int]:
        """Reviews under way by the address group that asked for them (a copy)."""
        with self._guard:
            return dict(self._in_flight)

    def _release(self, group: str) -> None:
        with self._guard:
            self._in_flight[group] -= 1
            if self._in_flight[group] <= 0:
                del self._in_flight[group]

    def _review_done(self, key: tuple[str, int], steps: list[int], job: Job) -> None:
        if job.state != "done":
            if job.lasting:  # a record the analysis cannot take: it will not change
                self._reviewed.put(key, (False, job.error))
            return
        review = job.result
        for d in review["decisions"]:
            d["step"] = steps[d["first_action"]] - 1 if d["first_action"] < len(steps) else None
            d["step_end"] = steps[d["last_action"]] if d["last_action"] < len(steps) else None
        try:
            self.store.store_review(key[0], key[1], json.dumps(review, separators=(",", ":")), clock.now())
        except Exception:  # kept in memory all the same; asked again after a restart
            log.exception("storing the review of game %s", key[0], extra={"game": key[0]})
        self._reviewed.put(key, (True, review))

    # -- hints ------------------------------------------------------------------------------
    def ask_hint(self, game_id: str, token: str | None, practice: bool) -> Job | dict[str, Any]:
        """A hint for the token's seat now: the job working it out, or the answer already
        given at this version. Refusals: see the module."""
        with self.service.copies.current(game_id) as live:
            seat = live.seat_of(token)
            if live.kind.is_over(live.game):
                raise ServiceError(409, "over", "the game is over", version=live.version)
            if live.row.daily is not None:
                raise ServiceError(403, "daily", "no hints in a daily challenge: it is everybody's game on the same "
                                   "dice, and its board compares how each played them alone")
            if len(live.seats) != 1:
                raise ServiceError(403, "not_solo", "hints are for solo practice games: in a game with other "
                                   "players (people or bots) the bot's advice would play for you")
            if not practice and not hinted(live.config) and not live.config.get("seed_chosen"):
                raise ServiceError(409, "ranked", "this game counts for the best scores (a solo game on secret "
                                   "dice): a hint makes it a practice game, off the boards for good. Ask again "
                                   "with \"practice\": true to take hints")
            if seat not in live.kind.to_act(live.game):
                raise ServiceError(409, "not_your_turn", "there is nothing to hint: it is not your turn",
                                   version=live.version)
            key = (game_id, live.version, seat)
            given = self._hinted.get(key)
            if given is not None:
                return given
            args = (live.kind.record(live.game), dict(live.config), seat, self.effort)
        job = self.hints.submit(key, "hint", args)
        if job is None:
            raise ServiceError(503, "busy", f"the hints are busy ({self.hints.waiting} wait); try again in a moment")
        return job

    def hint_given(self, job: Job) -> dict[str, Any]:
        """The hint worked out: the game is marked (once per version), and the answer kept."""
        key = cast(tuple[str, int, int], job.key)
        game_id, version, seat = key
        given = self._hinted.get(key)
        if given is not None:
            return given
        with self.service.copies.current(game_id) as live:
            count = int(live.config.get(HINTS, 0)) + 1
            live.config[HINTS] = count
            live.row.config = json.dumps(live.config)
            self.store.set_config(game_id, live.row.config)
            live.views_changed()
        answer = {"version": version, "seat": seat, HINTS: count, **job.result}
        self._hinted.put(key, answer)
        return answer

    # -- a day's board by par ---------------------------------------------------------------
    def day_board(self, kind_name: str, day: str, limit: int = 20) -> dict[str, Any]:
        """A day's entries ranked by their result against par (best first; entries whose
        par is not known yet last, by score), from the first ``BOARD_READ`` by score.
        Everybody's dice are the same that day, so is par: the result orders as the score
        does, and says by how much each beat the bot or fell short. Kept ``BOARD_FRESH``
        seconds, or until a par of the day is stored (:meth:`_store_par`)."""
        kind = known_kind(kind_name)
        key = (kind.name, day)
        with self._board_guard:
            epoch = self._board_epochs.get(key, 0)
        hit = self._boards.get(key)
        if hit is not None and hit[1] == epoch and time.monotonic() - hit[0] < BOARD_FRESH:
            return hit[2]
        rows = []
        for g in self.store.day(kind.name, day, BOARD_READ):
            par = par_of(g.result) or {}
            entry: dict[str, Any] = {"id": g.id, "name": g.name, "daily": day,
                                     "finished": g.finished.isoformat() if g.finished else None,
                                     **kind.board_entry(g.place, g.score, g.turns),
                                     PAR: par.get(PAR), "result": par.get("result"), "unit": par.get("unit")}
            rows.append(entry)
        rows.sort(key=lambda r: (r["result"] is None, -(r["result"] or 0)))  # stable: by score among equals
        board = {"day": day, "game": kind.name, "leaderboard": rows[:max(1, min(limit, 100))]}
        self._boards.put(key, (time.monotonic(), epoch, board))
        return board


__all__ = ["Bounded", "Coach", "against", "history_steps"]
