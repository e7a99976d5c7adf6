"""Tomb bots: legal actions only, deterministic for a seed, the game left untouched."""

from __future__ import annotations

import pytest

from mummy.bots.base import Agent
from mummy.bots.registry import make_agent
from mummy.bots.tomb import GreedyTombAgent, RandomTombAgent, StrongTombAgent, evaluate
from mummy.tomb.game import TombGame
from mummy.tomb.scoring import score
from tests.helpers import state


def play(agents: list[Agent], seed: int) -> TombGame:
    game = TombGame(seed, len(agents))
    while not game.is_over:
        seat = game.to_act()[0]
        before = state(game)
        action = agents[seat].act(game, seat)
        assert state(game) == before, "a bot changed the game while thinking"
        game.apply(seat, action)  # the checked path: an illegal action would raise
    return game


FAST_STRONG = {"beam": 3, "branch": 8, "depth": 5}


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_play_legal_actions_to_the_end(name: str) -> None:
    game = play([make_agent("tomb", name, 1), make_agent("tomb", name, 2)], seed=5)
    assert game.is_over


def test_strong_bot_plays_a_whole_game_legally_and_deterministically() -> None:
    a = play([StrongTombAgent(3, **FAST_STRONG)], seed=11)
    b = play([StrongTombAgent(3, **FAST_STRONG)], seed=11)
    assert a.history == b.history
    assert score(a.sheets[0]).total == score(b.sheets[0]).total


def test_random_and_greedy_are_deterministic_for_a_seed() -> None:
    for cls in (RandomTombAgent, GreedyTombAgent):
        assert play([cls(7)], seed=2).history == play([cls(7)], seed=2).history
    assert play([RandomTombAgent(7)], 2).history != play([RandomTombAgent(8)], 2).history


def test_strong_beats_greedy_beats_random_on_a_few_games() -> None:
    totals = {}
    for name, agent in (("random", RandomTombAgent), ("greedy", GreedyTombAgent)):
        totals[name] = sum(score(play([agent(s)], seed=s).sheets[0]).total for s in range(3))
    totals["strong"] = sum(score(play([StrongTombAgent(s, **FAST_STRONG)], seed=s).sheets[0]).total
                           for s in range(3))
    assert totals["strong"] > totals["greedy"] > totals["random"]


def test_evaluation_prefers_points_and_reach() -> None:
    game = TombGame(99, 1)
    sheet = game.sheets[0]
    empty = evaluate(sheet, 1)
    from tests.helpers import act

    act(game, "1:5a.r0@J1")
    assert evaluate(game.sheets[0], 1) > empty


def test_registry_refuses_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_agent("tomb", "genius")
    with pytest.raises(ValueError, match="unknown game"):
        make_agent("chess", "random")
    assert isinstance(make_agent("tomb", "strong"), Agent)
