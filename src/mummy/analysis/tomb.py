"""Par and the review of a Tomb game: how well it was played on its own dice.

A game is its seed plus its actions, and the dice are a pure function of the seed (T4.6),
so the strongest bot can play the very same dice. That is **par**: the bot plays the
game's seed, map and mode in the player's seat, and its score is the par of those dice;
the player's **result** is score minus par (positive: better than the bot). Luck is in
both numbers alike, so the result is about play.

The **review** judges each decision. A decision is a *plan*: what the player did between
two chance events, a round's roll (T4.1) or a die bought for 2 coins (T4.3), up to the
``end`` of the round or the ``buy``. Within a plan everything is known (the round's dice
are rolled, T4.2), so a plan is judged as a whole, the way the strong and expert bots
plan a round:

* its **worth** is the strongest bot's value of the sheet it leaves: the evaluation of
  the end-of-round sheet (:func:`mummy.bots.tomb.evaluate`), and for the expert the
  expected value after the next round's 21 rolls (:func:`next_round_value`). A plan that
  ends with a ``buy`` is worth the mean, over the die's six faces, of the best plan after
  it (the die is chance, T4.3);
* the **best alternative** is the strongest bot's own plan from the same start: the same
  bot as par, asked at every decision of the record in order (so a game the bot played
  itself gets exactly its own plans back, and a review is deterministic);
* the **loss** is the best's worth minus the chosen plan's, never below zero (a plan
  the bot did not find may be worth more: then the player did better).

Worth is in points of that evaluation: sure points plus what the bot counts on for what
is not yet points (coins, keys, circled monsters, reachable findings...).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any, Final

from mummy.analysis.common import Progress, check_player, first_difference, replay_or_raise, summary
from mummy.bots.registry import bot_seed
from mummy.bots.tomb import RandomTombAgent, StrongTombAgent, W, Weights, evaluate
from mummy.bots.tomb_search import (
    CANDIDATES,
    INNER,
    LAST,
    OUTER,
    REST,
    Beam,
    ExpertTombAgent,
    next_round_value,
    round_plans,
    sheet_key,
)
from mummy.tomb.actions import BUY, END, Action, fmt, to_json
from mummy.tomb.game import TombGame
from mummy.tomb.record import replay_record, to_record
from mummy.tomb.rules import ROUNDS
from mummy.tomb.scoring import score
from mummy.tomb.sheet import PLAY

#: The strongest Tomb bot, which sets par and judges the review. The expert (one round's
#: lookahead over the next dice) beat the strong bot by 18.5 points a game on seeds
#: 9000-9019 (177.2 against 158.7, map1 solo standard), at about 6x its time a round.
STRONGEST_TOMB: Final = "expert"
#: A loss smaller than this (points) is not called a mistake: two plans that close are
#: within what the evaluation can tell apart.
MISTAKE_POINTS: Final = 1.0
#: The most actions one plan may have (a guard against a bot that never ends a round).
MAX_PLAN: Final = 60
#: The chart's groups: the 20 rounds, and the turn after the last (T4.5).
GROUPS: Final = (*(str(r) for r in range(1, ROUNDS + 1)), "end")


TombBot = StrongTombAgent | ExpertTombAgent


@dataclass(frozen=True)
class TombAnalyst:
    """Who sets par and judges plans: a bot of the strong kind (``inner`` None: values are
    the end-of-round evaluation) or of the expert kind (``inner``: the next round's search
    size for its lookahead), with its search sizes. The default is the registered
    strongest bot at its default effort; tests pass smaller searches."""

    bot: str = STRONGEST_TOMB
    outer: Beam = OUTER
    inner: Beam | None = INNER
    candidates: int = CANDIDATES
    weights: Weights = W
    #: The expert's strong-bot searches for the last round and for the moves its
    #: lookahead leaves (``ExpertTombAgent``'s ``last`` and ``rest``): a small effort
    #: shrinks them with the rest, or they take most of its time.
    last: Beam = LAST
    rest: Beam = REST

    def agent(self, seed: int) -> TombBot:
        """A fresh bot of this kind and size, seeded like any bot in a seat (bot_seed)."""
        if self.inner is None:
            return StrongTombAgent(seed, beam=self.outer.beam, branch=self.outer.branch, depth=self.outer.depth,
                                   weights=self.weights)
        return ExpertTombAgent(seed, candidates=self.candidates, outer=self.outer, inner=self.inner,
                               weights=self.weights, last=self.last, rest=self.rest)


#: The registered bots an analyst can be, at their default effort (bots/registry.py).
ANALYSTS: Final = {"strong": TombAnalyst("strong", OUTER, None),
                   "expert": TombAnalyst("expert", OUTER, INNER, CANDIDATES)}
DEFAULT: Final = ANALYSTS[STRONGEST_TOMB]


def replay(record: Any) -> TombGame:
    game: TombGame = replay_or_raise(replay_record, record)
    return game


def tomb_par(record: Any, player: int = 0, analyst: TombAnalyst = DEFAULT,
             progress: Progress | None = None) -> dict[str, Any]:
    """Par of a Tomb record for one player: the analyst's bot plays the same seed in the
    same seat, on the same map and mode (and the same bought-die stream, T4.6). Other
    seats, if any, are played by the random bot: sheets do not meet in the Tomb, only
    their dice are shared (T4.1). The bot's game is deterministic, so the same record
    always gets the same par. ``progress(rounds done, 20)`` as the bot plays."""
    game = replay(record)
    check_player(player, len(game.players))
    bot_game = TombGame(game.seed, game.players, shared_buys=game.shared_buys)
    bot = analyst.agent(bot_seed(game.seed, player))
    others = {s: RandomTombAgent(bot_seed(game.seed, s)) for s in range(len(game.players)) if s != player}
    while not bot_game.is_over:
        acting = bot_game.to_act()
        seat = player if player in acting else acting[0]
        agent = bot if seat == player else others[seat]
        round_no = bot_game.round
        bot_game.apply(seat, agent.act(bot_game, seat))
        if progress is not None and (bot_game.round != round_no or bot_game.is_over):
            progress(round_no, ROUNDS)
    par = score(bot_game.sheets[player]).total
    mine = score(game.sheets[player]).total if game.is_over else None
    return {"game": "tomb", "player": player, "bot": analyst.bot, "map": game.players[player].map,
            "mode": game.players[player].mode, "par": par, "score": mine, "finished": game.is_over,
            "result": None if mine is None else mine - par, "better": "higher",
            "record": to_record(bot_game)}


@dataclass
class Segment:
    """One decision of the player: the game just before its first action (a copy), and
    the actions up to the ``end`` or ``buy`` that closes it."""

    start: TombGame
    round: int
    phase: str
    first: int  # index of its first action in the record's actions
    actions: list[Action] = field(default_factory=list)


def segments(game: TombGame, player: int) -> Iterator[Segment]:
    """The player's plans in a replayed game, in order (an unfinished last one is left
    out: there is nothing to judge it by yet)."""
    board = TombGame(game.seed, game.players, shared_buys=game.shared_buys)
    current: Segment | None = None
    for index, (seat, action) in enumerate(game.history):
        if seat == player and current is None:
            current = Segment(board.copy(), board.round, board.sheets[player].phase, index)
        board.push(seat, action)
        if seat == player and current is not None:
            current.actions.append(action)
            if action.kind in (END, BUY):
                yield current
                current = None


def bot_plan(agent: TombBot, start: TombGame, player: int) -> list[Action]:
    """What the bot plays from ``start`` up to its ``end`` or ``buy`` (on a copy)."""
    game = start.copy()
    plan: list[Action] = []
    for _ in range(MAX_PLAN):
        action = agent.act(game, player)
        plan.append(action)
        if action.kind in (END, BUY):
            break
        game.push(player, action)
    return plan


class Judge:
    """The worth of plans (see the module's docstring), remembered by the sheet they end
    on. Each search starts from its own fixed random stream, so a worth is a function of
    the sheet alone."""

    def __init__(self, analyst: TombAnalyst) -> None:
        self.analyst = analyst
        self.memo: dict[tuple[object, ...], float] = {}

    def worth(self, start: TombGame, player: int, plan: list[Action]) -> float:
        game = start.seated(player)
        last = plan[-1] if plan else None
        body = plan[:-1] if last is not None and last.kind in (END, BUY) else plan
        for action in body:
            game.push(0, action, keep_undo=False)
        if last is not None and last.kind == BUY:
            return sum(self.best_after(game.with_bought_die(0, face)) for face in range(1, 7)) / 6
        return self.end_value(game)

    def end_value(self, game: TombGame) -> float:
        """The value of a solo game's sheet as its plan leaves it."""
        sheet = game.sheets[0]
        playing = sheet.phase == PLAY
        round_no = game.round if playing else ROUNDS
        key = (sheet_key(sheet), round_no)
        hit = self.memo.get(key)
        if hit is None:
            a = self.analyst
            if a.inner is not None and playing and game.round < ROUNDS:
                hit = next_round_value(game, game.round, a.inner, Random(0), a.weights)
            else:
                hit = evaluate(sheet, round_no, a.weights)
            self.memo[key] = hit
        return hit

    def best_after(self, game: TombGame) -> float:
        """The worth of the best plan the outer search finds on a sheet just dealt a die
        (remembered: the bot and the player often weigh the same purchase)."""
        key = ("bought", sheet_key(game.sheets[0]), game.round)
        hit = self.memo.get(key)
        if hit is None:
            plan = round_plans(game, 0, game.round, self.analyst.outer, 1, Random(0), self.analyst.weights)[0][1]
            for action in plan:
                game.push(0, action, keep_undo=False)
            hit = self.memo[key] = self.end_value(game)
        return hit


def tomb_review(record: Any, player: int = 0, progress: Progress | None = None,
                analyst: TombAnalyst = DEFAULT) -> dict[str, Any]:
    """Every plan of ``player`` in a Tomb record valued against the strongest bot's plan
    from the same start (the module's docstring says how), with the three biggest
    mistakes and the points lost by round. JSON-ready; ``progress(done, total)`` after
    each plan."""
    game = replay(record)
    check_player(player, len(game.players))
    plans = list(segments(game, player))
    bot = analyst.agent(bot_seed(game.seed, player))
    judge = Judge(analyst)
    grid = game.maps[player].grid
    decisions = []
    for k, seg in enumerate(plans):
        best = bot_plan(bot, seg.start, player)
        chosen_worth = judge.worth(seg.start, player, seg.actions)
        best_worth = chosen_worth if best == seg.actions else judge.worth(seg.start, player, best)
        lost = max(0.0, best_worth - chosen_worth)
        decisions.append({
            "index": k, "group": str(seg.round) if seg.phase == PLAY else "end", "round": seg.round,
            "phase": seg.phase, "first_action": seg.first, "last_action": seg.first + len(seg.actions) - 1,
            "chosen": move(seg.actions, chosen_worth, grid), "best": move(best, best_worth, grid),
            "lost": round(lost, 2),
            "diverges_at": first_difference(seg.actions, best),
        })
        if progress is not None:
            progress(k + 1, len(plans))
    out = {"game": "tomb", "player": player, "bot": analyst.bot, "unit": "points", "better": "higher",
           "seed": game.seed, "map": game.players[player].map, "mode": game.players[player].mode,
           "finished": game.is_over, "score": score(game.sheets[player]).total if game.is_over else None,
           "decisions": decisions}
    out.update(summary(decisions, GROUPS, MISTAKE_POINTS))
    return out


def move(actions: list[Action], worth: float, grid: Any) -> dict[str, Any]:
    """A plan as a page draws it: each action in the notation and as JSON, and its worth."""
    return {"actions": [fmt(a, grid) for a in actions], "json": [to_json(a, grid) for a in actions],
            "worth": round(worth, 2)}


__all__ = ["ANALYSTS", "DEFAULT", "GROUPS", "MISTAKE_POINTS", "STRONGEST_TOMB", "Judge", "Segment", "TombAnalyst",
           "bot_plan", "segments", "tomb_par", "tomb_review"]
