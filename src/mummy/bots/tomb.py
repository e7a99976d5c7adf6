"""Tomb bots: random, greedy and strong.

* ``random``: a uniformly random legal action.
* ``greedy``: the action with the best immediate gain, by :func:`gain` (the score now,
  plus coins, keys and circled monsters at a fixed worth), looking one action ahead.
* ``strong``: plans the whole round at once. All of a round's dice are known once it is
  rolled, so it runs a beam search over sequences of the round's actions (tiles,
  defeats, keys, coin adjustments, chosen dice, Wand and Shovel uses) and scores each
  end-of-round sheet with :func:`evaluate`, which values what a sheet *will* be worth:
  reachable findings by their distance from the open openings, circled monsters by what
  defeating them pays, keys for pending sarcophagi and mimics, unlocked Mummy boxes by
  the points a hit is still worth, and openings as room to grow early but as penalties
  near the end, when it closes them.

Bots use the engine's fast path (``push``/``undo``) to look ahead and leave the game as
they found it; a die bought for 2 coins is weighed on the engine's copies of the game with
each face bought (:meth:`~mummy.tomb.game.TombGame.with_bought_die`). Rule constants and
monster preconditions come from :mod:`mummy.tomb.rules`, never copied here. Everything is
seeded: the same seed and game give the same actions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from mummy.bots.base import SeededAgent, moves_of
from mummy.core.errors import IllegalActionError
from mummy.tomb.actions import ADD, BUY, CHOOSE, DIG, DOWN, END, ERASE, UP, Action
from mummy.tomb.game import TombGame
from mummy.tomb.rules import (
    ALERTS_PER_BOX,
    HIT_MULTIPLIERS,
    MUMMY_BOXES,
    ROUNDS,
    hit_worth,
    monster_targets,
    mummy_boxes_unlocked,
)
from mummy.tomb.scoring import score
from mummy.tomb.sheet import PLAY, Sheet


@dataclass(frozen=True)
class Weights:
    """The worth the strong bot puts on what is not yet points (tuned by simulation)."""

    coin: float = 1.0
    key_needed: float = 3.0
    key_spare: float = 1.0
    ooze: float = 3.0
    skeleton: float = 3.0
    sarcophagus: float = 3.0
    zombie: float = 6.0
    golem_ready: float = 7.0
    golem_alone: float = 2.0
    gem_alone: float = 2.0
    mimic: float = 3.0
    mark: float = 1.2
    reach_decay: float = 0.72
    item_find: float = 9.0
    key_find: float = 4.0
    entrance_find: float = 5.0
    room_find: float = 5.0
    mummy_box: float = 0.7
    opening_early: float = 1.5
    item_use: float = 2.5
    spare_openings: int = 3


W = Weights()


def _finding_values(sheet: Sheet, w: Weights) -> dict[int, float]:
    """The worth of each uncollected finding on a free square (T5.1)."""
    out: dict[int, float] = {}
    for sq, (kind, what) in sheet.map.finding_at.items():
        if kind == "coins":
            out[sq] = w.coin * float(what)
        elif kind == "key":
            out[sq] = w.key_find
        elif kind == "ooze":
            out[sq] = w.ooze
        elif kind == "golem":
            out[sq] = w.golem_alone + 2.0
        elif kind == "mimic":
            out[sq] = w.mimic
        elif kind == "item":
            out[sq] = w.item_find
    return out


_FIND_CACHE: dict[tuple[str, Weights], tuple[dict[int, float], dict[int, float]]] = {}


def targets(sheet: Sheet, w: Weights) -> tuple[dict[int, float], dict[int, float]]:
    """Per map: square -> worth of the finding on it, and square -> worth of reaching it
    for an entrance or a room opening facing it."""
    key = (sheet.map.id, w)
    hit = _FIND_CACHE.get(key)
    if hit is None:
        m = sheet.map
        g = m.grid
        door: dict[int, float] = {}
        for sq, _side in m.spec.entrances:
            door[sq] = door.get(sq, 0.0) + w.entrance_find
        for room in m.spec.rooms:
            x, y = g.xy(room.square)
            dx, dy = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[room.side]
            facing = g.square(x + dx, y + dy)
            door[facing] = door.get(facing, 0.0) + w.room_find
        hit = _FIND_CACHE[key] = (_finding_values(sheet, w), door)
    return hit


#: Per map and weights: square -> worth of reaching it (a finding on it, an entrance or a
#: room opening it faces), and the mask of those squares.
_WORTH: dict[tuple[str, Weights], tuple[dict[int, float], int]] = {}


def _worth(sheet: Sheet, w: Weights) -> tuple[dict[int, float], int]:
    key = (sheet.map.id, w)
    hit = _WORTH.get(key)
    if hit is None:
        finds, doors = targets(sheet, w)
        worth = {sq: finds.get(sq, 0.0) + doors.get(sq, 0.0) for sq in set(finds) | set(doors)}
        mask = sheet.map.findings_mask
        for sq in doors:
            mask |= 1 << sq
        hit = _WORTH[key] = (worth, mask)
    return hit


def reach_value(sheet: Sheet, w: Weights, rounds_left: int) -> float:
    """Uncollected findings, entrances and rooms, discounted by how many squares lie
    between them and the dungeon's open openings (a flood fill over free squares, at most
    ``2 * rounds_left`` steps). Most of :func:`evaluate`'s time, and the expert bot
    evaluates a hundred thousand sheets a game: the squares beyond the open openings come
    from four shifts of the openings' bitboard (an edge's number is its square's, T1 grid
    layout) instead of a loop over the openings, and the worth of each square is looked up
    once (a test checks it against the plain flood fill, tests/bots/test_tomb_expert.py)."""
    m = sheet.map
    g = m.grid
    stride = g.stride
    free = m.free & ~sheet.covered
    oo = sheet.open_openings()
    if not oo:
        return 0.0
    off = g.edge_offset
    frontier = free & (oo | (oo >> stride) | (oo >> off) | (oo >> (off + 1)))
    worth, wanted = _worth(sheet, w)
    value = 0.0
    factor = 1.0
    seen = frontier
    depth = 0
    horizon = max(2, min(14, rounds_left * 2))
    decay = w.reach_decay
    while frontier and depth < horizon:
        hit = frontier & wanted
        while hit:
            low = hit & -hit
            value += factor * worth[low.bit_length() - 1]
            hit ^= low
        nxt = ((frontier << 1) | (frontier >> 1) | (frontier << stride) | (frontier >> stride)) & free & ~seen
        seen |= nxt
        frontier = nxt
        factor *= decay
        depth += 1
    return value



def gain(sheet: Sheet) -> float:
    """The greedy bot's measure: points now (penalties included) plus fixed worths."""
    sc = score(sheet)
    w = W
    pending = (sheet.sarc_found - sheet.sarc_opened) + (sheet.mimics_found - sheet.mimics_defeated)
    return (sc.total + w.coin * sheet.coins + (w.key_needed if pending else w.key_spare) * sheet.keys
            + w.ooze * (sheet.oozes_found - sheet.oozes_defeated)
            + w.mimic * (sheet.mimics_found - sheet.mimics_defeated)
            + w.mark * sheet.marks.bit_count())


def evaluate(sheet: Sheet, round_no: int, w: Weights = W) -> float:
    """What the strong bot thinks a sheet is worth at the end of round ``round_no``."""
    s = sheet
    sc = score(s)
    lines = sc.lines
    left = ROUNDS - round_no  # rounds still to play after this one
    value = float(sc.total - lines["penalties"])
    # Openings: room to grow while rounds remain, penalties at the end (T7).
    oo, oe, orr = sc.open_openings, sc.open_entrances, sc.open_rooms
    if left <= 0:
        value += lines["penalties"]
    else:
        ramp = min(1.0, left / 8.0)
        per = -3.0 + (3.0 + w.opening_early) * ramp
        useful = min(oo, w.spare_openings)
        extra = -3.0 + 2.0 * ramp  # more openings than needed: a cost, sure by the end
        value += per * useful + extra * (oo - useful)
        value -= (oe + orr) * (3.0 - 2.0 * min(1.0, left / 10.0))
        if oo == 0:
            value -= 15.0 * min(1.0, left / 4.0)  # a closed dungeon cannot grow
    live = min(1.0, (left + 1) / 4.0)
    # Coins and keys.
    value += (w.coin * min(s.coins, 12) + 0.3 * max(0, s.coins - 12)) * live
    # Item uses left: the Wand and the Shovel close openings at the end, the Hammer and
    # the Skeleton Key stand in for a die or a key.
    value += w.item_use * sum(s.item_uses) * live
    pending = (s.sarc_found - s.sarc_opened) + (s.mimics_found - s.mimics_defeated)
    keys = s.keys
    value += (w.key_needed * min(keys, pending) + w.key_spare * max(0, keys - pending)) * live
    # Circled monsters: what defeating them will pay.
    value += live * (
        w.ooze * (s.oozes_found - s.oozes_defeated)
        + w.skeleton * (s.oozes_defeated - s.skel_defeated.bit_count())
        + w.sarcophagus * (s.sarc_found - s.sarc_opened)
        + w.zombie * (s.sarc_opened - s.zombies_defeated)
        + w.golem_ready * (s.golems_found & s.gems_found & ~s.golems_defeated).bit_count()
        + w.golem_alone * (s.golems_found & ~s.gems_found).bit_count()
        + w.gem_alone * (s.gems_found & ~s.golems_found).bit_count()
        + w.mimic * (s.mimics_found - s.mimics_defeated)
    )
    # The Mummy: unlocked boxes still empty, and the alerts towards the next one.
    hits = len(s.hits)
    unlocked = mummy_boxes_unlocked(s)
    future_round = min(ROUNDS, round_no + 2)
    for k in range(hits, min(unlocked, MUMMY_BOXES)):
        value += w.mummy_box * hit_worth(future_round) * HIT_MULTIPLIERS[k]
    if unlocked < MUMMY_BOXES and left > 1:
        value += (0.25 * (s.alerts % ALERTS_PER_BOX) * hit_worth(future_round)
                  * HIT_MULTIPLIERS[min(unlocked, MUMMY_BOXES - 1)] / ALERTS_PER_BOX)
    # The Tile Table: marks lead to bonus dice and keys (T2.4).
    value += w.mark * s.marks.bit_count() * live
    # What the dungeon can still reach.
    if left > 0:
        value += reach_value(s, w, left) * min(1.0, left / 6.0)
    return value


class RandomTombAgent(SeededAgent):
    """A uniformly random legal action."""

    name = "random"

    def act(self, game: TombGame, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))


def _useful(game: TombGame, seat: int, actions: list[Action]) -> list[Action]:
    """Prune actions that are rarely worth a die: the Wand's erase unless it connects a
    closed entrance or room, and a two-way Shovel square (it only moves an opening along).
    Closing moves (a Wand wall, a one-way Shovel square) stay: the evaluation decides."""
    sheet = game.sheets[seat]
    m = sheet.map
    out = []
    for a in actions:
        k = a.kind
        if k in (END, BUY):
            continue
        if k == ERASE:
            if not (m.connectable >> a.edge & 1):
                continue
        elif k == ADD or (k == DIG and len(a.orient) == 1):
            pass  # closing an opening: the evaluation decides when it pays
        elif k == DIG:
            continue  # a two-way Shovel square only moves an opening along
        out.append(a)
    return out


class GreedyTombAgent(SeededAgent):
    """The best immediate gain (:func:`gain`), one action ahead."""

    name = "greedy"

    def act(self, game: TombGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        sheet = game.sheets[seat]
        candidates = _useful(game, seat, legal) or [a for a in legal if a.kind != BUY]
        if any(a.kind == END for a in legal):
            candidates.append(Action(END))
        base = gain(sheet)
        best, best_value = None, -1e9
        for a in candidates:
            if a.kind == END:
                v = base
            else:
                game.push(seat, a)
                v = gain(game.sheets[seat])
                game.undo(seat)
            v += self.rng.random() * 1e-6
            if v > best_value:
                best, best_value = a, v
        assert best is not None
        return best


class Planner(SeededAgent):
    """A bot that plans several moves at once and plays them over several calls of ``act``
    (the strong and expert bots plan a round), the rest of the plan kept between calls.

    What it plays must be a function of the game, as a seeded agent's draws are
    (:mod:`mummy.bots.base`), or a server that rebuilt the game from its log after a
    restart, with a new agent, would play differently from one that had kept its agent.
    So a plan is kept with the position it goes on from (the seat and its number of moves):

    * at that position, the plan is this agent's own, made for this game: it goes on;
    * anywhere else (a new agent on a game under way, or one that has missed moves) the
      plan is rebuilt: the seat's moves since its last ``end`` or ``buy`` (where every
      plan ends: the round is over, or a die rolled) are played again by this agent on
      the game as it stood before them (:meth:`resume`). They are its own moves (a bot's
      seat is played by nothing else), so it plans the same plans on the way, and stands
      where an agent that never stopped would stand. Moves it would not have made (a
      person's seat, a search cut short by the clock) leave it with no plan: it plans
      afresh, as it would anywhere.

    Keyed by the seat's own moves, not the game's, a plan also survives other seats'
    moves in between: in the Tomb seats play the round side by side, and whether a
    person moves before or after a bot changes nothing of what the bot does.

    Rebuilding is for a bot that plays a seat of its own (``resume``; every bot
    :func:`~mummy.bots.registry.make_agent` makes, as the server, the simulator and the
    terminal seat them). An agent asked about someone else's moves (a person's hint, a
    review: ``mummy.analysis``) would only replay a search to find that they are not its
    own, so by default it plans afresh at once, as it would after replaying. (An agent
    that never stops, as in a simulation, never replays at all: the results are the same
    either way.)

    Forced moves and the plan's next steps are played here (:meth:`_planned`); subclasses
    make each new decision in :meth:`choose`, leaving the rest of their plan in
    ``self._plan``."""

    name = "planner"

    def __init__(self, seed: int = 0, time_limit: float | None = None, resume: bool = False) -> None:
        super().__init__(seed, time_limit)
        #: Whether to rebuild a plan by replaying the seat's moves (:meth:`resume`): for a
        #: bot whose seat's moves are all its own (see the class's docstring).
        self.resume_plans = resume
        self._plan: list[Action] = []
        self._at: tuple[int, int] | None = None  # (seat, its moves) where the plan goes on

    def act(self, game: TombGame, seat: int) -> Action:
        here = (seat, moves_of(game, seat))
        if self._at != here:
            self.forget()
            if self.resume_plans and self.resume(game, seat):
                self.reseed(game, seat)  # the replay drew from the stream: this decision's own again
        action = self._planned(game, seat)
        if action.kind in (END, BUY):
            self._plan = []  # a round's end or a die's roll ends every plan
        self._at = (seat, here[1] + 1)
        return action

    def _planned(self, game: TombGame, seat: int) -> Action:
        """A forced move (and the next decision plans afresh), the plan's next step while
        it is still legal, or else a new decision (:meth:`choose`)."""
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            self._plan = []
            return legal[0]
        if self._plan and game.is_legal(seat, self._plan[0]):
            return self._plan.pop(0)
        self._plan = []
        return self.choose(game, seat, legal)

    def choose(self, game: TombGame, seat: int, legal: list[Action]) -> Action:
        """A new decision among ``legal`` (more than one), with no plan to go on with; it
        may leave the rest of a plan in ``self._plan`` for the next calls."""
        raise NotImplementedError

    def forget(self) -> None:
        """No plan: the next decision plans afresh."""
        self._plan = []
        self._at = None

    def resume(self, game: TombGame, seat: int) -> bool:
        """Rebuild the plan by playing the seat's moves since its last ``end`` or ``buy``
        again, on the game as it stood before them (set up from the seed and the history
        before them; the game itself is not touched). Whether there were any; if one of
        them is not what this agent plays there, it is left with no plan."""
        history = game.history
        first = None
        for i in range(len(history) - 1, -1, -1):
            who, action = history[i]
            if who != seat:
                continue
            if action.kind in (END, BUY):
                break
            first = i
        if first is None:
            return False
        board = TombGame(game.seed, game.players, shared_buys=game.shared_buys)
        try:
            for who, action in history[:first]:
                board.apply(who, action)
            for who, action in history[first:]:
                if who == seat and self.act(board, seat) != action:
                    self.forget()
                    return True
                board.apply(who, action)
        except IllegalActionError:  # a history that does not replay from the seed (a search copy)
            self.forget()
            return True
        if board.sheets[seat] != game.sheets[seat]:
            self.forget()
        return True


class StrongTombAgent(Planner):
    """Beam search over the whole round, scored by :func:`evaluate`."""

    name = "strong"

    def __init__(self, seed: int = 0, time_limit: float | None = None, beam: int = 14,
                 branch: int = 36, depth: int = 7, weights: Weights = W, choose_any: bool = True,
                 buy: bool = True, resume: bool = False) -> None:
        super().__init__(seed, time_limit, resume)
        self.beam = beam
        self.branch = branch
        self.depth = depth
        self.weights = weights
        self.choose_any = choose_any
        self.buy = buy

    def choose(self, game: TombGame, seat: int, legal: list[Action]) -> Action:
        value, plan = self._search(game, seat)
        if self.buy and any(a.kind == BUY for a in legal):
            # A die rolled for 2 coins is a chance event: buy when the average best round
            # over its six faces beats the best round without it.
            outcomes = [self._search(game.with_bought_die(seat, face), seat)[0] for face in range(1, 7)]
            if sum(outcomes) / 6 > value + 0.5:
                return Action(BUY)
        if not plan:
            if any(a.kind == END for a in legal):
                return Action(END)
            plan = self._search(game, seat, everything=True)[1]  # only unusual moves are left
        if not plan:
            return legal[0]
        self._plan = plan[1:]
        return plan[0]

    def _candidates(self, game: TombGame, seat: int, seq: list[Action], everything: bool) -> list[Action]:
        sheet = game.sheets[seat]
        legal = game.legal_actions(seat)
        acts = ([a for a in legal if a.kind not in (END, BUY)] if everything
                else _useful(game, seat, legal))
        # Coins: turn dice one way only in a round, never back and forth. Chosen dice (3
        # coins) of any value by default (choose_any); else only values that defeat
        # something or hit the Mummy.
        adjusted = [a for a in seq if a.kind in (UP, DOWN)]
        out = []
        for a in acts:
            if a.kind in (UP, DOWN):
                # One direction per round, so coins are never spent going back and forth.
                if len(adjusted) >= 3 or any(b.kind != a.kind for b in adjusted):
                    continue
            elif a.kind == CHOOSE and not self.choose_any and a.value not in self._wanted_values(sheet):
                continue
            out.append(a)
        return out

    @staticmethod
    def _wanted_values(sheet: Sheet) -> set[int]:
        """Die values worth choosing: those that can defeat something now, by the engine's
        own preconditions (T5.3, T5.6); a 5 only while a key is held."""
        return {v for v in range(1, 7) if monster_targets(sheet, v) and (v != 5 or sheet.keys)}

    def _search(self, game: TombGame, seat: int, everything: bool = False) -> tuple[float, list[Action]]:
        """The best sequence of actions for the rest of the round, and its value."""
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        round_no = game.round if game.sheets[seat].phase == PLAY else ROUNDS
        start = evaluate(game.sheets[seat], round_no, self.weights)
        beam: list[tuple[float, list[Action]]] = [(start, [])]
        best_done: tuple[float, list[Action]] = (-1e18, [])
        for _ in range(self.depth):
            children: list[tuple[float, list[Action]]] = []
            for _value, seq in beam:
                for a in seq:
                    game.push(seat, a)
                sheet = game.sheets[seat]
                if sheet.phase != PLAY or all(d.used for d in sheet.row):
                    v = evaluate(sheet, round_no, self.weights)
                    if v > best_done[0]:
                        best_done = (v, seq)
                scored = []
                for a in self._candidates(game, seat, seq, everything):
                    game.push(seat, a)
                    scored.append((evaluate(game.sheets[seat], round_no, self.weights)
                                   + self.rng.random() * 1e-6, a))
                    game.undo(seat)
                scored.sort(key=lambda x: -x[0])
                children.extend((v, [*seq, a]) for v, a in scored[: self.branch])
                for _a in seq:
                    game.undo(seat)
                if deadline and time.perf_counter() > deadline:
                    break
            if not children:
                break
            children.sort(key=lambda x: -x[0])
            beam = children[: self.beam]
            if deadline and time.perf_counter() > deadline:
                break
        # Finish with the best sequence that uses every die; else the best partial one.
        best_done = self._best_finished(game, seat, beam, best_done)
        if best_done[1] or best_done[0] > -1e17:
            return best_done
        return beam[0] if beam else (start, [])

    @staticmethod
    def _best_finished(game: TombGame, seat: int, beam: list[tuple[float, list[Action]]],
                       best: tuple[float, list[Action]]) -> tuple[float, list[Action]]:
        """The best of ``best`` and the sequences of the last beam that use every die
        (played out and taken back, so the game is left as it was)."""
        for v, seq in beam:
            for a in seq:
                game.push(seat, a)
            sheet = game.sheets[seat]
            done = sheet.phase != PLAY or all(d.used for d in sheet.row)
            for _a in seq:
                game.undo(seat)
            if done and v > best[0]:
                best = (v, seq)
        return best


__all__ = ["GreedyTombAgent", "Planner", "RandomTombAgent", "StrongTombAgent", "Weights", "evaluate", "gain",
           "reach_value", "targets"]
