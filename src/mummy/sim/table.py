"""A simulation's results as a flat table: one row per seat of each game.

``mummy sim --out`` writes JSON lines, one nested object per game, which suit a replay
but make pandas or polars parse. The same games as a table need no parsing: every
column is a plain string, whole number, real number or truth value, and each game's
seats are rows that share its ``game_index``. The columns are listed here (the ones of
both games) and in each game's sim (:attr:`mummy.sim.kinds.SimKind.columns`), each with
its type and meaning; docs/bots-and-simulation.md prints the same list, and a test
keeps the two equal.

Parquet goes through pyarrow (the ``analysis`` extra), imported only when a Parquet
file is written or read, so a player's install never needs it; CSV needs nothing.
Reading a table back (:func:`read_lines`) rebuilds the game lines that ``mummy report``
takes, less what a flat table cannot hold (the record, Treasure's per-turn chances).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from mummy.sim.columns import Column, game_item, seat_item
from mummy.sim.kinds import SIMS, sim_named

#: The file formats by the ``--out`` file's extension; any other extension is JSON lines.
TABLE_SUFFIXES: Final = (".parquet", ".csv")
#: Seat rows per Parquet row group: a long run is written as it goes, not held to the end.
ROW_GROUP: Final = 8192


def truth(text: str) -> bool:
    """A CSV truth value: ``true`` or ``false`` as written, in any case (pandas writes
    ``True``), and nothing else, so a damaged cell is refused rather than read as false."""
    folded = text.strip().lower()
    if folded not in ("true", "false"):
        raise ValueError(f"not a truth value: {text!r}")
    return folded == "true"


#: The column types: their Parquet (Arrow) names, and how a CSV cell reads back.
TYPES: Final[dict[str, Callable[[str], object]]] = {"string": str, "int64": int, "float64": float, "bool": truth}


class AnalysisUnavailable(RuntimeError):
    """pyarrow or matplotlib, the ``analysis`` extra, is not installed."""


def need(module: str, what: str) -> Any:
    """The optional ``module`` imported, or an error that names the extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise AnalysisUnavailable(f"{what} needs {module.split('.')[0]}: pip install 'mummy[analysis]'") from None


COMMON: Final = (
    Column("game", "string", "the game: `tomb` or `treasure`", lambda r, s: r["game"]),
    Column("game_index", "int64", "the game's number *i* in the run, from 0; the rows of a game share it",
           lambda r, s: r["index"]),
    Column("seed", "int64", "the game's seed (S + *i*)", lambda r, s: r["seed"]),
    Column("seat", "int64", "the seat, from 0", lambda r, s: s),
    Column("players", "int64", "the game's number of seats", lambda r, s: len(r["bots"])),
    Column("bot", "string", "the bot in this seat", lambda r, s: r["bots"][s]),
    Column("lineup", "string", "the game's bots in seat order, comma-separated (`strong,greedy`)",
           lambda r, s: ",".join(r["bots"])),
    Column("place", "int64", "the seat's place, 1 = winner (the Tomb's tie-breaks of T7; Treasure's R4.1, "
           "else most squares, R4.2); ties share a place", lambda r, s: r["places"][s]),
    Column("seconds", "float64", "the wall time of the whole game, all seats (the same on each of the game's "
           "rows; the only column that depends on the machine)", lambda r, s: r["seconds"]),
)


def columns_of(game: str) -> tuple[Column, ...]:
    """Every column of a game's table, in order: the common ones, then the game's own."""
    return COMMON + sim_named(game).columns


def flatten(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per seat of each game line, keyed by column name, in column order."""
    rows = []
    for line in lines:
        cols = columns_of(line["game"])
        for seat in range(len(line["bots"])):
            rows.append({c.name: c.value(line, seat) for c in cols})
    return rows


def unflatten(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game lines again from seat rows (rows of a game together, seats in order),
    as far as the table holds them (see each game's ``unflatten``)."""
    games: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        games.setdefault((row["game"], row["game_index"]), []).append(row)
    lines = []
    for (game, _), seats in games.items():
        seats.sort(key=lambda r: r["seat"])
        first = seats[0]
        line = {"game": game, "index": first["game_index"], "seed": first["seed"],
                "bots": [r["bot"] for r in seats], "places": [r["place"] for r in seats],
                "seconds": first["seconds"]}
        line.update(sim_named(game).unflatten(seats))
        lines.append(line)
    return lines


def is_table(path: str | Path) -> bool:
    """Whether ``path`` names a table (Parquet or CSV) rather than JSON lines."""
    return Path(path).suffix.lower() in TABLE_SUFFIXES


class TableWriter:
    """Writes game lines as seat rows to a Parquet or CSV file, as the games come back.

    The file is opened at once, so a path that cannot be written fails before any game
    is played. A Parquet file is complete (readable) only after :meth:`close`."""

    def __init__(self, path: str | Path, game: str) -> None:
        self.path = Path(path)
        self.columns = columns_of(game)
        self.parquet = self.path.suffix.lower() == ".parquet"
        self.pending: list[dict[str, Any]] = []
        self.csv_file: TextIO | None = None
        self.parquet_writer: Any = None
        if self.parquet:
            pq = need("pyarrow.parquet", "Parquet output")
            self.schema = arrow_schema(self.columns)
            self.parquet_writer = pq.ParquetWriter(self.path, self.schema)
        else:
            self.csv_file = open(self.path, "w", encoding="utf-8", newline="")  # noqa: SIM115
            self.csv = csv.writer(self.csv_file)
            self.csv.writerow([c.name for c in self.columns])

    def write(self, line: dict[str, Any]) -> None:
        """Add one game's seat rows."""
        rows = flatten([line])
        if self.csv_file is not None:
            self.csv.writerows([[csv_cell(row[c.name]) for c in self.columns] for row in rows])
            self.csv_file.flush()
            return
        self.pending += rows
        if len(self.pending) >= ROW_GROUP:
            self.flush_rows()

    def flush_rows(self) -> None:
        if self.pending:
            pa = need("pyarrow", "Parquet output")
            self.parquet_writer.write_table(pa.Table.from_pylist(self.pending, schema=self.schema))
            self.pending = []

    def close(self) -> None:
        """Write what is left and the file's footer."""
        if self.csv_file is not None:
            self.csv_file.close()
        else:
            self.flush_rows()
            self.parquet_writer.close()


class JsonLinesWriter:
    """Writes each game line as one JSON line, flushed as it comes (``--out`` as before)."""

    def __init__(self, path: str | Path) -> None:
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, line: dict[str, Any]) -> None:
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def open_results(path: str | Path, game: str) -> TableWriter | JsonLinesWriter:
    """The writer for ``mummy sim --out``, by the file's extension: ``.parquet`` and
    ``.csv`` a table, anything else JSON lines. Raises OSError when the file cannot be
    made and :class:`AnalysisUnavailable` when Parquet is asked without pyarrow."""
    return TableWriter(path, game) if is_table(path) else JsonLinesWriter(path)


def csv_cell(value: object) -> object:
    """A CSV cell: truth values as ``true``/``false``, which pandas and polars both read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def arrow_schema(cols: Sequence[Column]) -> Any:
    """The Arrow schema of the table; each field carries its meaning as metadata."""
    pa = need("pyarrow", "Parquet")
    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
    return pa.schema([pa.field(c.name, types[c.type], nullable=False, metadata={"meaning": c.meaning})
                      for c in cols], metadata={"mummy": "one row per seat of each game (mummy sim --out)"})


def write_table(lines: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write game lines of one game to a Parquet or CSV file; return the seat rows written."""
    listed = list(lines)
    if not listed:
        raise ValueError("no games to write")
    writer = TableWriter(path, listed[0]["game"])
    try:
        for line in listed:
            writer.write(line)
    finally:
        writer.close()
    return sum(len(line["bots"]) for line in listed)


class NotATable(ValueError):
    """A file that is not a table ``mummy sim --out`` wrote."""


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The seat rows of a Parquet or CSV table, typed as the columns say."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        pq = need("pyarrow.parquet", "Reading Parquet")
        try:
            rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        except OSError:
            raise
        except Exception as exc:  # pyarrow's ArrowInvalid and kin: a damaged or foreign file
            raise NotATable(f"not a Parquet file ({exc})") from None
        if rows:
            check_columns(rows[0])
        return rows
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        raw = list(reader)
        if "game" not in (reader.fieldnames or ()):
            raise NotATable("no `game` column naming a game")
    if not raw:
        return []
    cols = check_columns(raw[0])
    try:
        return [{c.name: TYPES[c.type](row[c.name]) for c in cols} for row in raw]
    except (ValueError, TypeError) as exc:
        raise NotATable(f"a cell does not read as its column's type ({exc})") from None


def check_columns(row: dict[str, Any]) -> tuple[Column, ...]:
    """The columns the first row's game needs, or :class:`NotATable` naming those missing."""
    game = row.get("game")
    if game not in SIMS:
        raise NotATable("no `game` column naming a game")
    cols = columns_of(str(game))
    missing = [c.name for c in cols if c.name not in row]
    if missing:
        raise NotATable(f"missing columns {', '.join(missing)}")
    return cols


def read_lines(path: str | Path) -> list[dict[str, Any]]:
    """The game lines of a Parquet or CSV table (for ``mummy report``)."""
    rows = read_rows(path)
    if len({r["game"] for r in rows}) > 1:
        raise NotATable("the table mixes both games")
    return unflatten(rows)


def schema_markdown(game: str | None = None) -> str:
    """The columns as a Markdown table (column, type, meaning): the common ones when
    ``game`` is None, else the game's own (the documentation prints these)."""
    cols = COMMON if game is None else sim_named(game).columns
    lines = ["| column | type | meaning |", "|---|---|---|"]
    lines += [f"| `{c.name}` | {c.type} | {c.meaning} |" for c in cols]
    return "\n".join(lines)


__all__ = ["COMMON", "TABLE_SUFFIXES", "AnalysisUnavailable", "Column", "JsonLinesWriter", "NotATable",
           "TableWriter", "columns_of", "flatten", "game_item", "is_table", "need", "open_results", "read_lines",
           "read_rows", "schema_markdown", "seat_item", "unflatten", "write_table"]
