"""``mummy print``: the sheets written as PDF or SVG by the output's extension, and bad
input reported as a message and an exit code (issue 17, "Printable sheets")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mummy.cli import main
from mummy.tomb.content import map_ids
from tests.render.print_helpers import parse_svg, points, read_pdf, unembedded_fonts


def test_print_tomb_writes_a_pdf_of_the_chosen_map_and_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("svglib")
    out = tmp_path / "sheet.pdf"
    assert main(["print", "tomb", "--map", "map2", "--out", str(out), "--seed", "42"]) == 0
    assert f"wrote {out} (1 page, a4)" in capsys.readouterr().out
    page = read_pdf(out.read_bytes()).pages[0]
    assert abs(float(page.mediabox.height) - 841.89) < 1
    assert not unembedded_fonts(page)
    text = page.extract_text()
    assert "Map 2 (advanced)" in text and "Seed: 42" in text


def test_print_tomb_writes_svg_on_letter_by_the_extension(tmp_path: Path) -> None:
    out = tmp_path / "sheet.svg"
    assert main(["print", "tomb", "--map", "map1", "--out", str(out), "--paper", "letter"]) == 0
    root = parse_svg(out.read_text(encoding="utf-8"))
    assert (points(root.attrib["width"]), points(root.attrib["height"])) == (612, 792)
    assert root.attrib["data-map"] == "map1"


def test_print_tomb_takes_a_map_file(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "src" / "mummy" / "tomb" / "data" / "map2.txt"
    mine = tmp_path / "mine.txt"
    mine.write_text(source.read_text(encoding="utf-8").replace("title: Map 2 (advanced)", "title: My map"),
                    encoding="utf-8")
    out = tmp_path / "mine.svg"
    assert main(["print", "tomb", "--map", str(mine), "--out", str(out)]) == 0
    assert "My map" in out.read_text(encoding="utf-8")


def test_print_treasure_writes_one_svg_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sites.svg"
    assert main(["print", "treasure", "--out", str(out)]) == 0
    written = sorted(tmp_path.glob("sites-*.svg"))
    assert len(written) >= 3 and not out.exists()
    assert f"wrote {', '.join(str(tmp_path / f'sites-{n}.svg') for n in range(1, len(written) + 1))}" \
        in capsys.readouterr().out
    for path in written:
        parse_svg(path.read_text(encoding="utf-8"))


def test_print_treasure_writes_a_pdf(tmp_path: Path) -> None:
    pytest.importorskip("svglib")
    out = tmp_path / "sites.pdf"
    assert main(["print", "treasure", "--out", str(out), "--paper", "letter"]) == 0
    reader = read_pdf(out.read_bytes())
    assert len(reader.pages) >= 3
    assert all(abs(float(p.mediabox.width) - 612) < 1 for p in reader.pages)


def test_an_unknown_map_is_named_with_the_known_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.pdf"
    assert main(["print", "tomb", "--map", "map99", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mummy print: unknown map 'map99'")
    assert all(known in err for known in map_ids())
    assert not out.exists()


def test_a_missing_map_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "tomb", "--map", str(tmp_path / "none.txt"), "--out", str(tmp_path / "x.svg")]) == 2
    assert "mummy print: cannot read" in capsys.readouterr().err


def test_an_invalid_map_file_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("name: bad\ngrid:\n  ..\nend\nentrance: A1 Q\n", encoding="utf-8")
    assert main(["print", "tomb", "--map", str(bad), "--out", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mummy print:") and "bad.txt:5: expected 'entrance: SQUARE SIDE'" in err


def test_an_output_that_is_neither_pdf_nor_svg_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "tomb", "--out", str(tmp_path / "sheet.png")]) == 2
    assert "must end in .pdf or .svg" in capsys.readouterr().err


def test_an_unwritable_output_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "tomb", "--out", str(tmp_path / "no" / "such" / "sheet.svg")]) == 2
    assert "mummy print: cannot write" in capsys.readouterr().err


def test_an_unknown_paper_is_refused_by_the_parser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["print", "tomb", "--paper", "a3", "--out", str(tmp_path / "x.pdf")])
    assert stop.value.code == 2
    assert "invalid choice: 'a3'" in capsys.readouterr().err


def test_a_negative_seed_is_refused_by_the_parser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["print", "tomb", "--seed", "-3", "--out", str(tmp_path / "x.svg")])
    assert stop.value.code == 2
    assert "a seed is a non-negative whole number, not '-3'" in capsys.readouterr().err


def test_pdf_without_the_print_extra_says_how_to_get_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "svglib.svglib", None)  # as if svglib were not installed
    out = tmp_path / "sheet.pdf"
    assert main(["print", "tomb", "--out", str(out)]) == 2
    assert "pip install 'mummy[print]'" in capsys.readouterr().err
    assert not out.exists()
