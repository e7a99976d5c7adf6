"""Mummy's Treasure for print: each excavation site, and a cut-out sheet of the 48 tiles.

A pure function of the content (:mod:`mummy.treasure.content`) and the paper, giving one
SVG per page; render/pdf.py makes the PDF from the same pages. Unlike the Tomb sheet,
nothing here is scaled to the paper: a tile must cover its squares of a site exactly, so
both are drawn on squares of :data:`SQUARE` (18 mm) whatever the paper, and the pages
are filled with as many sites or tiles as fit (R1.2, R1.3).

The six symbols are drawn as the browser draws them (web/static/js/treasure/symbols.js):
each its own shape and letter, colour only helping, so a black-and-white print reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mummy.core.grid import column_name
from mummy.render.svg import INK, PAPERS, Svg, document
from mummy.treasure.content import SYMBOL_NAMES, Pile, Site

MM: Final = 72 / 25.4
#: A square of a site and of a tile: 18 mm, big enough to hold four symbols' names.
SQUARE: Final = 18 * MM
MARGIN: Final = 18.0
SYMBOL_COLOUR: Final = {"S": "#0072b2", "A": "#e69f00", "E": "#56b4e9", "P": "#f0e442", "C": "#009e73",
                        "J": "#d55e00"}


# -- the symbols ------------------------------------------------------------------------------
def _stroked(svg: Svg, tag: str, colour: str, width: float = 2.6, **attrs: str | float) -> None:
    """A dark outline under a coloured line, so the shape reads on any background."""
    svg.add(tag, fill="none", stroke=INK, stroke_width=width + 2, stroke_linecap="round", **attrs)
    svg.add(tag, fill="none", stroke=colour, stroke_width=width, stroke_linecap="round", **attrs)


def _scarab(svg: Svg, c: str) -> None:
    svg.path("M6 9 L2.5 7 M6 14 L2 14 M6 19 L2.5 21 M18 9 L21.5 7 M18 14 L22 14 M18 19 L21.5 21",
             stroke=INK, stroke_width=1.4)
    svg.add("ellipse", cx=12, cy=14.5, rx=6.5, ry=7.5, fill=c, stroke=INK, stroke_width=1.4)
    svg.circle(12, 5, 3, fill=c, stroke=INK, stroke_width=1.4)
    svg.line(12, 7.5, 12, 22, 1.4)


def _ankh(svg: Svg, c: str) -> None:
    _stroked(svg, "ellipse", c, cx=12, cy=6.5, rx=3.6, ry=4.5)
    _stroked(svg, "line", c, x1=4.5, y1=12.5, x2=19.5, y2=12.5)
    _stroked(svg, "line", c, x1=12, y1=11, x2=12, y2=22)


def _eye(svg: Svg, c: str) -> None:
    svg.path("M1.5 12 Q12 2 22.5 12 Q12 22 1.5 12 Z", fill=c, stroke=INK, stroke_width=1.4)
    svg.circle(12, 12, 3.6, fill=INK)


def _pyramid(svg: Svg, c: str) -> None:
    svg.polygon([(12, 2.5), (22.5, 21.5), (1.5, 21.5)], fill=c, stroke=INK, stroke_width=1.4)
    svg.line(6.5, 13, 17.5, 13, 1.2)


def _cobra(svg: Svg, c: str) -> None:
    _stroked(svg, "path", c, 3, d="M4 21 C 19 21, 20 14, 12 13 C 5 12, 5 6, 11 5")
    svg.add("ellipse", cx=14, cy=4.5, rx=3.5, ry=2.6, fill=c, stroke=INK, stroke_width=1.4)


def _jackal(svg: Svg, c: str) -> None:
    svg.polygon([(4, 2), (9, 9.5), (15, 9.5), (20, 2), (19.5, 13), (12, 22.5), (4.5, 13)], fill=c, stroke=INK,
                stroke_width=1.4)
    svg.circle(9, 13, 1.3, fill=INK)
    svg.circle(15, 13, 1.3, fill=INK)


GLYPHS: Final[dict[str, Callable[[Svg, str], None]]] = {
    "S": _scarab, "A": _ankh, "E": _eye, "P": _pyramid, "C": _cobra, "J": _jackal}


def symbol(svg: Svg, letter: str, cx: float, cy: float, size: float) -> None:
    """One symbol of the dice (R1.1), ``size`` points high, centred on ``(cx, cy)``."""
    k = size / 24
    svg.open("g", transform=f"translate({cx - size / 2:.2f} {cy - size / 2:.2f}) scale({k:.4f})",
             data_symbol=letter)
    GLYPHS[letter](svg, SYMBOL_COLOUR[letter])
    svg.close()


# -- the pages --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placed:
    """A tile placed on a cut-out page, in squares from the page's top-left corner."""

    pile: Pile
    tile_id: str
    needs: str
    col: int
    row: int


def printable(paper: str) -> tuple[float, float, int, int]:
    """The paper's size and how many squares fit across and down within the margins."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; papers: {', '.join(PAPERS)}")
    width, height = PAPERS[paper]
    return width, height, int((width - 2 * MARGIN) // SQUARE), int((height - 2 * MARGIN - 28) // SQUARE)


def _site_groups(sites: dict[str, Site], paper: str) -> list[list[Site]]:
    """The sites of each page, as many to a page as fit one above another."""
    _, height, _, _ = printable(paper)
    pages: list[list[Site]] = [[]]
    used = 0.0
    for site in sites.values():
        need = site.grid.height * SQUARE + 40
        if pages[-1] and used + need > height - 2 * MARGIN - 20:
            pages.append([])
            used = 0.0
        pages[-1].append(site)
        used += need
    return pages


def _site_page(group: list[Site], n: int, total: int, paper: str) -> str:
    width, height, _, _ = printable(paper)
    body = Svg()
    header(body, width, f"Excavation sites, page {n} of {total}",
           "one site a player; cover every square with treasure tiles (R1.3, R3.3)")
    y = MARGIN + 30
    for site in group:
        draw_site(body, site, (width - site.grid.width * SQUARE) / 2, y)
        y += site.grid.height * SQUARE + 40
    return document(width, height, body, f"Mummy's Treasure: excavation sites, page {n}",
                    data_paper=paper, data_page=f"sites-{n}")


def site_pages(sites: dict[str, Site], paper: str = "a4") -> list[str]:
    """The excavation sites, as many to a page as fit one above another."""
    groups = _site_groups(sites, paper)
    return [_site_page(group, n, len(groups), paper) for n, group in enumerate(groups, start=1)]


def header(svg: Svg, width: float, title: str, note: str) -> None:
    svg.text(MARGIN, MARGIN + 10, "MUMMY'S TREASURE", 14, bold=True)
    svg.text(width - MARGIN, MARGIN + 10, title, 10, bold=True, anchor="end")
    svg.text(width - MARGIN, MARGIN + 22, note, 7, anchor="end", fill="#333333")


def draw_site(svg: Svg, site: Site, x: float, y: float) -> None:
    """A site: its squares on sand, named like the game names them (A1 top-left), its
    outline thick."""
    g = site.grid
    svg.open("g", class_="site", data_site=site.name, data_origin=f"{x:.2f} {y:.2f}", data_cell=f"{SQUARE:.4f}")
    svg.text(x, y - 6, f"{site.name.capitalize()}: {site.area} squares", 10, bold=True)
    outline = []
    for sq in g.squares():
        if not site.squares >> sq & 1:
            continue
        sx, sy = g.xy(sq)
        px, py = x + sx * SQUARE, y + sy * SQUARE
        svg.rect(px, py, SQUARE, SQUARE, fill="#f7efd9", stroke="#8a7a55", stroke_width=0.6,
                 data_square=g.square_name(sq))
        svg.text(px + 3, py + 8, g.square_name(sq), 6, fill="#8a7a55")
        # Each side: the step to the square across it, and its line's ends in squares.
        for dx, dy, x1, y1, x2, y2 in ((0, -1, 0, 0, 1, 0), (0, 1, 0, 1, 1, 1), (-1, 0, 0, 0, 0, 1),
                                       (1, 0, 1, 0, 1, 1)):
            nx, ny = sx + dx, sy + dy
            if not g.on_grid(nx, ny) or not site.squares >> g.square(nx, ny) & 1:
                outline.append(f"M{px + x1 * SQUARE:.2f} {py + y1 * SQUARE:.2f}L{px + x2 * SQUARE:.2f} "
                               f"{py + y2 * SQUARE:.2f}")
    svg.path("".join(outline), stroke=INK, stroke_width=2.2, stroke_linecap="square")
    for col in range(g.width):
        svg.text(x + (col + 0.5) * SQUARE, y + g.height * SQUARE + 10, column_name(col), 7, anchor="middle",
                 fill="#555555")
    svg.close()


def pack_tiles(piles: dict[str, Pile], across: int, down: int) -> list[list[Placed]]:
    """The 48 tiles on pages of ``across`` by ``down`` squares: largest piles first, each
    tile lying in the first shelf of its page with room for it (a shelf is as high as its
    first tile), else on a new shelf, else on a new page."""
    order = sorted(piles.values(), key=lambda p: (-p.rows * p.cols, -p.cols))
    pages: list[list[Placed]] = [[]]
    shelves: list[list[int]] = []  # per shelf of the last page: [top row, height, next free column]
    for pile in order:
        for tile in pile.tiles:
            shelf = next((s for s in shelves if s[1] >= tile.rows and across - s[2] >= tile.cols), None)
            if shelf is None:
                top = shelves[-1][0] + shelves[-1][1] if shelves else 0
                if top + tile.rows > down:
                    pages.append([])
                    shelves, top = [], 0
                shelf = [top, tile.rows, 0]
                shelves.append(shelf)
            pages[-1].append(Placed(pile, tile.id, tile.needs, shelf[2], shelf[0]))
            shelf[2] += tile.cols
    return pages


def _tile_page(placed: list[Placed], n: int, total: int, paper: str) -> str:
    width, height, across, _ = printable(paper)
    body = Svg()
    header(body, width, f"Treasure tiles to cut out, page {n} of {total}",
           "cut along the solid lines; stack each pile face up, shuffled (R1.2, R2.2)")
    ox = (width - across * SQUARE) / 2
    oy = MARGIN + 30
    for p in placed:
        draw_tile(body, p, ox + p.col * SQUARE, oy + p.row * SQUARE)
    return document(width, height, body, f"Mummy's Treasure: tiles, page {n}",
                    data_paper=paper, data_page=f"tiles-{n}")


def tile_pages(piles: dict[str, Pile], paper: str = "a4") -> list[str]:
    """The cut-out sheets: every tile at the size of its squares on a site, with the
    symbols it needs, its pile and its number in the pile (R1.2)."""
    _, _, across, down = printable(paper)
    pages = pack_tiles(piles, across, down)
    return [_tile_page(placed, n, len(pages), paper) for n, placed in enumerate(pages, start=1)]


def treasure_page_count(sites: dict[str, Site], piles: dict[str, Pile], paper: str = "a4") -> int:
    """How many pages :func:`treasure_pages` has, worked out without drawing any."""
    _, _, across, down = printable(paper)
    return len(_site_groups(sites, paper)) + len(pack_tiles(piles, across, down))


def treasure_page(sites: dict[str, Site], piles: dict[str, Pile], paper: str, page: int) -> str:
    """Page ``page`` (from 1) of :func:`treasure_pages`, drawing that page only (a server
    answers one page a request). Raises ``IndexError`` for a page the printout lacks."""
    groups = _site_groups(sites, paper)
    if 1 <= page <= len(groups):
        return _site_page(groups[page - 1], page, len(groups), paper)
    _, _, across, down = printable(paper)
    tiles = pack_tiles(piles, across, down)
    n = page - len(groups)
    if not 1 <= n <= len(tiles):
        raise IndexError(f"the printout has {len(groups) + len(tiles)} pages, not page {page}")
    return _tile_page(tiles[n - 1], n, len(tiles), paper)


def draw_tile(svg: Svg, p: Placed, x: float, y: float) -> None:
    """A tile: a rectangle of squares (dotted where two squares meet), its symbols in a
    row across the middle with their letters, its pile and number in a corner."""
    w, h = p.pile.cols * SQUARE, p.pile.rows * SQUARE
    svg.open("g", class_="tile", data_tile=p.tile_id, data_needs=p.needs, data_rows=p.pile.rows,
             data_cols=p.pile.cols)
    svg.add("title", f"{p.tile_id}: needs {', '.join(SYMBOL_NAMES[s] for s in p.needs)}")
    svg.rect(x, y, w, h, fill="#fffaf0", stroke="none")
    for c in range(1, p.pile.cols):
        svg.line(x + c * SQUARE, y + 3, x + c * SQUARE, y + h - 3, 0.4, stroke="#b5a88a", stroke_dasharray="1 2")
    for r in range(1, p.pile.rows):
        svg.line(x + 3, y + r * SQUARE, x + w - 3, y + r * SQUARE, 0.4, stroke="#b5a88a", stroke_dasharray="1 2")
    svg.rect(x, y, w, h, stroke=INK, stroke_width=0.8)
    count = len(p.needs)
    size = min(SQUARE * 0.62, w / count * 0.8)
    for i, letter in enumerate(p.needs):
        cx = x + w * (i + 0.5) / count
        symbol(svg, letter, cx, y + h / 2 - 4, size)
        svg.text(cx, y + h / 2 + size / 2 + 5, f"{letter} {SYMBOL_NAMES[letter]}", 5.6, anchor="middle")
    svg.text(x + 3, y + 8, p.tile_id, 5.6, fill="#555555")
    svg.close()


def treasure_pages(sites: dict[str, Site], piles: dict[str, Pile], paper: str = "a4") -> list[str]:
    """Every page: the sites, then the tiles to cut out."""
    return site_pages(sites, paper) + tile_pages(piles, paper)


__all__ = ["GLYPHS", "SQUARE", "pack_tiles", "site_pages", "symbol", "tile_pages", "treasure_page",
           "treasure_page_count", "treasure_pages"]
