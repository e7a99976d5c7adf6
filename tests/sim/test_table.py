"""Simulation results as a flat table (mummy.sim.table), the report's charts and the
progress bar: the designers' part of issue 14.

A small run of each game (three games of greedy against random, a fraction of a second)
is written by ``mummy sim --out`` as Parquet, CSV and JSON lines; the tables must load in
pandas and polars with the documented types and nothing left to parse, hold a row per
seat, give ``mummy report`` what it needs, and match the schema printed in
docs/bots-and-simulation.md. The optional libraries (the ``analysis`` extra) are made to
fail to import, one at a time, to check the commands either run without them (tqdm) or
name the extra to install (pyarrow, matplotlib).
"""

from __future__ import annotations

import csv
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mummy.cli import main
from mummy.sim.runner import play_one, specs
from mummy.sim.summary import summarise
from mummy.sim.table import TYPES, columns_of, read_lines, schema_markdown, write_table

pd = pytest.importorskip("pandas", reason="the simulation tables need the analysis extra")
pl = pytest.importorskip("polars")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "bots-and-simulation.md"
GAMES = 3
BOTS = "greedy,random"
EXTRA = "pip install 'mummy[analysis]'"
#: The documented types as pandas and polars read them.
PANDAS = {"int64": "int64", "float64": "float64", "bool": "bool"}
POLARS = {"int64": pl.Int64, "float64": pl.Float64, "bool": pl.Boolean, "string": pl.String}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Each game's run written by ``mummy sim --out`` as each format: (game, suffix) -> file."""
    folder = tmp_path_factory.mktemp("runs")
    files = {}
    for game in ("tomb", "treasure"):
        for suffix in ("parquet", "csv", "jsonl"):
            out = folder / f"{game}.{suffix}"
            assert main(["sim", game, "--bots", BOTS, "--games", str(GAMES), "--seed", "11", "--quiet",
                         "--out", str(out)]) == 0
            files[(game, suffix)] = out
    return files


def json_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def read_pandas(path: Path) -> Any:
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


def read_polars(path: Path) -> Any:
    return pl.read_parquet(path) if path.suffix == ".parquet" else pl.read_csv(path)


def without_time(line: dict[str, Any]) -> dict[str, Any]:
    """A line as a table holds it, less the wall time (another run, another time)."""
    return {k: v for k, v in line.items() if k not in ("record", "chances", "seconds")}


TABLES = [(g, s) for g in ("tomb", "treasure") for s in ("parquet", "csv")]


# -- the documented schema ------------------------------------------------------------------

def doc_table(lead: str) -> list[str]:
    """The Markdown table that follows the paragraph ``lead`` in the doc, row by row."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(lead + "\n\n") + len(lead) + 2
    rows = []
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


@pytest.mark.parametrize(("lead", "game"), [("Columns of both games:", None),
                                            ("The Tomb's own columns (a row is a sheet):", "tomb"),
                                            ("Treasure's own columns (a row is a seat):", "treasure")])
def test_the_documented_columns_are_the_codes(lead: str, game: str | None) -> None:
    """docs/bots-and-simulation.md lists every column with its type and meaning, as the
    code defines them (mummy.sim.table.COMMON and each SimKind.columns)."""
    assert doc_table(lead) == schema_markdown(game).splitlines()


@pytest.mark.parametrize("game", ["tomb", "treasure"])
def test_every_column_has_a_known_type_a_meaning_and_a_unique_name(game: str) -> None:
    cols = columns_of(game)
    assert len({c.name for c in cols}) == len(cols)
    assert all(c.type in TYPES and c.meaning and "|" not in c.meaning for c in cols)


def test_the_docs_python_examples_run_on_a_table(runs: dict[tuple[str, str], Path],
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The pandas, polars and pyarrow examples of the doc's table section run as written
    on the files its shell example writes (tomb.parquet, treasure.csv)."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Results as a table"):text.index("### The summary table")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    (tmp_path / "tomb.parquet").write_bytes(runs[("tomb", "parquet")].read_bytes())
    (tmp_path / "treasure.csv").write_bytes(runs[("treasure", "csv")].read_bytes())
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    for number, block in enumerate(blocks):
        exec(compile(block, f"doc-example-{number}", "exec"), namespace)
    assert set(namespace["by_game"].columns) == {"greedy", "random"} and len(namespace["by_game"]) == GAMES
    assert namespace["win_rate"]["rate"].sum() <= 1.0
    assert namespace["meanings"]["score"] == "the sheet's final total (T7)"


# -- the tables: rows, types, values ---------------------------------------------------------

@pytest.mark.parametrize(("game", "suffix"), TABLES)
def test_a_row_per_seat_and_the_seats_of_a_game_share_its_index(runs: dict[tuple[str, str], Path], game: str,
                                                                  suffix: str) -> None:
    df = read_pandas(runs[(game, suffix)])
    assert len(df) == GAMES * 2
    for index, seats in df.groupby("game_index"):
        assert list(seats["seat"]) == [0, 1] and set(seats["players"]) == {2}
        assert seats["seed"].nunique() == 1 and int(seats["seed"].iloc[0]) == 11 + int(index)
        assert seats["seconds"].nunique() == 1
        assert ",".join(seats["bot"]) == seats["lineup"].iloc[0]
    assert sorted(df["game_index"].unique()) == list(range(GAMES))


@pytest.mark.parametrize(("game", "suffix"), TABLES)
def test_pandas_reads_the_documented_types_without_parsing(runs: dict[tuple[str, str], Path], game: str,
                                                          suffix: str) -> None:
    df = read_pandas(runs[(game, suffix)])
    cols = columns_of(game)
    assert list(df.columns) == [c.name for c in cols]
    for c in cols:
        if c.type == "string":
            assert pd.api.types.is_string_dtype(df[c.name]), c.name
            assert all(isinstance(v, str) for v in df[c.name]), c.name
        else:
            assert str(df[c.name].dtype) == PANDAS[c.type], c.name
    assert not df.isna().any().any()


@pytest.mark.parametrize(("game", "suffix"), TABLES)
def test_polars_reads_the_documented_types_without_parsing(runs: dict[tuple[str, str], Path], game: str,
                                                          suffix: str) -> None:
    pf = read_polars(runs[(game, suffix)])
    assert dict(pf.schema) == {c.name: POLARS[c.type] for c in columns_of(game)}
    assert pf.null_count().sum_horizontal().item() == 0


@pytest.mark.parametrize(("game", "suffix"), TABLES)
def test_a_table_holds_what_the_json_lines_hold(runs: dict[tuple[str, str], Path], game: str,
                                                suffix: str) -> None:
    """The same seeds as JSON lines (still written for any other extension, each line a
    game with its record) and as a table give the same games, less what a table cannot
    hold (the record, Treasure's per-turn chances) and the wall time."""
    lines = json_lines(runs[(game, "jsonl")])
    assert len(lines) == GAMES and all(line["game"] == game and "record" in line for line in lines)
    assert [without_time(line) for line in read_lines(runs[(game, suffix)])] == [without_time(x) for x in lines]


@pytest.mark.parametrize("game", ["tomb", "treasure"])
def test_a_table_round_trips_exactly(tmp_path: Path, game: str) -> None:
    lines = [play_one(s) for s in specs(game, ["greedy", "random"], 2, seed=5)]
    expected = [{k: v for k, v in line.items() if k not in ("record", "chances")} for line in lines]
    for suffix in ("parquet", "csv"):
        assert write_table(lines, tmp_path / f"t.{suffix}") == 4
        assert read_lines(tmp_path / f"t.{suffix}") == expected


def test_parquet_keeps_each_columns_meaning(runs: dict[tuple[str, str], Path]) -> None:
    schema = pq.read_schema(runs[("treasure", "parquet")])
    assert {f.name: f.metadata[b"meaning"].decode() for f in schema} == \
        {c.name: c.meaning for c in columns_of("treasure")}


# -- the report ------------------------------------------------------------------------------

#: The attributes by which a page makes a browser fetch something.
FETCHING = frozenset({"src", "href", "xlink:href", "srcset", "action", "poster", "data", "background",
                      "formaction"})


class References(HTMLParser):
    """Every tag and every attribute that could make a browser fetch something."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.references: list[str] = []
        self.svgs: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.references += [value or "" for name, value in attrs if name in FETCHING]
        if tag == "svg":
            self.svgs.append(dict(attrs))


def assert_self_contained(page: str) -> References:
    """The page asks nothing of the network or of other files: no script, no linked style
    sheet or frame, every src/href a fragment of the page itself or a data URI, and no
    http(s) URL anywhere (a style's url() included)."""
    found = References()
    found.feed(page)
    assert not found.tags & {"script", "link", "iframe", "object", "embed", "img", "image", "base"}, found.tags
    assert all(ref.startswith(("#", "data:")) for ref in found.references), \
        [r for r in found.references if not r.startswith(("#", "data:"))]
    assert not re.search(r"https?:|//[\w.-]+\.\w|@import|url\((?!#)", page)
    return found


@pytest.mark.parametrize(("game", "suffix"), [("tomb", "parquet"), ("treasure", "csv"), ("treasure", "jsonl")])
def test_mummy_report_reads_a_table_or_json_lines_into_one_self_contained_page(
        runs: dict[tuple[str, str], Path], tmp_path: Path, game: str, suffix: str) -> None:
    out = tmp_path / "report"
    assert main(["report", str(runs[(game, suffix)]), "--out", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "summary.json"]
    found = assert_self_contained(page)
    assert len(found.svgs) >= 3 and all(s.get("role") == "img" and s.get("aria-label") for s in found.svgs)
    assert "<path" in page and "default-src 'none'" in page  # matplotlib's drawing; the page's policy
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # the charts' ids do not collide
    assert all(ref[1:] in ids for ref in found.references if ref.startswith("#"))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    from_lines = summarise(json_lines(runs[(game, "jsonl")]))
    for figures in (summary, from_lines):  # another run, another wall time
        for bot in figures["bots"].values():
            bot.pop("seconds_per_game", None)
    assert summary == from_lines
    if game == "treasure":
        from_table = suffix != "jsonl"
        assert ("No odds-realised chart" in page) == from_table
        assert ("Odds realised" in page) != from_table


# -- the optional libraries: tqdm, pyarrow, matplotlib ---------------------------------------

def test_mummy_sim_draws_a_progress_bar_on_stderr_with_tqdm(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    assert main(["sim", "treasure", "--bots", BOTS, "--games", "2"]) == 0
    captured = capsys.readouterr()
    assert re.search(r"100%\|.*\| 2/2 \[", captured.err), captured.err
    assert "game/s" in captured.err and "2 games of treasure" in captured.out
    assert "2/2" not in captured.out
    assert main(["sim", "treasure", "--bots", BOTS, "--games", "2", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_mummy_sim_runs_without_tqdm_and_without_a_bar(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` now raises ImportError
    with pytest.raises(ImportError):
        import tqdm  # noqa: F401
    assert main(["sim", "tomb", "--bots", BOTS, "--games", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "2 games of tomb" in captured.out


def test_parquet_without_pyarrow_names_the_extra(runs: dict[tuple[str, str], Path], monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for module in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "t.parquet"
    assert main(["sim", "tomb", "--bots", BOTS, "--games", "1", "--quiet", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"mummy sim: Parquet output needs pyarrow: {EXTRA}"
    assert not out.exists()  # refused before a game was played
    assert main(["report", str(runs[("tomb", "parquet")]), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.strip() == f"mummy report: Reading Parquet needs pyarrow: {EXTRA}"
    # CSV needs nothing from the extra.
    assert main(["sim", "tomb", "--bots", BOTS, "--games", "1", "--quiet", "--out", str(tmp_path / "t.csv")]) == 0


def test_the_report_without_matplotlib_names_the_extra(runs: dict[tuple[str, str], Path],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for module in ("matplotlib", "matplotlib.figure", "matplotlib.ticker"):
        monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "r"
    assert main(["report", str(runs[("tomb", "csv")]), "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip() == f"mummy report: Drawing the report's charts needs matplotlib: {EXTRA}"
    assert not out.exists()


# -- tables that are not mummy sim's ---------------------------------------------------------

def test_a_table_with_a_missing_column_or_a_bad_cell_is_refused(runs: dict[tuple[str, str], Path], tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    df = pd.read_csv(runs[("treasure", "csv")])
    df.to_csv(tmp_path / "resaved.csv", index=False)  # pandas writes True/False: still a table
    assert read_lines(tmp_path / "resaved.csv") == read_lines(runs[("treasure", "csv")])
    df.drop(columns=["turns"]).to_csv(tmp_path / "missing.csv", index=False)
    assert main(["report", str(tmp_path / "missing.csv"), "--out", str(tmp_path / "r")]) == 2
    assert "missing columns turns" in capsys.readouterr().err
    with open(runs[("treasure", "csv")], encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    for column, cell in (("turns", "many"), ("movable", "maybe")):
        bad = [row[:] for row in rows]
        bad[1][rows[0].index(column)] = cell
        with open(tmp_path / "bad.csv", "w", encoding="utf-8", newline="") as fh:
            csv.writer(fh).writerows(bad)
        assert main(["report", str(tmp_path / "bad.csv"), "--out", str(tmp_path / "r")]) == 2
        err = capsys.readouterr().err
        assert "does not read as its column's type" in err and repr(cell) in err and "Traceback" not in err
    (tmp_path / "foreign.parquet").write_bytes(b"PAR1 not really")
    assert main(["report", str(tmp_path / "foreign.parquet"), "--out", str(tmp_path / "r")]) == 2
    assert "not a Parquet file" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.browser
def test_chromium_draws_the_report_without_a_request_or_a_policy_violation(
        runs: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    """The page as a browser opens it: the only request is the page itself, nothing
    breaks its Content-Security-Policy (a violation is a console error), and every chart
    is drawn with a size. Skipped without Chromium, unless MUMMY_REQUIRE_BROWSER=1."""
    import os
    import shutil

    chromium = os.environ.get("MUMMY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if not chromium:
        if os.environ.get("MUMMY_REQUIRE_BROWSER") == "1":
            pytest.fail("the browser check needs playwright and Chromium")
        pytest.skip("the browser check needs playwright and Chromium")
    out = tmp_path / "report"
    assert main(["report", str(runs[("treasure", "jsonl")]), "--out", str(out)]) == 0
    page_url = (out / "index.html").as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                     "--disable-background-networking"])
        try:
            page = browser.new_page()
            requests: list[str] = []
            errors: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_url)
            sizes = page.evaluate("() => [...document.querySelectorAll('svg')].map(s => s.getBBox().width)")
        finally:
            browser.close()
    assert requests == [page_url] and errors == []
    assert len(sizes) >= 3 and all(width > 100 for width in sizes)
