"""The expert Tomb bot: the strong bot's round planning, with a look at the dice to come.

The strong bot (:mod:`mummy.bots.tomb`) plans each round by a beam search and scores the
end-of-round sheet with :func:`~mummy.bots.tomb.evaluate`, a hand-made guess at what the
sheet will be worth. The guess is blind to what the *next* dice can do with the sheet:
two plans that look alike may leave one sheet where most rolls have a good use and one
where few do. The expert bot asks the dice instead (an expectimax of depth one over
chance):

1. It runs the strong bot's kind of beam search over this round's actions and keeps the
   ``candidates`` best distinct end-of-round sheets (plans that reach the same sheet in
   another order count once).
2. For each of them it plays every roll of the next round's two dice, all 21 of them with
   their exact odds (a double 1/36, any other pair 2/36), plans that round with a small
   beam search, and scores the end of it with the same evaluation.
3. It plays the plan whose expected value after the next round is highest.

The next round's dice are never read from the game's seed (that would be cheating; the
dice are a pure function of it, T4.6): the lookahead builds each hypothetical roll itself
on a search copy of the game. In the last round there is nothing to look ahead to, and
after it (T4.5) the strong bot's plan is exact, so the expert defers to the strong bot
there, and for the die bought with 2 coins (the strong bot weighs its six faces).

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
#: Each hypothetical next round: small, since it runs 21 times per candidate.
INNER = Beam(beam=3, branch=6, depth=6)


def sheet_key(s: Sheet) -> tuple[object, ...]:
    """What makes two end-of-round sheets the same for planning (the order of the actions
    that led there does not matter). Findings follow from the covered squares and rooms."""
    return (s.covered, s.walls, s.row, s.coins, s.keys_gained, s.keys_used, s.item_uses, s.alerts, s.hits,
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


Cache = dict[tuple[object, ...], float]


def round_plans(game: TombGame, seat: int, round_no: int, size: Beam, keep: int, rng: Random,
                weights: Weights = W, deadline: float | None = None,
                cache: Cache | None = None) -> list[tuple[float, list[Action]]]:
    """The ``keep`` best plans for the rest of the round that use every die, by
    :func:`evaluate` of the sheet they end on, one plan per distinct sheet, best first;
    if none uses every die within the search's depth, the best partial plan alone. The
    game is left as it was (every ``push`` is undone). ``cache`` keeps the evaluation of
    sheets seen before (the same actions in another order reach the same sheet); it is
    only valid for one ``round_no`` and ``weights``."""
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
                key = sheet_key(sheet)
                if key not in done or done[key][0] < v:
                    done[key] = (v, seq)
            if len(seq) < size.depth:
                scored = []
                for a in worth_trying(game.legal_actions(seat), seq, connectable):
                    game.push(seat, a)
                    child = game.sheets[seat]
                    key = sheet_key(child)
                    cv = cache.get(key)
                    if cv is None:
                        cv = cache[key] = evaluate(child, round_no, weights)
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


def next_round_value(after: TombGame, round_no: int, size: Beam, rng: Random, weights: Weights = W) -> float:
    """The expected value, over the 21 rolls of the next round's two dice, of the best
    plan for that round on ``after`` (a solo search copy whose round ``round_no`` is over
    but not ended). ``after`` is used as scratch and left with its sheet as it came."""
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
        plans = round_plans(after, 0, round_no + 1, size, 1, rng, weights)
        total += p * plans[0][0]
    after.sheets[0] = base
    after.round = round_no
    return total


class ExpertTombAgent(Planner):
    """The strong bot's round plans, chosen by their expected value after the next round's
    dice (see the module's docstring). Its plans, and those of the strong bot it defers
    to, are rebuilt from the game when it did not make them itself (:class:`Planner`)."""

    name = "expert"

    def __init__(self, seed: int = 0, time_limit: float | None = None, candidates: int = 6,
                 outer: Beam = OUTER, inner: Beam = INNER, weights: Weights = W, resume: bool = False) -> None:
        super().__init__(seed, time_limit, resume)
        self.candidates = candidates
        self.outer = outer
        self.inner = inner
        self.weights = weights
        # It plays some of this bot's moves; this bot replays them (its own and the strong's).
        self.strong = StrongTombAgent(seed, time_limit, beam=outer.beam, branch=outer.branch,
                                      depth=outer.depth, weights=weights, resume=False)

    def forget(self) -> None:
        super().forget()
        self.strong.forget()

    def choose(self, game: TombGame, seat: int, legal: list[Action]) -> Action:
        sheet = game.sheets[seat]
        if sheet.phase != PLAY or game.round >= ROUNDS or _finished(sheet):
            return self.strong.act(game, seat)  # nothing to look ahead to, or only END and free actions
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        cache: Cache = {}
        plans = round_plans(game, seat, game.round, self.outer, self.candidates, self.rng, self.weights, deadline,
                            cache)
        if any(a.kind == BUY for a in legal) and self._buys(game, seat, plans[0][0], deadline, cache):
            return Action(BUY)
        self._plan = self._best(game, seat, plans, deadline)
        if not self._plan:
            return self.strong.act(game, seat)  # only unusual moves are left
        return self._plan.pop(0)

    def _buys(self, game: TombGame, seat: int, value: float, deadline: float | None, cache: Cache) -> bool:
        """A die rolled for 2 coins is a chance event (T4.3): buy when the best round,
        averaged over its six faces, beats the best round without it (as the strong bot)."""
        outcomes = [round_plans(game.with_bought_die(seat, face), seat, game.round, self.outer, 1, self.rng,
                                self.weights, deadline, cache)[0][0] for face in range(1, 7)]
        return sum(outcomes) / 6 > value + 0.5

    def _best(self, game: TombGame, seat: int, plans: list[tuple[float, list[Action]]],
              deadline: float | None) -> list[Action]:
        """The plan with the best expected value after the next round's dice."""
        if len(plans) <= 1:
            return plans[0][1] if plans else []
        best: tuple[float, list[Action]] = (-1e18, [])
        for _v, plan in plans:
            after = game.seated(seat)
            for a in plan:
                after.push(0, a, keep_undo=False)
            value = next_round_value(after, game.round, self.inner, self.rng, self.weights)
            if value > best[0]:
                best = (value, plan)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return best[1]


__all__ = ["INNER", "OUTER", "ROLLS", "Beam", "ExpertTombAgent", "next_round_value", "round_plans", "sheet_key",
           "worth_trying"]
