"""The Mummy's Tomb rules engine (T1–T8): the game, its rounds, and its two paths of play.

Design, after python-chess and OpenSpiel:

* A :class:`TombGame` holds the seed, the players' sheets and the action history. The
  dice are a pure function of the seed (:mod:`mummy.core.rng`), so a game is its seed
  plus its actions and replays exactly (T4.6).
* :meth:`TombGame.legal_actions` lists every legal action of a player, each once
  (equal dice in one row are interchangeable, so an action is listed with the lowest
  slot holding that value; symmetric orientations count once).
* :meth:`TombGame.apply` is the checked path: it refuses an illegal action with an
  :class:`~mummy.core.errors.IllegalActionError` naming the rule and the square or edge,
  and then nothing has changed. :meth:`TombGame.push` is the fast unchecked path for
  search, which trusts its caller to pass a legal action.
* :meth:`TombGame.undo` goes back one action of a player, as far as the last random
  event (a roll of the round's dice or a die bought with 2 coins).

The engine is split by concern; this module holds the game and its round flow:

* :mod:`mummy.tomb.rules`: constants (rounds, row size, alerts...), the dice streams and
  the rule predicates several places ask (can a monster be defeated, may a wall be erased);
* :mod:`mummy.tomb.moves`: legal-move generation (the hot path);
* :mod:`mummy.tomb.checks`: checking one action, each refusal naming its rule and place;
* :mod:`mummy.tomb.effects`: applying a legal action to a sheet.

The names other packages import from here (``ROUNDS``, ``ALERTS``, ``round_dice``...)
stay importable from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mummy.core.errors import IllegalActionError
from mummy.core.protocol import EVERYONE, Chance
from mummy.tomb.actions import BUY, END, Action
from mummy.tomb.board import TombMap, tomb_map
from mummy.tomb.checks import Checker
from mummy.tomb.content import COLOURS
from mummy.tomb.effects import apply as apply_effects
from mummy.tomb.effects import buy
from mummy.tomb.moves import legal_actions as legal_on_sheet
from mummy.tomb.rules import (
    ALERTS,
    HIT_MULTIPLIERS,
    ROUNDS,
    ROW_SIZE,
    bought_die,
    illegal,
    round_dice,
)
from mummy.tomb.scoring import score
from mummy.tomb.sheet import AFTER, DONE, PLAY, WAITING, Die, Sheet


@dataclass(frozen=True)
class PlayerSetup:
    """Who sits at a sheet: a name, a map (T8.3) and a mode (T8.2)."""

    name: str = "player"
    map: str = "map1"
    mode: str = "standard"


class TombGame:
    """A game of The Mummy's Tomb for one or more players on shared seeded dice."""

    def __init__(self, seed: int, players: Sequence[PlayerSetup] | int = 1, *,
                 shared_buys: bool = False) -> None:
        """``shared_buys`` is the rule before T4.6 gave each seat its own bought-die stream:
        the k-th bought die was the same for every player. Only old records (version 1)
        and games stored under that rule replay with it."""
        if isinstance(players, int):
            players = [PlayerSetup(name=f"player {i + 1}") for i in range(players)]
        if not players:
            raise ValueError("a game needs at least one player (T8.1)")
        self.seed = seed
        self.shared_buys = shared_buys
        self.players: tuple[PlayerSetup, ...] = tuple(players)
        self.maps: tuple[TombMap, ...] = tuple(tomb_map(p.map) for p in self.players)
        self.sheets: list[Sheet] = [Sheet(m, p.mode) for m, p in zip(self.maps, self.players,
                                                                     strict=True)]
        self.round = 1
        self.history: list[tuple[int, Action]] = []
        self.chances: list[Chance] = []  # every roll so far: the rounds' dice, bought dice
        self._undo: list[list[Sheet]] = [[] for _ in self.players]
        self._start_round()

    def copy(self) -> TombGame:
        """A copy to search on: sheets copied (plain data), maps shared, nothing to undo."""
        return self._copy_of(range(len(self.sheets)))

    def seated(self, seat: int) -> TombGame:
        """A one-player game of this seat's sheet as it stands (for solo search): the
        same seed, map and round, nothing to undo, no history."""
        new = self._copy_of([seat])
        new.players = (self.players[seat],)
        new.maps = (self.maps[seat],)
        new.history = []
        new.chances = [c if c.seat == EVERYONE else c._replace(seat=0) for c in self.chances
                       if c.seat in (EVERYONE, seat)]
        return new

    def _copy_of(self, seats: Iterable[int]) -> TombGame:
        """A game with this one's fields, copies of these seats' sheets, its own history
        and chances, and nothing to undo."""
        new = TombGame.__new__(TombGame)
        sheets = [self.sheets[i].copy() for i in seats]
        vars(new).update(self.__dict__, sheets=sheets, history=list(self.history),
                         chances=list(self.chances), _undo=[[] for _ in sheets])
        return new

    # -- rounds ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        a, b = round_dice(self.seed, self.round)
        self.chances.append(Chance(EVERYONE, f"round {self.round}", (a, b)))
        for sheet in self.sheets:
            carried = tuple(Die(v, "bonus") for v in sheet.next_bonus)
            sheet.row = (*carried, Die(a, "roll"), Die(b, "roll"))
            sheet.next_bonus = ()
            sheet.phase = PLAY
        for stack in self._undo:
            stack.clear()

    def _maybe_advance(self) -> None:
        phases = {s.phase for s in self.sheets}
        if phases == {WAITING}:
            if self.round < ROUNDS:
                self.round += 1
                self._start_round()
            else:
                for sheet in self.sheets:
                    sheet.phase = AFTER
                    sheet.row = ()
                for stack in self._undo:
                    stack.clear()

    @property
    def is_over(self) -> bool:
        """True once every player has finished (T4.5); final scoring applies."""
        return all(s.phase == DONE for s in self.sheets)

    @property
    def seat_count(self) -> int:
        return len(self.sheets)

    def to_act(self) -> list[int]:
        """The players who may act now: everyone still playing the round (T4.2) or the
        turn after the last round (T4.5), at once."""
        return [i for i, s in enumerate(self.sheets) if s.phase in (PLAY, AFTER)]

    def returns(self) -> list[float]:
        """Each player's score as it stands (T7): final once the game is over."""
        return [float(score(s).total) for s in self.sheets]

    @property
    def dice(self) -> tuple[int, int]:
        """The current round's two shared dice."""
        return round_dice(self.seed, self.round)

    # -- checked path ----------------------------------------------------------------------
    def apply(self, player: int, action: Action) -> Action:
        """Check and apply an action; return it as recorded (canonical form). What happened
        worth telling (a lost die...) is added to the player's ``sheet.events``.

        Raises :class:`IllegalActionError` naming the rule, and leaves everything as it
        was, if the action is not legal for this player now.
        """
        return self.push(player, self.check(player, action))

    def check(self, player: int, action: Action) -> Action:
        """Raise :class:`IllegalActionError` unless ``action`` is legal for ``player``.

        Returns the action in canonical form: a tile written with another name of the
        same orientation (``5a.r1`` for the symmetric cross) becomes the canonical name
        (T2.2), which is what the engine records and what :meth:`legal_actions` lists.
        """
        if not 0 <= player < len(self.sheets):
            raise illegal("T8.1", f"there is no player {player}")
        return Checker(self.sheets[player], self.round).check(action)

    def is_legal(self, player: int, action: Action) -> bool:
        try:
            self.check(player, action)
        except IllegalActionError:
            return False
        return True

    # -- fast path -------------------------------------------------------------------------
    def push(self, player: int, action: Action, *, keep_undo: bool = True) -> Action:
        """Apply an action without checking it (the caller guarantees it is legal)."""
        sheet = self.sheets[player]
        if keep_undo:
            self._undo[player].append(sheet.copy())
        random_event = apply_effects(self, player, sheet, action)
        self.history.append((player, action))
        if random_event:
            self._undo[player].clear()
        if action.kind == END:
            self._maybe_advance()
            if self.is_over:  # the game is over: final scores stand
                for stack in self._undo:
                    stack.clear()
        return action

    def undo(self, player: int) -> Action:
        """Take back the player's last action, back to the last random event (T4.6)."""
        stack = self._undo[player]
        if not stack:
            raise illegal("undo", "nothing to undo since the last roll of the dice")
        self.sheets[player] = stack.pop()
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i][0] == player:
                return self.history.pop(i)[1]
        raise AssertionError("undo stack and history disagree")

    def can_undo(self, player: int) -> bool:
        return bool(self._undo[player])

    def undo_depth(self, player: int) -> int:
        """How many of the player's actions :meth:`undo` can take back now (to the last
        random event): part of a game's state, as tests that check "nothing changed" see it."""
        return len(self._undo[player])

    # -- chance ----------------------------------------------------------------------------
    def with_bought_die(self, seat: int, face: int) -> TombGame:
        """A search copy of this game (see :meth:`copy`) in which ``seat`` has just bought a
        die for 2 coins and it showed ``face`` (T4.3): for weighing a purchase over the six
        faces before making it, while this game stays as it is. Raises
        :class:`IllegalActionError` if the seat may not buy a die now."""
        self.check(seat, Action(BUY))
        if not 1 <= face <= 6:
            raise ValueError(f"a die shows 1 to 6, not {face}")
        new = self.copy()
        buy(new, seat, new.sheets[seat], face)
        return new

    # -- legal actions ---------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of the player, each once."""
        return legal_on_sheet(self.sheets[player])


def replay(seed: int, players: Sequence[PlayerSetup], actions: Iterable[tuple[int, Action]], *,
           shared_buys: bool = False) -> TombGame:
    """Rebuild a game from its seed and actions (checked); raises on the first bad one."""
    game = TombGame(seed, players, shared_buys=shared_buys)
    for player, action in actions:
        game.apply(player, action)
    return game


__all__ = [
    "ALERTS",
    "COLOURS",
    "HIT_MULTIPLIERS",
    "ROUNDS",
    "ROW_SIZE",
    "PlayerSetup",
    "TombGame",
    "bought_die",
    "replay",
    "round_dice",
]
