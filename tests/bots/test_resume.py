"""A bot's decision is a function of the game, not of the agent's past (bots/base.py): an
agent made anew in the middle of a game (a server restarted, the game rebuilt from its
log) plays exactly the moves the agent that played the game so far would have played,
its random stream and its plans (the strong and expert Tomb bots) rebuilt from the game.
And in the Tomb, where seats play the round side by side, a bot plays the same moves
whether the other seats move before it or after it (the same game in the terminal, the
simulator and the server, whose orders differ)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mummy.bots.registry import bot_seed, make_agent
from mummy.bots.tomb import StrongTombAgent
from mummy.bots.tomb_search import Beam, ExpertTombAgent
from mummy.tomb.actions import END
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.treasure.game import Seat, TreasureGame

#: A small strong bot, so that whole games stay quick.
FAST_STRONG = {"beam": 3, "branch": 8, "depth": 5}
SEED = 21

Make = Callable[[int], Any]


def _bots(kinds: list[str]) -> list[Make]:
    """Each seat's bot, made from its seed (small searches for the strong and expert)."""
    makers: dict[str, Make] = {
        "random": lambda seed: make_agent("tomb", "random", seed),
        "greedy": lambda seed: make_agent("tomb", "greedy", seed),
        "strong": lambda seed: StrongTombAgent(seed, resume=True, **FAST_STRONG),
        "expert": lambda seed: ExpertTombAgent(seed, candidates=2, outer=Beam(3, 6, 4), inner=Beam(1, 3, 3),
                                               resume=True),
    }
    return [makers[k] for k in kinds]


def _tomb(kinds: list[str], fresh_every: int | None, rounds: int = 99, order: str = "seats") -> TombGame:
    """A Tomb game of these bots on ``SEED`` (up to ``rounds``): each seat's agent kept all
    game, or made anew before every ``fresh_every``-th move of the game (as a restarted
    server makes them). ``order``: each seat its whole round in turn (as the simulator
    plays), or the seats in turn move by move."""
    makers = _bots(kinds)
    players = [PlayerSetup(f"{k}-{i}", "map1") for i, k in enumerate(kinds)]
    game = TombGame(SEED, players)
    agents = [make(bot_seed(SEED, i)) for i, make in enumerate(makers)]
    moves = 0
    while not game.is_over and game.round <= rounds:
        acting = game.to_act()
        seat = acting[0] if order == "seats" else acting[moves % len(acting)]
        if fresh_every is not None and moves % fresh_every == 0:
            agents[seat] = makers[seat](bot_seed(SEED, seat))
        game.apply(seat, agents[seat].act(game, seat))
        moves += 1
    return game


def _own(game: TombGame | TreasureGame, seat: int) -> list[Any]:
    return [action for who, action in game.history if who == seat]


@pytest.mark.parametrize("every", [1, 3])
def test_a_tomb_bot_made_anew_mid_game_plays_the_same_moves(every: int) -> None:
    kinds = ["random", "greedy", "strong"]
    kept = _tomb(kinds, None, rounds=4)
    anew = _tomb(kinds, every, rounds=4)
    assert anew.history == kept.history  # the same moves, in the same order
    assert any(a.kind == END for a in _own(kept, 2)[:-1])  # several rounds, so several plans
    assert len(_own(kept, 2)) > 8


def test_the_expert_bot_made_anew_mid_round_plays_the_same_moves() -> None:
    kept = _tomb(["expert"], None, rounds=2)
    anew = _tomb(["expert"], 2, rounds=2)
    assert anew.history == kept.history
    assert len(kept.history) > 6


def test_a_tomb_bot_plays_the_same_whether_other_seats_move_before_or_after_it() -> None:
    kinds = ["random", "strong", "greedy"]
    first = _tomb(kinds, None, rounds=4, order="seats")
    last = _tomb(kinds, None, rounds=4, order="interleaved")
    assert first.history != last.history  # the moves fall in another order...
    for seat in range(len(kinds)):  # ...but each seat's are the same
        assert _own(first, seat) == _own(last, seat), kinds[seat]


def test_a_strong_bot_asked_on_someone_elses_moves_plans_afresh() -> None:
    """A person's seat (a hint, a review): the moves since the last end are not the bot's
    own, so it plans from where the seat stands, as a bot that replays nothing would."""
    game = TombGame(SEED, 1)
    person = make_agent("tomb", "random", 5)
    while game.round < 3:
        game.apply(0, person.act(game, 0))
    game.apply(0, next(a for a in game.legal_actions(0) if a.kind != END))  # a move of the round, not the bot's
    mid = game.copy()
    assert StrongTombAgent(7, resume=True, **FAST_STRONG).act(game, 0) == StrongTombAgent(7, **FAST_STRONG).act(mid, 0)


def test_the_bots_made_for_a_seat_rebuild_their_plans() -> None:
    assert make_agent("tomb", "strong", 1).resume_plans and make_agent("tomb", "expert", 1).resume_plans
    assert isinstance(make_agent("tomb", "expert", 1), ExpertTombAgent)
    assert not StrongTombAgent(1).resume_plans  # an analyst's, asked about a person's moves


def _treasure(names: list[str], fresh_every: int | None) -> TreasureGame:
    game = TreasureGame(SEED, [Seat(f"{n}-{i}", site) for i, (n, site) in
                               enumerate(zip(names, ("oasis", "temple", "valley"), strict=False))])
    agents = [make_agent("treasure", n, bot_seed(SEED, i)) for i, n in enumerate(names)]
    moves = 0
    while not game.is_over:
        seat = game.state.current
        if fresh_every is not None and moves % fresh_every == 0:
            agents[seat] = make_agent("treasure", names[seat], bot_seed(SEED, seat))
        game.apply(seat, agents[seat].act(game, seat))
        moves += 1
    return game


def test_a_treasure_bot_made_anew_mid_game_plays_the_same_moves() -> None:
    names = ["random", "strong", "random"]
    kept = _treasure(names, None)
    assert kept.is_over and len(kept.history) > 30
    assert _treasure(names, 1).history == kept.history
    assert _treasure(names, 4).history == kept.history


def test_each_decision_draws_from_a_stream_of_its_own() -> None:
    """The stream is set by the seat's moves: two decisions of one game do not repeat each
    other's draws, and a decision asked twice draws the same (so the random bot's game is
    still random, and the same)."""
    game = TombGame(SEED, 1)
    bot = make_agent("tomb", "random", 3)
    first = bot.act(game, 0)
    assert bot.act(game, 0) == first and make_agent("tomb", "random", 3).act(game, 0) == first
    draws = set()
    while len(game.history) < 12:
        action = bot.act(game, 0)
        draws.add(bot.rng.random())
        game.apply(0, action)
    assert len(draws) == 12
