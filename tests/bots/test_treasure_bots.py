"""Treasure bots: legal actions only, deterministic, and strong ahead of greedy."""

from __future__ import annotations

import pytest

from mummy.bots.base import Agent
from mummy.bots.registry import make_agent
from mummy.treasure.game import Seat, TreasureGame


def play(agents: list[Agent], seed: int, sites: tuple[str, ...] = ("oasis", "valley", "temple", "pyramid"),
         movable: bool = False) -> TreasureGame:
    game = TreasureGame(seed, [Seat(f"s{i}", sites[i]) for i in range(len(agents))], movable=movable)
    while not game.is_over:
        seat = game.state.current
        before = game.state
        action = agents[seat].act(game, seat)
        assert game.state == before
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("names", [("random", "greedy"), ("strong", "random", "greedy", "strong")])
def test_bots_play_legal_actions_to_the_end(names: tuple[str, ...]) -> None:
    game = play([make_agent("treasure", n, i) for i, n in enumerate(names)], seed=3)
    assert game.is_over


def test_bots_play_the_movable_variant() -> None:
    game = play([make_agent("treasure", "strong", 1), make_agent("treasure", "greedy", 2)], 4, movable=True)
    assert game.is_over


def test_bots_are_deterministic_for_a_seed() -> None:
    for name in ("random", "greedy", "strong"):
        a = play([make_agent("treasure", name, 5)], seed=8)
        b = play([make_agent("treasure", name, 5)], seed=8)
        assert a.history == b.history


def test_strong_fills_a_solo_site_faster_than_greedy_on_average() -> None:
    def turns(name: str) -> float:
        results = [play([make_agent("treasure", name, s)], seed=s, sites=("oasis",)) for s in range(6)]
        return sum(g.state.turns[0] for g in results) / len(results)

    assert turns("strong") < turns("greedy")


def test_the_exact_bot_is_seated_by_name_and_plays_a_race_to_the_end() -> None:
    """`exact` (the review's values, docs/analysis.md) is a bot like the others: by name in
    the simulator, the terminal and the server; R4 ends its game."""
    bots = [make_agent("treasure", "exact", 1), make_agent("treasure", "greedy", 2)]
    assert bots[0].name == "exact"
    game = play(bots, seed=6)
    assert game.is_over
