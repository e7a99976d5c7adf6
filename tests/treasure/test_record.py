"""Treasure records, snapshots, text rendering, terminal play and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mummy.cli import main
from mummy.render.treasure_text import render_game
from mummy.terminal.treasure_play import TreasureSession, run
from mummy.treasure.actions import fmt
from mummy.treasure.game import TreasureGame
from mummy.treasure.record import RecordError, replay_record, snapshot, to_record
from tests.treasure.helpers import act, game, put_on_top, set_dice


def played(seed: int = 3, players: int = 3) -> TreasureGame:
    g = TreasureGame(seed, players)
    rng = random.Random(seed)
    while not g.is_over:
        s = g.state.current
        g.apply(s, rng.choice(g.legal_actions(s)))
    return g


def test_R2_2_a_record_replays_every_shuffle_and_roll() -> None:
    g = played()
    obj = json.loads(json.dumps(to_record(g)))
    assert obj["format"] == "mummy.treasure.record" and obj["seats"][2]["site"] == "temple"
    result = replay_record(obj)
    assert result.ok and result.game.state == g.state
    obj["actions"][5]["action"] = "take:statue@A1.h"
    bad = replay_record(obj)
    assert not bad.ok and bad.error is not None and bad.error.index == 5


@pytest.mark.parametrize("obj", [
    {}, {"format": "mummy.treasure.record", "version": 2},
    {"format": "mummy.treasure.record", "version": 1, "seed": 1, "seats": [], "actions": []},
    {"format": "mummy.treasure.record", "version": 1, "seed": 1, "seats": [{"site": "moon"}], "actions": []},
    {"format": "mummy.treasure.record", "version": 1, "seed": 1, "seats": [{"site": "oasis"}] * 5,
     "actions": []},
    {"format": "mummy.treasure.record", "version": 1, "seed": 1, "seats": [{"site": "oasis"}],
     "movable": "yes", "actions": []},
])
def test_malformed_records_are_refused(obj: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        replay_record(obj)


def test_snapshot_shows_tops_and_odds_but_never_the_hidden_order() -> None:
    g = game()
    put_on_top(g, "chest-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    snap = json.loads(json.dumps(snapshot(g)))
    chest = next(p for p in snap["piles"] if p["pile"] == "chest")
    assert chest["top"]["tile"] == "chest-1" and chest["left"] == 8
    assert chest["top"]["chance"] == {"fraction": "1/1", "decimal": 1.0, "reroll": ""}
    text = json.dumps(snap)
    hidden = [t for t in g.order["chest"][1:]]
    assert not any(f'"{t}"' in text for t in hidden)
    assert snap["dice"] == "SSAJP" and snap["current"] == 0 and snap["over"] is False


def test_render_shows_piles_dice_and_sites() -> None:
    g = game()
    text = render_game(g)
    assert "Piles" in text and "Turn of p0: roll 0/3" in text and "oasis" in text and "valley" in text


def test_terminal_session_commands_and_bad_input() -> None:
    g = game(players=1)
    s = TreasureSession(g)
    assert "roll 0/3" in s.screen()
    assert s.step("take:amulet@A1.h").startswith("Refused: R3.1")
    out = s.step("roll")
    assert "roll 1/3" in out
    assert "reroll [" in s.step("legal")
    assert s.step("flip the table").startswith("Refused: notation")
    assert "Cannot undo" in s.step("undo")
    assert json.loads(s.step("json"))["format"] == "mummy.treasure.state"
    assert "notation" in s.step("help")
    assert s.step("quit") == "Bye."


def test_run_plays_to_the_end_and_saves(tmp_path: Path) -> None:
    g = TreasureGame(4, 2)

    def read(prompt: str) -> str:
        seat = g.state.current
        return fmt(g.legal_actions(seat)[0], g.grid(seat))

    out: list[str] = []
    path = tmp_path / "t.json"
    run(g, read, out.append, save_path=str(path))
    assert g.is_over and "R4" in out[-1]
    assert main(["replay", str(path)]) == 0


def test_cli_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "SSAA"]) == 0
    assert "2022199685/7346640384 = 0.2752550" in capsys.readouterr().out
    assert main(["odds", "SSAA", "--dice", "SSAJP", "--rolls", "2"]) == 0
    out = capsys.readouterr().out
    assert "671/1296" in out and "best reroll: PJ (keep SSA)" in out
    assert main(["odds", "SA", "--dice", "SAJJP"]) == 0
    assert "take the tile" in capsys.readouterr().out
    assert main(["odds", "SX"]) == 2
    assert "symbols are" in capsys.readouterr().err


def test_cli_play_treasure(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["roll", "nonsense", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "treasure", "--seed", "5", "--players", "3", "--site", "temple", "--movable"]) == 0
    out = capsys.readouterr().out
    assert "Mummy's Treasure (movable tiles), seed 5" in out and "temple" in out and "Refused" in out
    assert main(["play", "treasure", "--players", "5"]) == 2


def test_cli_play_treasure_against_a_bot(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["roll", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "treasure", "--seed", "3", "--bots", "strong"]) == 0
    assert "Turn of player 1" in capsys.readouterr().out
    assert main(["play", "treasure", "--players", "2", "--bots", "strong,strong,greedy"]) == 2


def test_a_bot_seat_moves_by_itself() -> None:
    from mummy.bots.registry import make_agent

    g = game(players=2)
    s = TreasureSession(g, bots={1: make_agent("treasure", "greedy", 0)})
    s.step("roll")
    before = len(g.history)
    while g.state.current == 0 and not g.is_over:
        s.step(fmt(g.legal_actions(0)[0], g.grid(0)))
    assert len(g.history) > before and (g.is_over or g.state.current == 0)
    assert any(p == 1 for p, _ in g.history)


def test_cli_deals_sites_and_first_player_at_random(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from mummy.treasure.game import deal_sites, random_first

    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "treasure", "--seed", "4", "--players", "2", "--site", "random", "--first", "random"]) == 0
    out = capsys.readouterr().out
    first = random_first(4, 2)
    assert f"player {first + 1} starts" in out
    for site in deal_sites(4, 2):
        assert site in out
    assert main(["play", "treasure", "--first", "3"]) == 2


def test_a_person_cannot_undo_a_bots_move() -> None:
    from mummy.bots.registry import make_agent
    from mummy.treasure.game import Seat

    g = TreasureGame(1, [Seat("me", "oasis"), Seat("bot", "valley")], first=1)
    s = TreasureSession(g, bots={1: make_agent("treasure", "greedy", 0)})
    assert g.state.current == 0 and g.history[-1][0] == 1
    assert s.step("undo") == "Cannot undo: the last move was a bot's."
    assert g.state.current == 0


def test_cli_bad_files_and_options_never_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "treasure", "--first", "²"]) == 2
    assert main(["sim", "treasure", "--games", "1", "--quiet", "--out", "/nonexistent/dir/x.jsonl"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe")
    assert main(["report", str(bad)]) == 2
    bad.write_text('{"game": "treasure"}\n')
    assert main(["report", str(bad)]) == 2
    good = tmp_path / "g.jsonl"
    assert main(["sim", "treasure", "--games", "1", "--quiet", "--out", str(good)]) == 0
    assert main(["report", str(good), "--out", "/proc/nope"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "missing" in err and "cannot write" in err
