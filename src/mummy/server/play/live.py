"""A game in memory, and the rules of online play that read one: whose token holds which
seat, whether an action is admitted (client ids, versions, the game or its day over), the
caps on undos, what each seat or spectator is shown, and when the seed is revealed.

* Each seat has a secret token (only its SHA-256 is stored); the seat of an action comes
  from the token, never from the request.
* Every action carries a client id and the version (log length) it was made on. A
  repeated client id is answered with the stored answer and applied once; a version
  older than an entry that changed this seat's view is refused as stale.
* A daily challenge is its player's alone until its day (UTC) is over: everybody plays
  on the same dice that day, and a leader's sheet or moves would show them.

A :class:`LiveGame` is rebuilt from the log whenever in doubt (the log is the truth); the
service holds its lock while it reads or changes it. Nothing here writes: the service
stages an action (:class:`Staged`), the writer commits it, and :meth:`LiveGame.settle`
counts it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from mummy.bots.registry import bot_seed, make_agent
from mummy.core.errors import RuleError
from mummy.games import EVERYONE, KINDS, GameKind
from mummy.render.narrate import LOG_TAIL, NARRATORS, Line, log_entry
from mummy.server import clock
from mummy.server.errors import ServiceError
from mummy.server.play.marks import hinted, par_of
from mummy.server.play.wire import diff, encode
from mummy.server.store.models import ActionRow, GameRow, SeatRow

#: Undos a seat may make in one Tomb round (the log entries since the last roll): a round
#: has about ten actions, so no honest player comes near; place-and-undo in a loop grew
#: one game's log by 30,000 entries in a minute before.
MAX_UNDOS = 50
#: Log entries after which a game takes no more undos at all (every other action moves the
#: game on, so it still ends): a bound on what any game's replay or resync can cost.
MAX_LOG = 5_000
_UNDONE: Final = json.dumps({"action": "undo"})[1:-1]  # how an undo's stored answer names it


def hash_token(token: str) -> str:
    """What is stored of a seat's token: its SHA-256 (the token itself is the player's)."""
    return hashlib.sha256(token.encode()).hexdigest()


class LogEntry(Protocol):
    """A log entry as a copy follows it (an ``ActionRow``, or a row of its columns)."""

    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def affects(self) -> int: ...
    @property
    def client_id(self) -> str: ...
    @property
    def result(self) -> str: ...


@dataclass
class Staged:
    """An action the engine has applied in memory, before its commit."""

    client_id: str
    affects: int
    result: dict[str, Any]
    answer: str
    done: Future[None]
    entry: dict[str, Any] | None = None  # its line in the view's log (contracts §1)
    before: Any = None  # the game before the action, where it may be gone back to (GameService._stage)


@dataclass
class LiveGame:
    """A game in memory, rebuilt from the log whenever in doubt."""

    row: GameRow
    kind: GameKind
    game: Any
    config: dict[str, Any]
    seats: list[SeatRow]
    affects: list[int] = field(default_factory=list)  # per log entry
    answers: dict[str, tuple[int, str]] = field(default_factory=dict)  # client id -> (seat, result JSON)
    agents: dict[int, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)  # not re-entrant: see GameService.act_now
    used: float = field(default_factory=time.monotonic)  # its last use, for the cache (cache.py)
    # What every connection is sent after a move, made once per version: the public state
    # and each seat's legal actions (a broadcast asks for them once per connection).
    cached_version: int = -1
    cached_state: dict[str, Any] = field(default_factory=dict)
    cached_legal: dict[int, list[str]] = field(default_factory=dict)
    cached_actions: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    # The log's last entries in words, as views carry them (contracts §1): each action is
    # narrated once, when applied, so a view costs a copy of a short list.
    tail: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_TAIL))
    # Each seat's (and the spectators') view, and as JSON text, by (seat, revealable): what
    # a resync sends, made and encoded once per version (see view_text); and what a
    # broadcast sends, the patch from the views of an earlier version (``previous_views``,
    # the last version whose views were made) to this one's (see patch_text).
    cached_views: dict[tuple[int | None, bool], dict[str, Any]] = field(default_factory=dict)
    cached_texts: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    cached_patches: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    previous_version: int = -1
    previous_views: dict[tuple[int | None, bool], dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def rebuilt(cls, row: GameRow, seats: list[SeatRow], log: list[ActionRow]) -> LiveGame:
        """The game as stored: set up from its row, its log replayed as it is (the log was
        checked when written), and its bots ready to play."""
        kind = KINDS[row.kind]
        config = json.loads(row.config)
        game = kind.new(row.seed, config, [x.name for x in seats])
        live = cls(row, kind, game, config, seats)
        live.follow(log)
        live.agents = {x.seat: make_agent(row.kind, x.bot, bot_seed(row.seed, x.seat)) for x in seats if x.bot}
        return live

    def follow(self, log: Sequence[LogEntry]) -> None:
        """Apply log entries as they are (they were checked when written), in order from
        this version on: the whole log when the game is rebuilt, or what other processes
        committed since (``copies.Copies.catch_up``). An entry out of place raises
        ``ValueError``: the copy is not the log's, and must be rebuilt."""
        narrated = len(log) - LOG_TAIL  # only the entries a view shows are put in words
        for i, entry in enumerate(log):
            if entry.seq != self.version + 1:
                raise ValueError(f"log entry {entry.seq} does not follow version {self.version}")
            if i >= narrated:
                self.tail.append(self.apply(entry.seat, entry.text)[2])
            else:
                self.kind.apply(self.game, entry.seat, entry.text)
            self.affects.append(entry.affects)
            self.answers[entry.client_id] = (entry.seat, entry.result)
        if log:
            self.row.version, self.row.over = self.version, self.kind.is_over(self.game)

    @property
    def version(self) -> int:
        return len(self.affects)

    def apply(self, seat: int, text: str) -> tuple[str, int, dict[str, Any]]:
        """The engine applies the action (checked, it raises its refusal and nothing
        changes); the canonical text, the seat it affects, and its log entry in words."""
        narrator = NARRATORS.get(self.row.kind)  # (a game may have none: its notation says it)
        try:
            before = narrator.before(self.game, seat, text) if narrator else None
        except Exception:  # a sentence must never cost a move: the notation says it too
            before = None
        canonical, affects = self.kind.apply(self.game, seat, text)
        try:
            line = narrator.narrate(self.game, seat, canonical, before) if narrator else Line(canonical)
        except Exception:
            logging.getLogger("mummy.server").exception("narrating %r in game %s", canonical, self.row.id)
            line = Line(canonical)
        return canonical, affects, log_entry(self.version + 1, seat, self.seats[seat].name, canonical, line)

    def preview(self, token: str | None, text: str) -> dict[str, Any]:
        """What the action would do for the token's seat, on a copy (contracts §2): the
        engine's refusal as for an action; nothing here changes."""
        seat = self.seat_of(token)
        if self.kind.is_over(self.game) or (self.row.daily is not None and self.row.daily < clock.today()):
            raise ServiceError(409, "over", "the game is over", version=self.version)
        try:  # the engine's word first, on a copy: a refusal is the action's refusal
            canonical, _ = self.kind.apply(self.game.copy(), seat, text)
        except RuleError as exc:
            raise ServiceError(422, "illegal", str(exc), rule=exc.rule, where=exc.where,
                               version=self.version) from None
        except ValueError as exc:  # any other unreadable text, as an action's
            raise ServiceError(422, "illegal", f"notation: {exc}", rule="notation", version=self.version) from None
        try:
            out = NARRATORS[self.row.kind].preview(self.game, seat, canonical)
        except Exception:  # a bug in the words must not pass for a refusal, nor fail the page
            logging.getLogger("mummy.server").exception("previewing %r in game %s", canonical, self.row.id)
            out = {"action": canonical, "sentence": canonical, "warnings": [], "uses_after": -1}
        return {"version": self.version, **out}

    @property
    def finished(self) -> bool:
        """Whether the game is over (as committed), for the cache: let go of soon."""
        return bool(self.row.over)

    # -- the views of this version, made once -----------------------------------------------
    def _fresh(self) -> None:
        """Make this version's shared parts, once. What the entries since the last version
        made left as it was is kept: a seat that none of them affected (``affects``; in
        the Tomb, another player's move) has the same sheet and the same legal actions.
        With two players of a Tomb game, half the pictures of sheets and lists of legal
        actions the server made after each move were the ones it had made before."""
        if self.cached_version == self.version:
            return
        since = set(self.affects[self.cached_version:]) if 0 <= self.cached_version < self.version else {EVERYONE}
        if EVERYONE in since:
            sheets: dict[int, Any] = {}
            self.cached_legal, self.cached_actions = {}, {}
        else:
            shown = self.cached_state.get("sheets")
            sheets = {i: sheet for i, sheet in enumerate(shown or ()) if i not in since}
            self.cached_legal = {seat: x for seat, x in self.cached_legal.items() if seat not in since}
            self.cached_actions = {seat: x for seat, x in self.cached_actions.items() if seat not in since}
        self.cached_state = self.kind.view(self.game, sheets)
        if self.cached_views:  # else the views of an older version stay the base of a patch
            self.previous_version, self.previous_views = self.cached_version, self.cached_views
        self.cached_views, self.cached_texts, self.cached_patches = {}, {}, {}
        self.cached_version = self.version

    def state(self) -> dict[str, Any]:
        """The public state at this version (shared: callers must not change it)."""
        self._fresh()
        return self.cached_state

    def legal(self, seat: int) -> list[str]:
        """The seat's legal actions at this version (shared: callers must not change it)."""
        self._fresh()
        if seat not in self.cached_legal:
            self.cached_legal[seat] = [a["text"] for a in self.actions(seat)]
        return self.cached_legal[seat]

    def actions(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions as data (JSON form and text), at this version (shared)."""
        self._fresh()
        if seat not in self.cached_actions:
            self.cached_actions[seat] = self.kind.legal_json(self.game, seat)
        return self.cached_actions[seat]

    # -- who acts, and whether it may --------------------------------------------------------
    def holds(self, token: str | None) -> bool:
        """Whether the token holds a seat of this game."""
        try:
            self.seat_of(token)
        except ServiceError:
            return False
        return True

    def seat_of(self, token: str | None) -> int:
        """The seat this token holds; refused without a token or with another game's."""
        if not token:
            raise ServiceError(401, "unauthorized", "this needs your seat's token")
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ServiceError(403, "forbidden", "that token holds no seat in this game")

    def admit(self, token: str | None, client_id: str, version: int) -> tuple[int, dict[str, Any] | None]:
        """The acting seat, and the stored answer if this client id was seen before."""
        seat = self.seat_of(token)
        earlier = self.answers.get(client_id)  # the log's client ids, kept with the game
        if earlier is not None:
            if earlier[0] != seat:
                raise ServiceError(409, "conflict", "that client id was used by another seat")
            return seat, dict(json.loads(earlier[1]), repeated=True)
        if self.kind.is_over(self.game):
            raise ServiceError(409, "over", "the game is over", version=self.version)
        if self.row.daily is not None and self.row.daily < clock.today():
            raise ServiceError(409, "over", f"the daily challenge of {self.row.daily} has ended",
                               version=self.version)
        if not isinstance(version, int) or isinstance(version, bool) or version < 0 \
                or version > self.version or any(a in (EVERYONE, seat) for a in self.affects[version:]):
            raise ServiceError(409, "stale", f"the game has moved on to version {self.version}; "
                               "here is the current state", version=self.version)
        return seat, None

    def check_undo(self, seat: int) -> None:
        """Refuse an undo past the limits (``MAX_UNDOS`` a round, ``MAX_LOG`` a game).

        Undo is the one action that does not move a game on, so place-and-undo in a loop
        grew a log without end, and with it the cost of every resync and replay. Counted
        from what every game in memory keeps (rebuilt by a load, so a restart resets
        nothing): the entries since the last one that affected everybody (in the Tomb,
        the end of the last round; Treasure takes no undo online), one answer per entry.
        """
        if self.version >= MAX_LOG:
            raise ServiceError(429, "too_many_undos", f"this game's log has reached {MAX_LOG} entries: "
                               "it takes no more undos (every other action still counts)", rule="undo",
                               version=self.version)
        since = 0  # entries of the log since the round began
        for affects in reversed(self.affects):
            if affects == EVERYONE:
                break
            since += 1
        undos = sum(1 for who, answer in itertools.islice(reversed(self.answers.values()), since)
                    if who == seat and _UNDONE in answer)
        if undos >= MAX_UNDOS:
            raise ServiceError(429, "too_many_undos", f"at most {MAX_UNDOS} undos per seat in a round; "
                               "play on", rule="undo", version=self.version)

    def bot_seat(self) -> int | None:
        """The first seat whose bot has a move to make, if any."""
        if self.kind.is_over(self.game):
            return None
        return next((s for s in self.kind.to_act(self.game) if s in self.agents), None)

    # -- an action applied, and the game's end -----------------------------------------------
    def settle(self, staged: Staged) -> dict[str, Any]:
        """The action is in the log: the game in memory counts it."""
        self.affects.append(staged.affects)
        self.answers[staged.client_id] = (staged.result["seat"], staged.answer)
        if staged.entry is not None:
            self.tail.append(staged.entry)
        self.row.version, self.row.over = staged.result["version"], staged.result["over"]
        return staged.result

    def standing(self, final: dict[str, Any]) -> dict[str, Any]:
        """A finished game's leaderboard columns, as parameters of the game-ending stamp.

        A board ranks a person's solo game on a secret seed (a chosen seed's dice are
        known; a bot's score is no record for people): the Tomb by its score on a map,
        Treasure by the fewest turns to fill a site (R4.3). ``ranking`` is the order of
        both, lower first, so one index per shape of query serves both games."""
        solo = len(self.seats) == 1
        # A game with hints (coaching: a practice game) never ranks, as a chosen seed does not.
        ranked = solo and self.seats[0].bot is None and not self.config.get("seed_chosen") \
            and not hinted(self.config)
        if not solo:
            return {"b_ranked": False, "b_place": None, "b_score": None, "b_turns": None, "b_ranking": None}
        place, score, turns, ranking = self.kind.standing(self.config, final)
        return {"b_ranked": ranked and self.kind.rankable(final), "b_place": place, "b_score": score,
                "b_turns": turns, "b_ranking": ranking}

    # -- what is shown, and to whom ----------------------------------------------------------
    @property
    def revealable(self) -> bool:
        """A seed is revealed when its game is over, and for the daily challenge only once
        the day is over too: others are still playing on the same dice."""
        return bool(self.row.over) and (self.row.daily is None or self.row.daily < clock.today())

    def view_for(self, token: str | None) -> dict[str, Any]:
        """The game as a seat (its token) or a spectator (``None``) sees it."""
        seat = self.seat_of(token) if token else None
        if seat is None and self.row.daily is not None and self.row.daily >= clock.today():
            # Everybody plays on the same dice that day: a leader's sheet would show them.
            # Like its log (check_log), a daily challenge is its player's until the day ends.
            raise ServiceError(403, "forbidden", f"a daily challenge is seen only by its player until "
                               f"the day ({self.row.daily}, UTC) is over")
        over = self.kind.is_over(self.game)
        out: dict[str, Any] = {
            "id": self.row.id,
            "game": self.row.kind,
            "version": self.version,
            "commitment": self.row.commitment,
            "config": self.config,
            "seats": [{"seat": x.seat, "name": x.name, "bot": x.bot} for x in self.seats],
            "to_act": self.kind.to_act(self.game),
            "over": over,
            "you": seat,
            "state": self.state(),
            "log": list(self.tail),
        }
        if seat is not None and not over:
            out["legal"] = self.legal(seat)
            out["actions"] = self.actions(seat)
            out["can_undo"] = self.kind.can_undo(self.game, seat)
        if over:
            out["result"] = self.kind.result(self.game)
            par = par_of(self.row.result)
            if par is not None:  # the strongest bot on the same dice, once worked out (coaching.py)
                out["par"] = par
            if self.revealable:
                out["reveal"] = {"seed": self.row.seed, "nonce": self.row.nonce}
        if self.row.daily:
            out["daily"] = self.row.daily
        if self.row.rematch is not None:  # its players are asked to join it (GameService.rematch)
            out["rematch"] = self.row.rematch
        return out

    def view_text(self, token: str | None) -> str:
        """:meth:`view_for` as JSON text, encoded once per version and seat: a game's
        spectators share one, and a resync at a version already sent costs a lookup. (A
        spectator of a daily challenge still running is refused each time: nothing of
        that is kept.) Keyed by whether the seed is revealed too, which changes with the
        day and not with the version."""
        return self._text(self._key(token), token)

    def _text(self, key: tuple[int | None, bool], token: str | None) -> str:
        text = self.cached_texts.get(key)
        if text is None:
            text = self.cached_texts[key] = encode(self._view(key, token))
        return text

    def _key(self, token: str | None) -> tuple[int | None, bool]:
        """Which of this version's views a token is sent: its seat's (or the spectators'),
        with the seed revealed or not."""
        seat = self.seat_of(token) if token else None
        self._fresh()
        return seat, self.revealable

    def _view(self, key: tuple[int | None, bool], token: str | None) -> dict[str, Any]:
        view = self.cached_views.get(key)
        if view is None:
            view = self.cached_views[key] = self.view_for(token)
        return view

    def views_changed(self) -> None:
        """The views of this version changed with no action (a rematch was made, par was
        worked out, hints were turned on): they are made again, and the next broadcast
        sends them whole to the clients at this version (a client may have either view of
        it, the one before or the new one: no patch would be right for both)."""
        self.cached_views, self.cached_texts, self.cached_patches = {}, {}, {}

    def patch_text(self, token: str | None) -> tuple[int, int, str] | None:
        """What changed in the token's view since the last version whose views were made:
        ``(base, version, operations)``, the JSON Patch's operations as JSON text without
        their brackets (``wire.delta_message``), made once per version and view; None when
        there is no such view to start from (a client that has another version is sent
        the whole view, :meth:`view_text`)."""
        return self._patch(self._key(token), token)

    def _patch(self, key: tuple[int | None, bool], token: str | None) -> tuple[int, int, str] | None:
        # The seed revealed at the end changes the key, not the seat: the client had the
        # view before it (a patch from it adds the seed).
        before = self.previous_views.get(key) or self.previous_views.get((key[0], not key[1]))
        if before is None or self.previous_version >= self.cached_version:
            return None
        text = self.cached_patches.get(key)
        if text is None:
            text = self.cached_patches[key] = encode(diff(before, self._view(key, token)))[1:-1]
        return self.previous_version, self.cached_version, text

    def update_for(self, token: str | None, have: int) -> tuple[int, int | None, str]:
        """What a client with the view of version ``have`` is sent to reach this version:
        ``(version, base, patch operations)`` when a patch from ``have`` was made
        (:meth:`patch_text`), else ``(version, None, the whole view)``."""
        key = self._key(token)  # (a token's seat found once: a hash)
        found = self._patch(key, token)
        if found is not None and found[0] == have:
            return found[1], found[0], found[2]
        return self.version, None, self._text(key, token)

    def record(self) -> dict[str, Any]:
        """The finished game's record with its seed revealed (for ``mummy verify``)."""
        if not self.kind.is_over(self.game):
            raise ServiceError(409, "not_over", "the seed stays secret until the game is over")
        if not self.revealable:
            raise ServiceError(409, "not_over", "a daily challenge's seed stays secret until the day is over")
        record = self.kind.record(self.game)
        record["commitment"] = self.row.commitment
        record["nonce"] = self.row.nonce
        return record

    def check_log(self, token: str | None) -> None:
        """The gate of a game's log entries: anyone's (spectators saw every move as it was
        made), except a daily challenge's until its day is over, which are its seats'
        alone: everybody plays on the same dice that day, and a leader's moves would
        show them. (Records and replays wait for the end of the day even for a seat,
        see :attr:`revealable`.)"""
        if self.row.daily is None or self.row.daily < clock.today():
            return
        if not token:
            raise ServiceError(409, "not_over", f"the moves of a daily challenge are its player's until "
                               f"the day ({self.row.daily}) is over")
        self.seat_of(token)  # 403 unless the token holds a seat here
