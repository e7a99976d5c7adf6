"""Par and the review of a Mummy's Treasure game, in expected turns to fill the site.

**Par** (solo, R4.3): the strongest Treasure bot plays the same seed, so the same piles
in the same order and the same dice stream (R2.2), and par is its number of turns. The
player's **result** is par minus their turns: positive is better, as in the Tomb (fewer
turns than the bot). The dice a player gets depend on how many were rolled before
(R2.2), so once the bot rerolls differently its dice differ too: par is the bot's game
on this seed, not a replay of the player's rolls.

**The review** judges every choice a player makes after a roll (R3.1, R3.2): which dice
to reroll, which tile to take and where, or the pass. Each choice is worth the expected
number of turns the game will still take after this one, with the best play from there
(:mod:`mummy.analysis.treasure_values`); the best alternative is the legal choice with
the fewest, and the loss is the difference, in turns. Values are exact over the dice of
the turn, and exact to the end of the game once the site has few free squares left
(``exact`` on each decision); above that, where the turn leads is estimated. A forced
choice (one legal action) is no decision.

:class:`ValueTreasureAgent` plays the same values: at every choice the option the review
calls best. A game it plays has nothing to regret by them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from mummy.analysis.common import Progress, ReviewError, check_player, replay_or_raise, summary
from mummy.analysis.treasure_values import EXACT_FREE, Analysis, PileState, Position, TreasureValues
from mummy.bots.base import SeededAgent
from mummy.bots.registry import bot_seed, make_agent
from mummy.treasure.actions import REROLL, ROLL, TAKE, Action, fmt, to_json
from mummy.treasure.content import ROLLS, piles, sort_symbols
from mummy.treasure.game import TreasureGame
from mummy.treasure.record import replay_record, to_record

#: The strongest Treasure bot, which sets par: ``exact`` is :class:`ValueTreasureAgent`
#: (this module), any other name a registered bot.
STRONGEST_TREASURE: Final = "exact"
#: A loss smaller than this (expected turns) is not called a mistake.
MISTAKE_TURNS: Final = 0.05


def position_of(game: TreasureGame, seat: int, values: TreasureValues) -> Position:
    """What the seat knows between turns: its covered squares, and each pile's top tile
    with the tiles beneath as a multiset (their order is hidden, R2.2)."""
    st = game.state
    out = []
    for i, name in enumerate(game.pile_names):
        pile = piles()[name]
        top = game.top(name)
        rest = tuple(sorted(game.tiles[t].needs for t in game.order[name][st.tops[i] + 1:]))
        out.append(PileState(pile.rows, pile.cols, top.needs if top else None, rest if top else ()))
    return values.canonical(st.covered[seat], out)


class Options:
    """The worth of each legal choice of a seat after a roll: the expected turns still to
    play after this one. Positions are worked out once each (a turn's choices share one)."""

    def __init__(self, values: TreasureValues) -> None:
        self.values = values
        self.memo: dict[Position, Analysis] = {}

    def analysis(self, game: TreasureGame, seat: int) -> Analysis:
        position = position_of(game, seat, self.values)
        hit = self.memo.get(position)
        if hit is None:
            hit = self.memo[position] = self.values.analyse(position)
        return hit

    def of(self, game: TreasureGame, seat: int) -> tuple[list[tuple[Action, float]], Analysis]:
        """Every legal action with its worth, in the engine's order, and the analysis."""
        analysis = self.analysis(game, seat)
        st = game.state
        turn = analysis.turn
        if turn is None:
            raise ReviewError("the game is over: there is nothing to choose")
        takes = {(t.pile, t.square, t.orient): t.value for t in analysis.takes}
        rerolls = ROLLS - st.rolls
        out = []
        for action in game.legal_actions(seat):
            if action.kind == TAKE:
                worth = takes[(game.pile_names.index(action.pile), action.square, action.orient)]
            elif action.kind == REROLL:
                kept = Counter(st.dice) - Counter(action.dice)
                worth = turn.keeping(sort_symbols("".join(kept.elements())), rerolls)
            else:  # PASS: the position stays as it is for the next turn (R3.2)
                worth = analysis.expected
            out.append((action, worth))
        return out, analysis


def best_of(options: list[tuple[Action, float]]) -> tuple[Action, float]:
    """The choice with the fewest expected turns (the first of equals, in legal order)."""
    return min(options, key=lambda o: o[1])


class ValueTreasureAgent(SeededAgent):
    """Plays the review's best choice: the fewest expected turns to fill its site."""

    name = "exact"

    def __init__(self, seed: int = 0, time_limit: float | None = None, exact_free: int = EXACT_FREE) -> None:
        super().__init__(seed, time_limit)
        self.exact_free = exact_free
        self._options: dict[str, Options] = {}
        self._movable: Any = None

    def act(self, game: TreasureGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if game.movable:  # the game arranges the tiles (R5.1): no position to value; the strong bot plays
            self._movable = self._movable or make_agent("treasure", "strong", self.seed)
            action: Action = self._movable.act(game, seat)
            return action
        site = game.seats[seat].site
        options = self._options.get(site)
        if options is None:
            options = self._options[site] = Options(TreasureValues(game.boards[seat], self.exact_free))
        return best_of(options.of(game, seat)[0])[0]


@dataclass(frozen=True)
class TreasureAnalyst:
    """Who sets par (``bot``) and how far the values are exact (``exact_free``)."""

    bot: str = STRONGEST_TREASURE
    exact_free: int = EXACT_FREE

    def agent(self, seed: int) -> Any:
        if self.bot == ValueTreasureAgent.name:
            return ValueTreasureAgent(seed, exact_free=self.exact_free)
        return make_agent("treasure", self.bot, seed)


DEFAULT: Final = TreasureAnalyst()


def replay(record: Any) -> TreasureGame:
    game: TreasureGame = replay_or_raise(replay_record, record)
    return game


def solo_turns(game: TreasureGame) -> int | None:
    """A solo game's score (R4.3): its turns when the site was filled, else None."""
    return game.state.turns[0] if game.is_over and game.state.reason == "full" else None


def treasure_par(record: Any, player: int = 0, analyst: TreasureAnalyst = DEFAULT,
                 progress: Progress | None = None) -> dict[str, Any]:
    """Par of a solo Treasure record: the strongest bot's turns on the same seed, site,
    variant and piles. ``result`` is par minus the player's turns (positive: better); it
    is None when either game ended with the site unfilled (R4.3). ``progress(squares
    covered, squares of the site)`` as the bot plays."""
    game = replay(record)
    check_player(player, len(game.seats))
    if not game.solo:
        raise ReviewError("par is for solo games (R4.3): in a race the other seats' takes change the piles")
    bot_game = TreasureGame(game.seed, game.seats, movable=game.movable, first=game.first)
    bot = analyst.agent(bot_seed(game.seed, 0))
    while not bot_game.is_over:
        action = bot_game.apply(0, bot.act(bot_game, 0))
        if progress is not None and action.kind == TAKE:
            progress(bot_game.scores()[0], bot_game.boards[0].squares.bit_count())
    par, mine = solo_turns(bot_game), solo_turns(game)
    return {"game": "treasure", "player": 0, "bot": analyst.bot, "site": game.seats[0].site, "par": par,
            "par_squares": bot_game.scores()[0], "score": mine, "squares": game.scores()[0],
            "finished": game.is_over, "result": None if par is None or mine is None else par - mine,
            "better": "lower", "record": to_record(bot_game)}


def treasure_review(record: Any, player: int = 0, progress: Progress | None = None,
                    analyst: TreasureAnalyst = DEFAULT) -> dict[str, Any]:
    """Every choice ``player`` made after a roll, worth its expected turns against the
    best legal choice (the module's docstring says how), with the three biggest
    mistakes and the expected turns lost by turn. JSON-ready; ``progress(done, total)``
    after each choice."""
    game = replay(record)
    check_player(player, len(game.seats))
    if game.movable:
        raise ReviewError("the review does not cover the movable-tiles variant (R5.1): the game arranges "
                          "the tiles, so a square is not a position")
    options = Options(TreasureValues(game.boards[player], analyst.exact_free))
    board = TreasureGame(game.seed, game.seats, movable=game.movable, first=game.first)
    grid = game.grid(player)
    todo = [i for i, (seat, a) in enumerate(game.history) if seat == player and a.kind != ROLL]
    decisions: list[dict[str, Any]] = []
    for index, (seat, action) in enumerate(game.history):
        if seat == player and board.state.rolls and len(board.legal_actions(seat)) > 1:
            decisions.append(decision(board, seat, action, index, options, grid, len(decisions)))
        board.push(seat, action)
        if progress is not None and index in todo:
            progress(todo.index(index) + 1, len(todo))
    turns = max((d["turn"] for d in decisions), default=0)
    out = {"game": "treasure", "player": player, "bot": analyst.bot, "unit": "turns", "better": "lower",
           "seed": game.seed, "site": game.seats[player].site, "finished": game.is_over,
           "score": solo_turns(game) if game.solo else None, "squares": game.scores()[player],
           "exact_free": analyst.exact_free, "decisions": decisions}
    out.update(summary(decisions, [str(t) for t in range(1, turns + 1)], MISTAKE_TURNS))
    return out


def decision(game: TreasureGame, seat: int, action: Action, index: int, options: Options, grid: Any,
             number: int) -> dict[str, Any]:
    """One choice: the dice showing, the chosen and the best action with the expected
    total turns of the game after each (turns so far plus those still to play)."""
    st = game.state
    worths, analysis = options.of(game, seat)
    chosen = next(w for a, w in worths if a == action)
    best, best_worth = best_of(worths)
    done = st.turns[seat]
    return {"index": number, "group": str(done), "turn": done, "roll": st.rolls, "dice": st.dice,
            "first_action": index, "last_action": index, "exact": analysis.exact,
            "chosen": move(action, done + chosen, grid), "best": move(best, done + best_worth, grid),
            "lost": round(chosen - best_worth, 3), "diverges_at": None if best == action else 0}


def move(action: Action, worth: float, grid: Any) -> dict[str, Any]:
    """A choice as a page draws it: the action in the notation and as JSON, and the
    expected number of turns the game takes after it."""
    return {"actions": [fmt(action, grid)], "json": [to_json(action, grid)], "worth": round(worth, 3)}


__all__ = ["DEFAULT", "MISTAKE_TURNS", "STRONGEST_TREASURE", "Options", "TreasureAnalyst",
           "ValueTreasureAgent", "position_of", "treasure_par", "treasure_review"]
