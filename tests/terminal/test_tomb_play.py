"""Terminal play and the mummy command: clear messages, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mummy.cli import main
from mummy.terminal.tomb_play import TombSession, run
from mummy.tomb.game import TombGame
from tests.helpers import FIVE_FIVE_SEED


def session() -> TombSession:
    return TombSession(TombGame(FIVE_FIVE_SEED, 1))


def test_actions_commands_and_bad_input() -> None:
    s = session()
    assert "Round 1/20" in s.screen()
    out = s.step("1:5a.r0@J1")
    assert "1:5x" in out
    assert s.step("1:5a.r0@J1").startswith("Refused: T4.2")
    assert s.step("hello there").startswith("Refused: notation")
    assert "T3.1" in s.step("2:5b.r0@A1")
    assert "place [" in s.step("legal")
    assert s.step("legal dig").startswith("dig")
    assert "Score if the game ended now" in s.step("score")
    assert "Undone" in s.step("undo")
    assert "Cannot undo" in s.step("undo")
    assert "notation" in s.step("help")
    assert json.loads(s.step("json"))["format"] == "mummy.tomb.sheet"
    assert s.step("quit") == "Bye." and s.finished


def test_run_plays_a_whole_game_from_input_and_saves_the_record(tmp_path: Path) -> None:
    game = TombGame(3, 1)
    outputs: list[str] = []

    def read(prompt: str) -> str:
        legal = game.legal_actions(0)
        from mummy.tomb.actions import fmt

        return fmt(legal[-1], game.maps[0].grid)  # always the last listed action

    path = tmp_path / "game.json"
    run(game, read, outputs.append, save_path=str(path))
    assert game.is_over
    assert "Final scores (T7):" in outputs[-1]
    assert main(["replay", str(path)]) == 0


def test_eof_quits_cleanly() -> None:
    outputs: list[str] = []

    def read(prompt: str) -> str:
        raise EOFError

    run(TombGame(1, 1), read, outputs.append)
    assert outputs[-1] == "Bye."


def test_cli_replay_valid_invalid_and_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mummy.tomb.record import to_record

    g = TombGame(FIVE_FIVE_SEED, 1)
    s = TombSession(g)
    s.step("1:5a.r0@J1")
    record = to_record(g)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main(["replay", str(good)]) == 0
    assert "VALID: 1 actions replayed" in capsys.readouterr().out
    record["actions"][0]["action"] = "1:5a.r0@A1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["replay", str(bad)]) == 1
    assert "INVALID: action 1" in capsys.readouterr().out
    (tmp_path / "junk.json").write_text("{nope")
    assert main(["replay", str(tmp_path / "junk.json")]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_maps_and_check_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps"]) == 0
    assert "map2: Map 2 (advanced)" in capsys.readouterr().out
    from importlib import resources

    text = resources.files("mummy.tomb").joinpath("data").joinpath("map2.txt").read_text()
    good = tmp_path / "mine.txt"
    good.write_text(text)
    assert main(["check-map", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("key: C1", "key: E1"))
    assert main(["check-map", str(bad)]) == 1
    assert f"INVALID: {bad}:" in capsys.readouterr().out


def test_cli_play_with_bad_options_exits_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "tomb", "--seed", "x"], ["play", "tomb", "--map", "map9"],
                 ["play", "tomb", "--players", "0"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_play_runs_in_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["1:5a.r0@J1", "nonsense", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "tomb", "--seed", str(FIVE_FIVE_SEED)]) == 0
    out = capsys.readouterr().out
    assert f"seed {FIVE_FIVE_SEED}" in out and "Refused: notation" in out and "Bye." in out


def test_bots_take_seats_alongside_people() -> None:
    from mummy.bots.registry import make_agent
    from mummy.tomb.game import PlayerSetup

    game = TombGame(FIVE_FIVE_SEED, [PlayerSetup("me"), PlayerSetup("bot")])
    s = TombSession(game, bots={1: make_agent("tomb", "greedy", 1)})
    assert game.sheets[1].phase == "waiting"  # the bot played its round at once
    assert "Bots played: bot:" in s.screen()
    out = s.step("1:5a.r0@J1")
    assert "[me]" in out and "Bots played" not in out
    s.step("2:5b.r3@J4")
    for _ in range(10):
        if game.round == 2:
            break
        legal = game.legal_actions(0)
        from mummy.tomb.actions import fmt

        s.step(fmt(legal[0], game.maps[0].grid))
    assert game.round == 2 and game.sheets[1].phase == "waiting"  # and round 2 is played too


def test_cli_play_tomb_with_a_bot(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "tomb", "--seed", "1", "--bots", "greedy"]) == 0
    assert "Bots played: greedy bot 1" in capsys.readouterr().out
    assert main(["play", "tomb", "--bots", "genius"]) == 2


def test_a_huge_line_of_garbage_is_refused_without_being_echoed_whole() -> None:
    from mummy.terminal.treasure_play import TreasureSession
    from mummy.treasure.game import Seat, TreasureGame

    garbage = "x" * 100_000
    out = session().step(garbage)
    assert out.startswith("Refused: notation") and len(out) < 400
    t = TreasureSession(TreasureGame(1, [Seat("Ann", "oasis")]))
    t.step("roll")
    out = t.step("take:" + garbage)
    assert out.startswith("Refused: R1.2: there is no pile 'xxx") and len(out) < 400
    out = t.step(garbage)
    assert out.startswith("Refused: notation") and len(out) < 400


def test_full_width_digits_are_not_the_notation() -> None:
    s = session()
    assert s.step("1:5a.r0@J\uff11").startswith("Refused: notation")
    assert "ASCII" in s.step("\uff11:5a.r0@J1")
