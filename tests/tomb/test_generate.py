"""Generated maps (T10): valid, the same for the same id, playable wherever a map is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mummy.core.grid import STEPS
from mummy.tomb.content import is_map, map_ids, map_spec, parse_map
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.generate import DIFFICULTIES, map_id, map_text, parse_id
from mummy.tomb.record import replay_record, to_record


def _connected(spec: object) -> bool:
    grid = spec.grid  # type: ignore[attr-defined]
    free = {sq for sq in grid.squares() if not spec.stone >> sq & 1}  # type: ignore[attr-defined]
    start = next(iter(free))
    seen, todo = {start}, [start]
    while todo:
        x, y = grid.xy(todo.pop())
        for dx, dy in STEPS.values():
            if grid.on_grid(x + dx, y + dy) and (n := grid.square(x + dx, y + dy)) in free and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == free


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_a_hundred_seeds_give_a_hundred_valid_maps(difficulty: str) -> None:
    """T10: each passes the map checks, its free squares are all reachable, it has an
    entrance on each side, and no two seeds draw the same map."""
    texts = set()
    for seed in range(100):
        text = map_text(difficulty, seed)
        spec = parse_map(text, f"{difficulty}-{seed}")
        assert spec.id == map_id(difficulty, seed)
        assert sorted(side for _, side in spec.entrances) == ["E", "N", "S", "W"]
        assert len(spec.rooms) == 8 and len(spec.oozes) == 6 and len(spec.mimics) == 6
        assert _connected(spec), seed
        texts.add(text.split("grid:", 1)[1])
    assert len(texts) == 100


def test_the_same_id_draws_the_same_map() -> None:
    assert map_text("hard", 7, 2) == map_text("hard", 7, 2)
    assert map_text("hard", 7, 2) != map_text("hard", 7, 3)
    assert parse_id("gen-hard-7-2") == ("hard", 7, 2)


@pytest.mark.parametrize("text", ["gen-insane-1-0", "gen-hard-x-0", "map9", "gen-hard-1", ""])
def test_an_unknown_map_is_refused_by_name(text: str) -> None:
    assert not is_map(text)
    with pytest.raises(ValueError, match="unknown map"):
        map_spec(text)


def test_a_generated_map_plays_and_replays_by_its_id() -> None:
    """The id is the map: a record names it, and the replay rebuilds it."""
    name = map_id("standard", 3)
    assert is_map(name) and name not in map_ids()
    from mummy.bots.registry import make_agent

    game = TombGame(5, [PlayerSetup("ann", name)])
    bot = make_agent("tomb", "greedy", 1)
    while not game.is_over:
        game.apply(0, bot.act(game, 0))
    again = replay_record(to_record(game))
    assert again.ok and again.game.sheets[0].covered == game.sheets[0].covered
    assert again.game.maps[0].grid.width == 12


def test_a_generated_map_is_taken_by_the_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal's and the simulator's --map take a generated id like a packaged map."""
    from mummy.cli import main

    out = tmp_path / "sim.jsonl"
    assert main(["sim", "tomb", "--bots", "greedy", "--games", "2", "--map", "gen-easy-7-0", "--quiet",
                 "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["map"] for line in lines] == ["gen-easy-7-0"] * 2
    with pytest.raises(SystemExit):
        main(["sim", "tomb", "--games", "1", "--map", "gen-nightmare-1-0"])
    assert "gen-nightmare-1-0" in capsys.readouterr().err


def test_a_map_file_of_ones_own_is_played_by_the_terminal_and_the_simulator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--map FILE: checked (T10) and played under its custom id, in the simulator's worker
    processes too."""
    from mummy.cli import main
    from mummy.tomb.content import custom_map_id

    mine = tmp_path / "mine.txt"
    mine.write_text(map_text("hard", 4, 1).replace("name: gen-hard-4-1", "name: mine"), encoding="utf-8")
    out = tmp_path / "sim.jsonl"
    assert main(["sim", "tomb", "--bots", "greedy", "--games", "2", "--jobs", "2", "--map", str(mine), "--quiet",
                 "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {line["map"] for line in lines} == {custom_map_id(mine.read_text(encoding="utf-8"))}
    bad = tmp_path / "bad.txt"
    bad.write_text(mine.read_text(encoding="utf-8").replace("room: L4 N", "room: L4 S"), encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["play", "tomb", "--map", str(bad)])
    assert "bad.txt" in capsys.readouterr().err
