"""Simulation: results per seed independent of the back end, summaries that agree with
the JSON lines, and reports."""

from __future__ import annotations

import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mummy.cli import main
from mummy.sim.report import write_report
from mummy.sim.runner import play_one, run, specs
from mummy.sim.summary import format_summary, percentile, summarise


def strip(row: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in row.items() if k != "seconds"}


def test_results_are_identical_with_one_or_two_processes() -> None:
    game_specs = specs("tomb", ["greedy"], 4, seed=20)
    one = [strip(r) for r in run(game_specs, jobs=1)]
    two = [strip(r) for r in run(game_specs, jobs=2)]
    assert one == two
    assert [r["seed"] for r in one] == [20, 21, 22, 23]


def test_treasure_bots_rotate_through_the_seats() -> None:
    game_specs = specs("treasure", ["strong", "greedy"], 4, seed=0)
    assert [s.bots for s in game_specs] == [("strong", "greedy"), ("greedy", "strong")] * 2


def test_summary_agrees_with_the_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim.jsonl"
    assert main(["sim", "tomb", "--bots", "greedy,random", "--games", "5", "--seed", "3", "--quiet",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 5
    greedy = [r["scores"][0] for r in rows]
    summary = summarise(rows)
    assert summary["bots"]["greedy"]["mean"] == round(statistics.mean(greedy), 2)
    assert summary["bots"]["greedy"]["median"] == statistics.median(greedy)
    assert summary["bots"]["greedy"]["p10"] == round(percentile(greedy, 0.1), 1)
    assert format_summary(summary).splitlines()[2].startswith("greedy")
    assert f"{statistics.mean(greedy):.1f}" in printed
    for r in rows:  # each line carries a record that replays to its scores
        from mummy.tomb.record import replay_record

        result = replay_record(r["record"])
        assert result.ok and r["scores"] == r["record"]["final"]


def test_treasure_summary_win_rates_agree(tmp_path: Path) -> None:
    rows = [play_one(s) for s in specs("treasure", ["strong", "random"], 4, seed=1)]
    summary = summarise(rows)
    wins = sum(1 for r in rows if r["places"].count(1) == 1 and r["places"][r["bots"].index("strong")] == 1)
    assert summary["bots"]["strong"]["win_rate"] == round(wins / 4, 3)
    assert sum(summary["seat_win_rate"].values()) == pytest.approx((4 - summary["shared_wins"]) / 4)


@pytest.mark.parametrize("game", ["tomb", "treasure"])
def test_report_is_a_self_contained_page(tmp_path: Path, game: str) -> None:
    bots = ["greedy", "random"]
    rows = [play_one(s) for s in specs(game, bots, 3, seed=4)]
    path = write_report(rows, tmp_path / "r", source="test")
    page = path.read_text()
    assert page.startswith("<!doctype html>") and page.count("<svg") >= 3
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["games"] == 3
    if game == "tomb":
        assert "Mean points per scoring line" in page and "Achievements" in page
    else:
        assert "Tiles taken per game, by pile" in page and "first-seat advantage" in page


def test_cli_report_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.jsonl"
    assert main(["sim", "treasure", "--bots", "strong", "--games", "2", "--quiet", "--out", str(out)]) == 0
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 0
    assert (tmp_path / "rep" / "index.html").exists()
    (tmp_path / "bad.jsonl").write_text("{nope\n")
    assert main(["report", str(tmp_path / "bad.jsonl")]) == 2
    assert main(["sim", "tomb", "--bots", "genius"]) == 2
    assert main(["sim", "treasure", "--bots", "strong", "--sites", "moon"]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is an optional dependency (pip install 'mummy[cluster]')")
def test_ray_back_end_on_a_local_cluster_gives_the_same_results(tmp_path: Path) -> None:
    """The test starts its own local Ray cluster (and stops only that one), then runs
    the simulation on it as a separate driver, through the command line."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _temp_dir=tempfile.mkdtemp(prefix="r", dir="/tmp"))  # Ray's socket paths must stay short
    try:
        address = ray.get_runtime_context().gcs_address
        outputs = {}
        for name, extra in (("ray", ["--ray", address]), ("local", ["--jobs", "1"])):
            out = tmp_path / f"{name}.jsonl"
            done = subprocess.run([sys.executable, "-m", "mummy.cli", "sim", "tomb", "--bots", "greedy",
                                   "--games", "3", "--seed", "40", "--quiet", "--out", str(out), *extra],
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-2000:]
            outputs[name] = [strip(json.loads(line)) for line in out.read_text().splitlines()]
        assert outputs["ray"] == outputs["local"] and len(outputs["ray"]) == 3
        game_specs = specs("treasure", ["strong", "greedy"], 2, seed=40)
        assert [strip(r) for r in run(game_specs, ray_address="local")] == [strip(r) for r in run(game_specs)]
    finally:
        ray.shutdown()


def test_an_unreachable_ray_address_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    assert main(["sim", "tomb", "--bots", "greedy", "--games", "1", "--quiet", "--ray", "ray://127.0.0.1:1"]) == 2
    assert "cannot reach the Ray cluster" in capsys.readouterr().err


def test_report_escapes_what_it_reads(tmp_path: Path) -> None:
    rows = [play_one(s) for s in specs("treasure", ["greedy"], 1, seed=2)]
    rows[0]["seed"] = "<script>alert(1)</script>"
    page = write_report(rows, tmp_path / "x").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_solo_treasure_summary_counts_turns_when_full_and_squares_when_not() -> None:
    rows = [play_one(s) for s in specs("treasure", ["random"], 3, seed=5)]
    summary = summarise(rows)["bots"]["random"]
    full = [r["turns"][0] for r in rows if r["reason"] == "full"]
    stuck = [r["squares"][0] for r in rows if r["reason"] != "full"]
    assert summary["mean_turns_finished"] == (round(statistics.mean(full), 2) if full else None)
    assert summary["mean_squares_unfinished"] == (round(statistics.mean(stuck), 2) if stuck else None)
    assert format_summary(summarise(rows)).splitlines()[1].split()[:4] == ["bot", "games", "finished", "turns"]
