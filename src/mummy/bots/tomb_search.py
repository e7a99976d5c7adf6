"""The expert Tomb bot: the strong bot's round planning, with a look at the dice to come.

The strong bot (:mod:`mummy.bots.tomb`) plans each round by a beam search and scores the
end-of-round sheet with :func:`~mummy.bots.tomb.evaluate`, a hand-made guess at what the
sheet will be worth. The guess is blind to what the *next* dice can do with the sheet:
two plans that look alike may leave one sheet where most rolls have a good use and one
where few do. The expert bot asks the dice instead (an expectimax of depth one over
chance):

1. It runs the strong bot's kind of beam search over this round's actions and keeps the
   ``candidates`` best distinct end-of-round sheets (plans that reach the same sheet in
   another order, or with their dice turned up instead of down on the way, count once:
   :func:`end_key`).
2. For each of them it plays every roll of the next round's two dice, all 21 of them with
   their exact odds (a double 1/36, any other pair 2/36), plans that round with a smaller
   beam search (``INNER``), and scores the end of it with the same evaluation.
3. It plays the plan whose expected value after the next round is highest.

A die bought with 2 coins is chance too (T4.3): the bot buys when the best plan's
expected value after the next round, averaged over the die's six faces, beats the best
plan's without it. In the last round there is nothing to look ahead to, and after it
(T4.5) the evaluation is the final score, so the expert defers to the strong bot's
search there, a far wider one (``last``) since it is exact and few moves are left.

The next round's dice are never read from the game's seed (that would be cheating; the
dice are a pure function of it, T4.6): the lookahead builds each hypothetical roll itself
on a search copy of the game, and the faces of a die it may buy likewise.

The lookahead evaluates a hundred thousand sheets a game (with the strong bot's
:func:`~mummy.bots.tomb.evaluate`, whose flood fill of what the dungeon can still reach
is written for that), and keeps the values of the sheets a decision has seen by what the
evaluation reads of them (:func:`eval_key`): the 21 hypothetical rounds lay many of the
same tiles.

Like every bot here it is deterministic for its seed: its only randomness is its own
:class:`random.Random`, which breaks near-ties.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random

from mummy.bots.tomb import Planner, StrongTombAgent, W, Weights, evaluate
from mummy.tomb.actions import BUY, DIG, DOWN, END, ERASE, UP, Action
from mummy.tomb.game import TombGame
from mummy.tomb.rules import ROUNDS
from mummy.tomb.sheet import PLAY, Die, Sheet

#: The 21 rolls of two dice, each with its chance (T4.1): a double 1/36, a pair 2/36.
ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7))


@dataclass(frozen=True)
class Beam:
    """The size of one beam search over a round's actions."""

    beam: int
    branch: int
    depth: int


#: This round's search: the strong bot's own size.
OUTER = Beam(beam=14, branch=36, depth=7)
#: Each hypothetical next round: smaller than this round's, since it runs 21 times per
#: candidate, but not too small. The round it stands for is played by the whole bot, and a
#: narrow search misses more of a sheet's best plans the more the sheet offers (the more
#: dice, items, circled monsters it can use), so it undervalues the sheets with the most
#: options and ranks the candidates by the search's blind spots. Twice the width of the
#: first version (4, 8, 6), at about 1.7x its time a game: on seeds 1000-1049 (map1 solo
#: standard) 171.9 against 166.3, +5.5 a game paired, SE 4.1; on the bench's seeds 0-100,
#: 179.0 against 176.0.
INNER = Beam(beam=8, branch=16, depth=6)
#: The last round (and the free actions after it), played by the strong bot's search:
#: its evaluation is the final score there, and few moves are left, so a far wider search
#: than a plan of an earlier round costs little and finds points a narrow one misses.
#: Replayed from round 20 on tuning seeds 1000-1049 (map1 solo standard), against the
#: first (30, 50, 8): +1.06 a game (SE 0.42; 11 better, none worse), at 0.09 s a game
#: (1.1 s at most on map1's bench seeds, 4.4 s on map2's). Twice as wide gained nothing
#: more there and doubled the longest; nor did a deeper one (24).
LAST = Beam(beam=500, branch=1000, depth=12)
#: The few moves of earlier rounds that the expert leaves to the strong bot's search:
#: the free moves of a round whose dice are all used (items, keys, ``end``), and a round
#: for which the lookahead found no plan.
REST = Beam(beam=30, branch=50, depth=8)
#: How many of this round's best plans are looked ahead from.
CANDIDATES = 6
#: How many plans are looked ahead from on each face of a die that may be bought.
BUY_CANDIDATES = 2


def sheet_key(s: Sheet) -> tuple[object, ...]:
    """What makes two end-of-round sheets the same for planning (the order of the actions
    that led there does not matter). Findings follow from the covered squares and rooms."""
    return (s.covered, s.walls, s.row, s.coins, s.keys_gained, s.keys_used, s.item_uses, s.alerts, s.hits,
            s.oozes_defeated, s.skel_defeated, s.zombies_defeated, s.golems_defeated, s.mimics_defeated,
            s.sarc_opened, s.rooms_found, s.marks, s.next_bonus, s.phase, s.items_found, s.oozes_found,
            s.sarc_found, s.mimics_found, s.golems_found, s.gems_found)


def end_key(s: Sheet) -> tuple[object, ...]:
    """What makes two sheets whose dice are all used the same: :func:`sheet_key` without
    the values of the used dice, only how many slots the row has taken (dice turned up
    or down on the way, T4.3, leave rows that differ in nothing else, and the next round
    rolls a new row). So the plans looked ahead from are different sheets, not one sheet
    reached with its dice turned two ways."""
    return (s.covered, s.walls, len(s.row), s.coins, s.keys_gained, s.keys_used, s.item_uses, s.alerts, s.hits,
            s.oozes_defeated, s.skel_defeated, s.zombies_defeated, s.golems_defeated, s.mimics_defeated,
            s.sarc_opened, s.rooms_found, s.marks, s.next_bonus, s.phase, s.items_found, s.oozes_found,
            s.sarc_found, s.mimics_found, s.golems_found, s.gems_found)


def worth_trying(actions: list[Action], seq: list[Action], m_connectable: int) -> list[Action]:
    """The actions a round plan considers (as the strong bot does): no END or BUY (BUY is
    a chance event, weighed apart); the Wand's erase only where it connects a closed
    entrance or room; no two-way Shovel square (it only moves an opening along); and coin
    turns in one direction only, at most three a round, never back and forth (T4.3)."""
    turned = [a.kind for a in seq if a.kind in (UP, DOWN)]
    out = []
    for a in actions:
        k = a.kind
        if k in (END, BUY):
            continue
        if k == ERASE and not (m_connectable >> a.edge & 1):
            continue
        if k == DIG and len(a.orient) != 1:
            continue
        if k in (UP, DOWN) and (len(turned) >= 3 or any(t != k for t in turned)):
            continue
        out.append(a)
    return out


def _finished(sheet: Sheet) -> bool:
    return sheet.phase != PLAY or all(d.used for d in sheet.row)


def eval_key(s: Sheet, round_no: int) -> tuple[object, ...]:
    """Everything :func:`evaluate` reads of a sheet at the end of ``round_no``: not the
    dice row, the carried bonus dice or the phase, so one tile laid from different rolls
    (a 3 of the roll 3-5 or of the roll 3-6) is evaluated once."""
    return (round_no, s.covered, s.walls, s.inner, s.coins, s.keys_gained, s.keys_used, s.item_uses,
            s.items_found, s.oozes_found, s.oozes_defeated, s.skel_defeated, s.sarc_found, s.sarc_opened,
            s.zombies_defeated, s.golems_found, s.gems_found, s.golems_defeated, s.mimics_found,
            s.mimics_defeated, s.alerts, s.hits, s.marks)


#: Evaluations of sheets seen before, by :func:`eval_key` (for one set of weights).
Cache = dict[tuple[object, ...], float]


def round_plans(game: TombGame, seat: int, round_no: int, size: Beam, keep: int, rng: Random,
                weights: Weights = W, deadline: float | None = None,
                cache: Cache | None = None) -> list[tuple[float, list[Action]]]:
    """The ``keep`` best plans for the rest of the round that use every die, by
    :func:`evaluate` of the sheet they end on, one plan per distinct sheet, best first;
    if none uses every die within the search's depth, the best partial plan alone. The
    game is left as it was (every ``push`` is undone). ``cache`` keeps the evaluation of
    sheets seen before (the same actions in another order reach the same sheet, and the
    next round's searches over its 21 rolls lay the same tiles); it is only valid for one
    set of ``weights``."""
    cache = {} if cache is None else cache
    value = evaluate(game.sheets[seat], round_no, weights)
    beam: list[tuple[float, list[Action]]] = [(value, [])]
    done: dict[tuple[object, ...], tuple[float, list[Action]]] = {}
    connectable = game.sheets[seat].map.connectable
    for _ in range(size.depth + 1):
        children: dict[tuple[object, ...], tuple[float, list[Action]]] = {}
        for v, seq in beam:
            for a in seq:
                game.push(seat, a)
            sheet = game.sheets[seat]
            if _finished(sheet):
                key = end_key(sheet)
                if key not in done or done[key][0] < v:
                    done[key] = (v, seq)
            if len(seq) < size.depth:
                scored = []
                for a in worth_trying(game.legal_actions(seat), seq, connectable):
                    game.push(seat, a)
                    child = game.sheets[seat]
                    key = sheet_key(child)
                    ek = eval_key(child, round_no)
                    cv = cache.get(ek)
                    if cv is None:
                        cv = cache[ek] = evaluate(child, round_no, weights)
                    scored.append((cv + rng.random() * 1e-6, key, a))
                    game.undo(seat)
                scored.sort(key=lambda x: -x[0])
                for cv, key, a in scored[: size.branch]:
                    if key not in children or children[key][0] < cv:
                        children[key] = (cv, [*seq, a])
            for _a in seq:
                game.undo(seat)
        if not children or (deadline is not None and time.perf_counter() > deadline):
            break
        beam = sorted(children.values(), key=lambda x: -x[0])[: size.beam]
    if done:
        return sorted(done.values(), key=lambda x: -x[0])[:keep]
    return beam[:1]


def next_round_value(after: TombGame, round_no: int, size: Beam, rng: Random, weights: Weights = W,
                     cache: Cache | None = None) -> float:
    """The expected value, over the 21 rolls of the next round's two dice, of the best
    plan for that round on ``after`` (a solo search copy whose round ``round_no`` is over
    but not ended). ``after`` is used as scratch and left with its sheet as it came.
    ``cache`` (:func:`round_plans`) is shared by the 21 searches."""
    cache = {} if cache is None else cache
    base = after.sheets[0]
    carried = tuple(Die(v, "bonus") for v in base.next_bonus)
    after.round = round_no + 1
    total = 0.0
    for a, b, p in ROLLS:
        s = base.copy()
        s.row = (*carried, Die(a, "roll"), Die(b, "roll"))
        s.next_bonus = ()
        s.phase = PLAY
        after.sheets[0] = s
        plans = round_plans(after, 0, round_no + 1, size, 1, rng, weights, cache=cache)
        total += p * plans[0][0]
    after.sheets[0] = base
    after.round = round_no
    return total


class ExpertTombAgent(Planner):
    """The strong bot's round plans, chosen by their expected value after the next round's
    dice (see the module's docstring). Its plans, and those of the strong bot it defers
    to, are rebuilt from the game when it did not make them itself (:class:`Planner`)."""

    name = "expert"

    def __init__(self, seed: int = 0, time_limit: float | None = None, candidates: int = CANDIDATES,
                 outer: Beam = OUTER, inner: Beam = INNER, weights: Weights = W, resume: bool = False,
                 last: Beam = LAST, buy_candidates: int = BUY_CANDIDATES, rest: Beam = REST) -> None:
        super().__init__(seed, time_limit, resume)
        self.candidates = candidates
        self.outer = outer
        self.inner = inner
        self.weights = weights
        self.buy_candidates = buy_candidates
        # The strong bot's search plays some of this bot's moves: ``final`` the last round
        # and after, ``rest`` the few earlier ones of REST. This bot replays them (its own
        # and theirs).
        self.final = StrongTombAgent(seed, time_limit, beam=last.beam, branch=last.branch,
                                     depth=last.depth, weights=weights, resume=False)
        self.rest = StrongTombAgent(seed, time_limit, beam=rest.beam, branch=rest.branch,
                                    depth=rest.depth, weights=weights, resume=False)

    def forget(self) -> None:
        super().forget()
        self.final.forget()
        self.rest.forget()

    def choose(self, game: TombGame, seat: int, legal: list[Action]) -> Action:
        sheet = game.sheets[seat]
        if game.round >= ROUNDS or sheet.phase != PLAY:
            return self.final.act(game, seat)  # nothing to look ahead to, and the final score to play for
        if _finished(sheet):
            return self.rest.act(game, seat)  # only END and free actions
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        cache: Cache = {}
        plans = round_plans(game, seat, game.round, self.outer, self.candidates, self.rng, self.weights, deadline,
                            cache)
        buying = any(a.kind == BUY for a in legal)
        values = self._values(game, seat, plans, deadline, cache, everyone=buying)
        if buying and self._buys(game, seat, plans, values, deadline, cache):
            return Action(BUY)
        best = max(range(len(plans)), key=lambda i: values[i], default=None)
        self._plan = [] if best is None else list(plans[best][1])
        if not self._plan:
            return self.rest.act(game, seat)  # only unusual moves are left
        return self._plan.pop(0)

    def _values(self, game: TombGame, seat: int, plans: list[tuple[float, list[Action]]], deadline: float | None,
                cache: Cache, everyone: bool = False) -> list[float]:
        """Each plan's expected value after the next round's dice (:func:`next_round_value`),
        in the order of ``plans``; a lone plan needs no lookahead unless ``everyone`` (a
        purchase is weighed against it). Past the deadline the plans not yet looked at
        are worth nothing, so the ones that were are chosen from."""
        if len(plans) <= 1 and not everyone:
            return [0.0] * len(plans)
        out: list[float] = []
        for _v, plan in plans:
            if out and deadline is not None and time.perf_counter() > deadline:
                out.append(-1e18)
                continue
            after = game.seated(seat)
            for a in plan:
                after.push(0, a, keep_undo=False)
            out.append(next_round_value(after, game.round, self.inner, self.rng, self.weights, cache))
        return out

    def _buys(self, game: TombGame, seat: int, plans: list[tuple[float, list[Action]]], values: list[float],
              deadline: float | None, cache: Cache) -> bool:
        """A die rolled for 2 coins is a chance event (T4.3): buy when the best plan's
        value after the next round's dice, averaged over the die's six faces, beats the
        best without it. Both sides look at the same number of plans
        (``buy_candidates``), so neither is favoured by a wider choice. With none, the
        strong bot's rule (the end-of-round evaluation, no lookahead)."""
        k = self.buy_candidates
        if k <= 0:  # the strong bot's rule: the best round's evaluation, without the lookahead
            value = plans[0][0] if plans else -1e18
            faces = [round_plans(game.with_bought_die(seat, face), seat, game.round, self.outer, 1, self.rng,
                                 self.weights, deadline, cache)[0][0] for face in range(1, 7)]
            return sum(faces) / 6 > value + 0.5
        without = max(values[:k], default=-1e18)
        total = 0.0
        for face in range(1, 7):
            bought = game.with_bought_die(seat, face)
            after = round_plans(bought, seat, game.round, self.outer, k, self.rng, self.weights, deadline, cache)
            total += max(self._values(bought, seat, after, deadline, cache, everyone=True), default=-1e18)
        return total / 6 > without + 0.5


__all__ = ["BUY_CANDIDATES", "CANDIDATES", "INNER", "LAST", "OUTER", "REST", "ROLLS", "Beam", "ExpertTombAgent",
           "end_key", "eval_key", "evaluate", "next_round_value", "round_plans", "sheet_key", "worth_trying"]
