"""``mummy print``: each game's printable pages, and writing them as PDF or SVG.

The CLI and the server look a game up in :data:`PRINTS` and never ask which one it is (as with
terminal/kinds.py). A printer adds its own options and turns the parsed arguments into
pages (SVG documents); :func:`write_pages` writes them by the output's extension: one PDF
(render/pdf.py), or SVG files, one a page.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final, Protocol

from mummy.core.rng import parse_seed
from mummy.games import Parts
from mummy.render.pdf import PrintUnavailable, pdf_document
from mummy.render.print_tomb import tomb_sheet
from mummy.render.print_treasure import treasure_page, treasure_pages
from mummy.render.svg import PAPERS
from mummy.tomb.content import MapSpec, load_map_file, map_spec, register_map_text, tile_table
from mummy.treasure.content import piles, sites

FORMATS: Final = (".pdf", ".svg")


class PrintKind(Protocol):
    name: str

    def add_parser(self, sub: Any) -> argparse.ArgumentParser:
        """The game's ``mummy print NAME`` parser with its own options."""
        ...

    def pages(self, args: argparse.Namespace) -> tuple[list[str], str]:
        """The pages (SVG documents) and the document's title; ValueError or a
        MummyError for an argument that names nothing printable."""
        ...

    def sheet(self, map_id: str, map_text: str | None, paper: str, seed: int | None, page: int) -> str:
        """One page as SVG for the server's print routes: the game's sheet on a map (a
        custom map's text, if any, is registered first, as a load does) or its ``page``."""
        ...


class TombPrint:
    name = "tomb"

    def add_parser(self, sub: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(
            "tomb", help="the Tomb's player sheet: map, Tile Table, Monster Log, Backpack, Mummy, scoring")
        parser.add_argument("--map", default="map1", help="a packaged map (mummy maps), a generated map's id, "
                            "or a map file (T10)")
        parser.add_argument("--seed", type=seed_argument, default=None, help="the seed to print on the seed line "
                            "(the dice companion's, mummy companion tomb --seed N)")
        return parser

    def pages(self, args: argparse.Namespace) -> tuple[list[str], str]:
        spec = tomb_map_named(args.map)
        sheet = tomb_sheet(spec, tile_table(), args.paper, args.seed)
        return [sheet], f"The Mummy's Tomb: player sheet, {spec.title}"

    def sheet(self, map_id: str, map_text: str | None, paper: str, seed: int | None, page: int) -> str:
        if map_text is not None:
            register_map_text(map_text)  # a custom map, as a load registers it
        return tomb_sheet(map_spec(map_id), tile_table(), paper, seed)


def seed_argument(text: str) -> int:
    """A ``--seed`` value: a non-negative whole number, as everywhere a seed is asked for."""
    try:
        return parse_seed(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a non-negative whole number, not {text!r}") from None


def tomb_map_named(name: str) -> MapSpec:
    """A packaged or generated map by id, or a map file by its path."""
    if Path(name).suffix == ".txt" or "/" in name:
        return load_map_file(name)
    return map_spec(name)


class TreasurePrint:
    name = "treasure"

    def add_parser(self, sub: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(
            "treasure", help="Mummy's Treasure: the four excavation sites and the 48 tiles to cut out")
        return parser

    def pages(self, args: argparse.Namespace) -> tuple[list[str], str]:
        return treasure_pages(sites(), piles(), args.paper), "Mummy's Treasure: excavation sites and tiles"

    def sheet(self, map_id: str, map_text: str | None, paper: str, seed: int | None, page: int) -> str:
        return treasure_page(sites(), piles(), paper, page)


#: Each game's printout, by the game's name (its registration's ``printer``).
PRINTS: Final[Parts] = Parts("printer")


def add_common(parser: argparse.ArgumentParser) -> None:
    """The options every printer has: where to write, and on which paper."""
    parser.add_argument("--out", required=True, metavar="FILE.pdf|FILE.svg",
                        help="the file to write; its extension chooses PDF or SVG")
    parser.add_argument("--paper", choices=list(PAPERS), default="a4", help="paper size (default a4)")


def output_format(out: str) -> str:
    """The output's format by its extension, or ValueError naming the ones there are."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"--out {out!r} must end in {' or '.join(FORMATS)}")
    return suffix


def write_pages(pages: list[str], title: str, out: str) -> list[str]:
    """Write ``pages`` to ``out``: one PDF, or one SVG file (``NAME-1.svg``, ``NAME-2.svg``
    … when there are several pages). Returns the paths written."""
    path = Path(out)
    if output_format(out) == ".pdf":
        data = pdf_document(pages, title)
        path.write_bytes(data)
        return [str(path)]
    if len(pages) == 1:
        path.write_text(pages[0], encoding="utf-8")
        return [str(path)]
    written = []
    for n, page in enumerate(pages, start=1):
        page_path = path.with_name(f"{path.stem}-{n}{path.suffix}")
        page_path.write_text(page, encoding="utf-8")
        written.append(str(page_path))
    return written


__all__ = ["PRINTS", "PrintKind", "PrintUnavailable", "add_common", "output_format", "tomb_map_named",
           "write_pages"]
