"""The Tomb's printable sheet (issue 17, "Printable sheets"): for every shipped map, the
SVG is compared with the engine's map (stone, rooms, entrances, findings, walls, each in
its square), Chromium's drawing of it too, and the PDF is parsed back (page size, fonts
embedded, the map's name and seed in its text)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from functools import cache

import pytest

from mummy.render.print_tomb import SHEET, tomb_sheet
from mummy.render.svg import PAPERS
from mummy.tomb.board import tomb_map
from mummy.tomb.content import TABLE_SHAPES, MapSpec, map_ids, map_spec, tile_table
from tests.render.print_helpers import (
    parse_svg,
    points,
    read_pdf,
    screenshot_svg,
    sheet_transform,
    tag,
    unembedded_fonts,
    with_attr,
)

MAPS = map_ids()


@cache
def sheet(map_id: str, paper: str = "a4", seed: int | None = 7) -> str:
    return tomb_sheet(map_spec(map_id), tile_table(), paper, seed)


@cache
def sheet_pdf(map_id: str, paper: str = "a4") -> bytes:
    from mummy.render.pdf import pdf_document

    pytest.importorskip("svglib")
    return pdf_document([sheet(map_id, paper)], f"sheet {map_id}")


def map_group(root: ET.Element) -> tuple[ET.Element, float, float, float]:
    group = next(e for e in root.iter() if e.get("class") == "map")
    gx, gy = (float(v) for v in group.attrib["data-origin"].split())
    return group, gx, gy, float(group.attrib["data-cell"])


def expected_findings(spec: MapSpec) -> set[tuple[str, str, str]]:
    name = spec.grid.square_name
    found = {(name(sq), "coins", str(n)) for sq, n in spec.coins.items()}
    found |= {(name(sq), kind, "") for kind, squares in (("key", spec.keys), ("ooze", spec.oozes),
                                                          ("mimic", spec.mimics)) for sq in squares}
    found |= {(name(sq), "golem", colour) for colour, sq in spec.golems.items()}
    found |= {(name(sq), "item", item) for item, sq in spec.items.items()}
    return found


def test_every_shipped_map_is_tested() -> None:
    assert {"map1", "map2"} <= set(MAPS)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("map_id", MAPS)
def test_svg_page_is_the_paper_and_names_the_map(map_id: str, paper: str) -> None:
    root = parse_svg(sheet(map_id, paper))
    width, height = PAPERS[paper]
    assert abs(points(root.attrib["width"]) - width) < 1 and abs(points(root.attrib["height"]) - height) < 1
    ox, oy, scale = sheet_transform(root)
    # Within the printable area on both papers, and not shrunk below 90 %.
    assert ox >= 17 and oy >= 17 and ox + SHEET[0] * scale <= width - 17 and oy + SHEET[1] * scale <= height - 17
    assert scale > 0.9
    text = " ".join(e.text or "" for e in root.iter() if tag(e) == "text")
    spec = map_spec(map_id)
    assert spec.title in text and spec.id in text and "Seed: 7" in text


@pytest.mark.parametrize("map_id", MAPS)
def test_svg_squares_are_the_maps_stone_rooms_and_free_squares_in_place(map_id: str) -> None:
    spec = map_spec(map_id)
    g = spec.grid
    group, gx, gy, cell = map_group(parse_svg(sheet(map_id)))
    squares = [e for e in group.iter() if tag(e) == "rect" and "data-square" in e.attrib]
    assert sorted(e.attrib["data-square"] for e in squares) == sorted(g.square_name(sq) for sq in g.squares())
    rooms = {room.square for room in spec.rooms}
    for e in squares:
        sq = g.parse_square(e.attrib["data-square"])
        x, y = g.xy(sq)
        assert abs(float(e.attrib["x"]) - (gx + x * cell)) < 0.02, e.attrib
        assert abs(float(e.attrib["y"]) - (gy + y * cell)) < 0.02, e.attrib
        kind = "room" if sq in rooms else "stone" if spec.stone >> sq & 1 else "free"
        assert e.attrib["data-kind"] == kind, e.attrib


@pytest.mark.parametrize("map_id", MAPS)
def test_svg_rooms_and_entrances_are_the_maps(map_id: str) -> None:
    spec = map_spec(map_id)
    name = spec.grid.square_name
    root = parse_svg(sheet(map_id))
    drawn_rooms = {(e.attrib["data-room"], e.attrib["data-side"], e.attrib["data-finding"], e.get("data-colour"))
                   for e in with_attr(root, "data-room")}
    assert drawn_rooms == {(name(r.square), r.side, r.finding, r.colour) for r in spec.rooms}
    drawn_entrances = {(e.attrib["data-entrance"], e.attrib["data-side"]) for e in with_attr(root, "data-entrance")}
    assert drawn_entrances == {(name(sq), side) for sq, side in spec.entrances}


def coordinates(group: ET.Element) -> list[tuple[float, float]]:
    """Every point an element of ``group`` is placed at (x/y, cx/cy, polygon points)."""
    out = []
    for e in group.iter():
        for xk, yk in (("x", "y"), ("cx", "cy"), ("x1", "y1"), ("x2", "y2")):
            if xk in e.attrib and yk in e.attrib:
                out.append((float(e.attrib[xk]), float(e.attrib[yk])))
        for pair in e.get("points", "").split():
            px, py = pair.split(",")
            out.append((float(px), float(py)))
    return out


@pytest.mark.parametrize("map_id", MAPS)
def test_svg_findings_are_the_maps_and_drawn_inside_their_squares(map_id: str) -> None:
    spec = map_spec(map_id)
    g = spec.grid
    group, gx, gy, cell = map_group(parse_svg(sheet(map_id)))
    findings = [e for e in group.iter() if e.get("class") == "finding"]
    drawn = {(e.attrib["data-square"], e.attrib["data-finding"],
              e.get("data-amount") or e.get("data-colour") or e.get("data-item") or "") for e in findings}
    assert drawn == expected_findings(spec)
    for e in findings:
        x, y = g.xy(g.parse_square(e.attrib["data-square"]))
        left, top = gx + x * cell, gy + y * cell
        pts = coordinates(e)
        assert pts, e.attrib
        for px, py in pts:
            assert left - 0.5 <= px <= left + cell + 0.5 and top - 0.5 <= py <= top + cell + 0.5, (e.attrib, px, py)


def segments(d: str) -> set[tuple[float, float, float, float]]:
    """The 'M x y L x y' segments of a path, each with its ends in order."""
    out = set()
    for part in d.split("M")[1:]:
        a, b = part.split("L")
        x1, y1 = (round(float(v), 1) for v in a.split())
        x2, y2 = (round(float(v), 1) for v in b.split())
        out.add((x1, y1, x2, y2) if (x1, y1) <= (x2, y2) else (x2, y2, x1, y1))
    return out


@pytest.mark.parametrize("map_id", MAPS)
def test_svg_walls_are_the_border_and_block_edges_but_entrances_and_room_openings(map_id: str) -> None:
    """T1.2, T1.3: the engine's border and block edges of free squares are drawn thick,
    except the entrances and the rooms' openings, which are the gaps a tile connects."""
    board = tomb_map(map_id)
    g = board.grid
    group, gx, gy, cell = map_group(parse_svg(sheet(map_id)))
    walls = segments(next(e for e in group.iter() if e.get("class") == "walls").attrib["d"])
    for sq in g.squares():
        if board.stone >> sq & 1:
            continue
        x, y = gx + g.xy(sq)[0] * cell, gy + g.xy(sq)[1] * cell
        for side, (x1, y1, x2, y2) in {"N": (x, y, x + cell, y), "S": (x, y + cell, x + cell, y + cell),
                                       "W": (x, y, x, y + cell), "E": (x + cell, y, x + cell, y + cell)}.items():
            edge = g.edge(sq, side)
            seg = (round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1))
            if board.connectable >> edge & 1:
                assert seg not in walls, (g.edge_name(edge), "an entrance or room opening is walled")
            elif board.border_block >> edge & 1:
                assert seg in walls, (g.edge_name(edge), "a border or block edge is not drawn")
            else:
                assert seg not in walls, (g.edge_name(edge), "an edge between free squares is walled")


def test_svg_holds_every_panel_of_the_paper_sheet() -> None:
    """Rulebook "Game Sheet Anatomy": Rounds, Tile Table (12 shapes and the room), Monster
    Log (as many entries as the map's log), Backpack (key and coin tracks, 3 uses per
    item), the Mummy's six boxes, and the scoring lines of T7."""
    spec = map_spec("map2")
    root = parse_svg(sheet("map2"))
    classes = {e.get("class") for e in root.iter()}
    assert {"tile-table", "monster-log", "backpack", "rounds", "mummy", "scoring", "legend"} <= classes
    assert sorted(e.attrib["data-shape"] for e in with_attr(root, "data-shape")) == sorted(TABLE_SHAPES)
    log = [e.attrib["data-log"] for e in with_attr(root, "data-log")]
    assert log.count("ooze") == len(spec.oozes) and log.count("skeleton") == len(spec.log["skeleton"])
    assert log.count("mimic") == len(spec.mimics) and log.count("golem+gem") == len(spec.golems)
    assert log.count("zombie") == log.count("sarcophagus") == len(spec.log["zombie"])
    tracks = [e.attrib["data-track"] for e in with_attr(root, "data-track")]
    assert tracks.count("key") == spec.key_track and tracks.count("coin") == spec.coin_track
    assert all(tracks.count(f"{item}-use") == 3 for item in spec.items)
    assert len({e.attrib["data-round"] for e in with_attr(root, "data-round")}) == 20
    assert len(with_attr(root, "data-round")) == 80
    assert len(with_attr(root, "data-mummy-box")) == 6
    assert len(with_attr(root, "data-score")) == 10


def test_svg_without_a_seed_leaves_the_seed_line_to_write() -> None:
    root = parse_svg(sheet("map1", "a4", None))
    seed = next(e for e in root.iter() if e.get("data-role") == "seed")
    assert seed.text == "Seed:"


def test_svg_refers_to_nothing_outside_itself() -> None:
    text = sheet("map1")
    assert "href" not in text and "url(" not in text and "@import" not in text


def test_unknown_paper_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown paper 'a3'; papers: a4, letter"):
        tomb_sheet(map_spec("map1"), tile_table(), "a3")


@pytest.mark.browser
@pytest.mark.parametrize("map_id", MAPS)
def test_chromium_draws_stone_where_the_map_has_stone(map_id: str) -> None:
    """The drawing itself, not its source: in Chromium's rendering, a patch near the
    top-left corner of every square is grey where the map has stone and white where it
    has a free square or a room (the patch is clear of pictures and hatching)."""
    image_module = pytest.importorskip("PIL.Image")
    stat = pytest.importorskip("PIL.ImageStat")
    spec = map_spec(map_id)
    g = spec.grid
    text = sheet(map_id)
    root = parse_svg(text)
    ox, oy, scale = sheet_transform(root)
    _, gx, gy, cell = map_group(root)
    px_per_pt = 2 * 4 / 3  # device scale 2, CSS pixels per point
    image = image_module.open(io.BytesIO(screenshot_svg(text, 2))).convert("L")
    rooms = {room.square for room in spec.rooms}
    wrong = []
    for sq in g.squares():
        x, y = g.xy(sq)
        left = (ox + (gx + (x + 0.1) * cell) * scale) * px_per_pt
        top = (oy + (gy + (y + 0.1) * cell) * scale) * px_per_pt
        size = 0.06 * cell * scale * px_per_pt
        patch = image.crop((int(left), int(top), int(left + size) + 1, int(top + size) + 1))
        mean = stat.Stat(patch).mean[0]
        stone = bool(spec.stone >> sq & 1) and sq not in rooms
        if stone != (mean < 236):
            wrong.append(f"{g.square_name(sq)}: mean {mean:.0f}, {'stone' if stone else 'free or room'}")
    assert not wrong, wrong


@pytest.mark.parametrize("map_id", MAPS)
def test_pdf_is_one_a4_page_with_fonts_embedded_and_the_maps_name(map_id: str) -> None:
    reader = read_pdf(sheet_pdf(map_id))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    width, height = PAPERS["a4"]
    assert abs(float(page.mediabox.width) - width) < 1 and abs(float(page.mediabox.height) - height) < 1
    assert not unembedded_fonts(page)
    assert page["/Resources"]["/Font"], "the sheet has text"
    text = page.extract_text()
    spec = map_spec(map_id)
    for words in (spec.title, spec.id, "Seed: 7", "TILE TABLE", "MONSTER LOG", "BACKPACK", "THE MUMMY",
                  "FINAL SCORING", "ROUNDS"):
        assert words in text, words
    assert reader.metadata.title == f"sheet {map_id}"


def test_pdf_on_letter_is_a_letter_page() -> None:
    page = read_pdf(sheet_pdf("map1", "letter")).pages[0]
    assert abs(float(page.mediabox.width) - 612) < 1 and abs(float(page.mediabox.height) - 792) < 1
    assert not unembedded_fonts(page)


def test_pdf_holds_no_link_or_action_to_anything_else() -> None:
    data = sheet_pdf("map1")
    for token in (b"/URI", b"/Launch", b"/JavaScript", b"/GoToR"):
        assert token not in data
