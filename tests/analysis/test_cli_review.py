"""``mummy review`` and ``mummy par`` (cli_review.py): par and the result in words, the
biggest mistakes with the better move, the chart, --json, and bad input as a message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mummy.analysis.review import TombAnalysis, TreasureAnalysis
from mummy.cli import main
from mummy.games import game_named
from mummy.tomb.record import to_record as tomb_record
from tests.analysis.helpers import TINY_STRONG, TINY_TREASURE, tomb_game, treasure_record


@pytest.fixture(autouse=True)
def small_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's analysts, at the tests' small sizes."""
    monkeypatch.setitem(game_named("tomb").loaded, "analysis", TombAnalysis(TINY_STRONG))
    monkeypatch.setitem(game_named("treasure").loaded, "analysis", TreasureAnalysis(TINY_TREASURE))


def write(path: Path, record: object) -> str:
    path.write_text(json.dumps(record))
    return str(path)


def test_review_of_a_treasure_game_in_words_and_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path / "t.json", treasure_record(9301, blunder_turn=2))
    assert main(["review", file, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert ", par " in out and "on these dice" in out and "the exact bot" in out
    assert "The biggest mistakes:\n1. Turn 2, roll " in out and "   Better: " in out
    assert "Expected turns lost by turn:" in out and "|#" in out
    assert main(["review", file, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["game"] == "treasure" and got["decisions"] and got["mistakes"]
    assert got["par"]["par"] > 0 and "record" in got["par"]


def test_review_of_a_tomb_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path / "tomb.json", tomb_record(tomb_game(9202, TINY_STRONG, rounds=5, blunder=4)))
    assert main(["review", file, "--quiet"]) == 0
    out = capsys.readouterr().out
    # An unfinished game has a par (the bot's whole game) but no result yet.
    assert "on these dice (the strong bot); no result: the game is unfinished." in out
    assert "1. Round 4: " in out and "Points lost by round:" in out
    assert main(["par", file, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bot"] == "strong"


def test_par_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path / "t.json", treasure_record(9300))
    assert main(["par", file]) == 0
    assert "level with the exact bot (result +0)" in capsys.readouterr().out


def test_bad_input_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "mummy review: cannot read" in capsys.readouterr().err
    assert main(["review", write(tmp_path / "x.json", {"format": "chess"})]) == 1
    assert "not a game record" in capsys.readouterr().err
    file = write(tmp_path / "t.json", treasure_record(9300))
    assert main(["review", file, "--player", "3"]) == 1
    assert "there is no player 3" in capsys.readouterr().err
