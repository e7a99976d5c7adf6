"""Mummy's Treasure for print (issue 17): each excavation site with its squares where the
content has them, and the 48 tiles to cut out, each at the size of its squares on a site
with the symbols it needs (R1.2, R1.3); the PDF parsed back."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from mummy.render.print_treasure import MARGIN, SQUARE, pack_tiles, printable, site_pages, tile_pages
from mummy.render.svg import PAPERS
from mummy.treasure.content import all_tiles, piles, sites
from tests.render.print_helpers import parse_svg, points, read_pdf, tag, unembedded_fonts, with_attr

PAPER_NAMES = sorted(PAPERS)


@cache
def pages(paper: str) -> tuple[list[str], list[str]]:
    return site_pages(sites(), paper), tile_pages(piles(), paper)


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_every_page_is_the_paper(paper: str) -> None:
    width, height = PAPERS[paper]
    for page in [*pages(paper)[0], *pages(paper)[1]]:
        root = parse_svg(page)
        assert abs(points(root.attrib["width"]) - width) < 1 and abs(points(root.attrib["height"]) - height) < 1


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_each_site_is_drawn_once_with_its_squares_in_place(paper: str) -> None:
    drawn = {}
    for page in pages(paper)[0]:
        for group in with_attr(parse_svg(page), "data-site"):
            assert group.attrib["data-site"] not in drawn
            drawn[group.attrib["data-site"]] = group
    assert set(drawn) == set(sites())
    for name, site in sites().items():
        group = drawn[name]
        ox, oy = (float(v) for v in group.attrib["data-origin"].split())
        rects = [e for e in group.iter() if tag(e) == "rect" and "data-square" in e.attrib]
        g = site.grid
        assert sorted(e.attrib["data-square"] for e in rects) == sorted(
            g.square_name(sq) for sq in g.squares() if site.squares >> sq & 1)
        for e in rects:
            x, y = g.xy(g.parse_square(e.attrib["data-square"]))
            assert abs(float(e.attrib["x"]) - (ox + x * SQUARE)) < 0.02
            assert abs(float(e.attrib["y"]) - (oy + y * SQUARE)) < 0.02
            assert abs(float(e.attrib["width"]) - SQUARE) < 0.02 and abs(float(e.attrib["height"]) - SQUARE) < 0.02
        width = PAPERS[paper][0]
        assert ox >= MARGIN and ox + g.width * SQUARE <= width - MARGIN


def test_a_square_is_18_mm_on_sites_and_tiles_alike() -> None:
    assert abs(SQUARE - 18 * 72 / 25.4) < 1e-9


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_the_48_tiles_are_drawn_once_at_their_size_with_their_symbols(paper: str) -> None:
    tiles = all_tiles()
    seen = {}
    for page in pages(paper)[1]:
        for group in with_attr(parse_svg(page), "data-tile"):
            tile = tiles[group.attrib["data-tile"]]
            assert tile.id not in seen
            seen[tile.id] = group
            assert group.attrib["data-needs"] == tile.needs
            outline = [e for e in group if tag(e) == "rect"][-1]
            assert abs(float(outline.attrib["width"]) - tile.cols * SQUARE) < 0.02
            assert abs(float(outline.attrib["height"]) - tile.rows * SQUARE) < 0.02
            symbols = "".join(e.attrib["data-symbol"] for e in group.iter() if "data-symbol" in e.attrib)
            assert symbols == tile.needs
    assert set(seen) == set(tiles) and len(seen) == 48


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_tiles_do_not_overlap_and_fit_the_printable_area(paper: str) -> None:
    _, _, across, down = printable(paper)
    packed = pack_tiles(piles(), across, down)
    assert sum(len(page) for page in packed) == 48
    for page in packed:
        for p in page:
            assert p.col + p.pile.cols <= across and p.row + p.pile.rows <= down
        for a, b in combinations(page, 2):
            apart = (a.col + a.pile.cols <= b.col or b.col + b.pile.cols <= a.col
                     or a.row + a.pile.rows <= b.row or b.row + b.pile.rows <= a.row)
            assert apart, (a.tile_id, b.tile_id)
    width, height = PAPERS[paper]
    assert across * SQUARE <= width - 2 * MARGIN and down * SQUARE <= height - 2 * MARGIN


def test_pdf_holds_the_sites_and_tiles_with_fonts_embedded() -> None:
    pytest.importorskip("svglib")
    from mummy.render.pdf import pdf_document

    sites_pages, tiles_pages = pages("letter")
    reader = read_pdf(pdf_document(sites_pages + tiles_pages, "treasure"))
    assert len(reader.pages) == len(sites_pages) + len(tiles_pages)
    text = ""
    for page in reader.pages:
        assert abs(float(page.mediabox.width) - 612) < 1 and abs(float(page.mediabox.height) - 792) < 1
        assert not unembedded_fonts(page)
        text += page.extract_text()
    for name in sites():
        assert f"{name.capitalize()}: 36 squares" in text
    assert "sarcophagus-1" in text and "amulet-8" in text
