"""OpenSpiel's MCTS as a bot: legal, seeded, blind to the seed's future, and seated by
name like every bot (``--bots mcts``)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel", reason="needs the research extra")

from mummy.bots.registry import bot_names, make_agent
from mummy.cli import main
from mummy.envs.mcts import MctsAgent, tomb_search_state
from mummy.tomb.game import TombGame
from mummy.tomb.record import to_record as tomb_record
from mummy.treasure.game import TreasureGame
from mummy.treasure.record import to_record as treasure_record


def test_mcts_is_a_bot_of_both_games() -> None:
    assert "mcts" in bot_names("tomb") and "mcts" in bot_names("treasure")
    assert isinstance(make_agent("tomb", "mcts", seed=3), MctsAgent)


def test_tomb_mcts_plays_legal_seeded_actions_and_leaves_the_game_alone() -> None:
    game = TombGame(99, 1)
    for _ in range(6):
        before = tomb_record(game)
        first = MctsAgent(7, simulations=40).act(game, 0)
        again = MctsAgent(7, simulations=40).act(game, 0)
        assert first == again
        assert tomb_record(game) == before and game.is_legal(0, first)
        game.apply(0, first)


def test_tomb_mcts_searches_its_own_sheet_in_a_game_of_several() -> None:
    game = TombGame(5, 3)
    state = tomb_search_state(game, 2)
    assert state.num_players() == 1 and not state.is_chance_node()
    action = MctsAgent(1, simulations=30).act(game, 2)
    assert game.is_legal(2, action)


def test_a_search_leaves_the_games_chance_events_alone() -> None:
    """The search plays on copies (the engines' ``copy()`` and ``seated()``): the rolls it
    imagines never join the real game's record of chance events."""
    tomb = TombGame(3, 2)
    chances = list(tomb.chances)
    for _ in range(4):
        MctsAgent(1, simulations=30).act(tomb, 0)
    assert tomb.chances == chances
    treasure = TreasureGame(4, 2)
    treasure.apply(0, treasure.legal_actions(0)[0])
    chances = list(treasure.chances)
    MctsAgent(1, simulations=30).act(treasure, 0)
    assert treasure.chances == chances


def test_treasure_mcts_finishes_a_game_against_the_strong_bot() -> None:
    game = TreasureGame(3, 2)
    agents = [MctsAgent(3, simulations=15), make_agent("treasure", "strong", seed=3)]
    while not game.is_over:
        seat = game.state.current
        before = treasure_record(game)
        action = agents[seat].act(game, seat)
        assert treasure_record(game) == before
        game.apply(seat, action)
    assert game.state.reason in ("full", "stuck")


@pytest.mark.slow
def test_mummy_sim_takes_the_mcts_bot(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    out = tmp_path / "t.jsonl"
    assert main(["sim", "tomb", "--bots", "mcts", "--games", "1", "--seed", "11", "--quiet", "--out", str(out)]) == 0
    line = json.loads(out.read_text().splitlines()[0])
    assert line["bots"] == ["mcts"] and line["record"]["final"] == line["scores"]
