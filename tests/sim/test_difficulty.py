"""A map's difficulty is measured (T10): the strong bot's mean on fixed dice, in a band."""

from __future__ import annotations

import pytest

from mummy.cli import main
from mummy.sim.difficulty import BANDS, SEEDS, band_of, measure
from mummy.tomb.content import map_ids, map_spec
from mummy.tomb.generate import map_text, parse_id


def test_the_bands_cover_every_score_once() -> None:
    assert band_of(175.0) == "easy" and band_of(174.9) == "standard"
    assert band_of(145.0) == "standard" and band_of(144.9) == "hard" and band_of(-20.0) == "hard"
    assert list(BANDS) == ["easy", "standard", "hard"]


def test_every_shipped_map_measures_what_its_file_says() -> None:
    """The `measured:` line of each packaged map is the strong bot's mean on the measuring
    dice, to the tenth (the bot and the dice are seeded); Map 1, the rulebook's, is
    standard and Map 2 hard."""
    for map_id in map_ids():
        spec = map_spec(map_id)
        assert spec.measured is not None, f"{map_id} has no 'measured:' line"
        assert measure(map_id, jobs=2).mean == spec.measured, map_id
    assert band_of(map_spec("map1").measured or 0) == "standard"
    assert band_of(map_spec("map2").measured or 0) == "hard"


def test_maps_generate_writes_a_map_that_names_its_measure(tmp_path: pytest.TempPathFactory,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.txt"  # type: ignore[operator]
    assert main(["maps", "generate", "--seed", "1", "--difficulty", "hard", "--games", "6", "--jobs", "2",
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    err = capsys.readouterr().err
    name = text.split("name: ", 1)[1].split("\n", 1)[0]
    ident = parse_id(name)
    assert ident is not None and "# measured: " in text and f"wrote {out}: {name} (hard" in err
    assert text.replace(text[text.index("# measured:"):text.index("grid:")], "") == map_text(*ident)
    assert main(["check-map", str(out)]) == 0
    # measured, not guessed: in the band, and the same map measures the same again
    mean = float(text.split("# measured: ", 1)[1].split(" ", 1)[0])
    assert BANDS["hard"][0] <= mean < BANDS["hard"][1] and "attempt 1: gen-hard-1-0" in err
    assert measure(name, SEEDS[:6], jobs=2).mean == mean
