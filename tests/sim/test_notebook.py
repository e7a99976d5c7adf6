"""examples/simulation.ipynb runs: its code cells, in order, on a small simulation.

The cells are executed as the notebook's kernel would, in one namespace, with
matplotlib's non-interactive backend and in a temporary folder (the notebook writes its
Parquet files and plots under the current folder). The first code cell sets the run's
size; the test shrinks it to two games of two fast bots, then checks what the later
cells built, so a cell that raises or computes something else fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

matplotlib = pytest.importorskip("matplotlib", reason="the notebook needs the analysis extra")
nbformat = pytest.importorskip("nbformat", reason="running the notebook needs the dev extra (nbformat)")

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "simulation.ipynb"


def code_cells() -> list[str]:
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def test_the_notebook_is_valid_nbformat_without_stored_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def run_notebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: int, bots: str) -> dict[str, Any]:
    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    cells = code_cells()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(cells[0], "cell-1", "exec"), namespace)  # the run's parameters
    namespace.update(GAMES=games, BOTS=bots)
    for number, source in enumerate(cells[1:], start=2):
        exec(compile(source, f"cell-{number}", "exec"), namespace)
    return namespace


@pytest.mark.slow
def test_the_notebook_runs_a_simulation_and_plots_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib.pyplot as plt

    ns = run_notebook(tmp_path, monkeypatch, games=2, bots="greedy,random")
    try:
        df = ns["df"]
        setups = len(ns["MAPS"]) * len(ns["MODES"])
        assert len(ns["FILES"]) == setups and all(Path(f).exists() for f in ns["FILES"])
        assert len(df) == setups * 2 * 2  # setups x games x sheets
        assert set(df["bot"]) == {"greedy", "random"}
        assert str(df["score"].dtype) == "int64" and str(df["ach_the_mapmaker"].dtype) == "bool"
        # pandas and polars agree on every setup's mean score.
        pandas_means = ns["by_setup"]["mean"].to_dict()
        polars_means = {(r["map"], r["mode"], r["bot"]): r["mean"] for r in ns["by_setup_pl"].iter_rows(named=True)}
        assert polars_means == pytest.approx(pandas_means)
        # One panel per map and mode, each with an outline per bot holding every sheet.
        axes = ns["fig"].axes
        assert len(axes) == setups
        for ax in axes:
            assert len(ax.patches) == 2 and len(ax.get_legend().get_texts()) == 2
        assert (tmp_path / "simulation-data" / "scores.png").stat().st_size > 10_000
        assert (tmp_path / "simulation-data" / "scores-box.png").exists()
        assert len(ns["fig2"].axes[0].get_xticklabels()) == setups * 2
    finally:
        plt.close("all")
