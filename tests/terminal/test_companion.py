"""The paper players' companion: the round dice and bought dice of a seed (T4.1, T4.6),
and the score check (T7)."""

from __future__ import annotations

import pytest

from mummy.cli import main
from mummy.terminal.companion import CompanionSession, big_dice
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.rules import ROUNDS, bought_die, round_dice


def test_the_rounds_show_the_games_dice() -> None:
    """T4.6: the same seed gives the companion's dice and the online game's."""
    session = CompanionSession(41)
    game = TombGame(41, [PlayerSetup("ann")])
    assert f"round 1 of {ROUNDS}" in session.screen() and big_dice(game.dice) in session.screen()
    for r in range(2, ROUNDS + 1):
        assert big_dice(round_dice(41, r)) in session.step("")
    assert "last round" in session.step("")
    assert f"round {ROUNDS - 1} of" in session.step("p")


def test_each_player_buys_from_their_own_stream() -> None:
    """T4.6: player N's k-th bought die is (seed, seat N-1, k), whoever else bought."""
    session = CompanionSession(5, players=3)
    firsts = [session.step("b 2"), session.step("b"), session.step("b 2"), session.step("b 3")]
    assert firsts[0].startswith("Player 2's bought die #1") and big_dice((bought_die(5, 1, 0),)) in firsts[0]
    assert big_dice((bought_die(5, 0, 0),)) in firsts[1]
    assert firsts[2].startswith("Player 2's bought die #2") and big_dice((bought_die(5, 1, 1),)) in firsts[2]
    assert big_dice((bought_die(5, 2, 0),)) in firsts[3]
    assert "from 1 to 3" in session.step("b 4") and "from 1 to 3" in session.step("b x")


def test_a_score_check_asks_then_scores_and_names_faults() -> None:
    session = CompanionSession(1)
    assert "Score check (1/14)" in session.step("score")
    answers = ["6", "7", "4", "4", "3", "18 16 26 20 18", "4", "3", "3", "0", "0", "0", "maybe", "y", "y"]
    out = [session.step(a) for a in answers]
    assert "answer y or n" in out[-3]
    assert "total" in out[-1] and "Check this: skeletons: 7 is more than the map's 6 (T5.3)" in out[-1]
    assert "round 1 of" in session.step("p")  # back to the dice


def test_the_command_runs_with_a_seed_and_says_it(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    lines = iter(["", "seed", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["companion", "tomb", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "seed 9: round 2 of 20" in out and "mummy companion tomb --seed 9" in out
