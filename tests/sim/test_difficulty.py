"""A map's difficulty is measured (T10): the strong bot's mean on fixed dice, in a band."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from mummy.cli import main
from mummy.sim.difficulty import BANDS, SEEDS, band_of, measure
from mummy.tomb.content import map_ids, map_spec
from mummy.tomb.generate import map_text, parse_id

#: Each packaged map's 30 scores on the measuring dice (SEEDS), as `mummy maps measure MAP
#: --json` printed them; the test replays some of them, and their mean is the map file's
#: `measured:` line.
MEASURES = Path(__file__).with_name("map_measures.json")


def test_the_bands_cover_every_score_once() -> None:
    assert band_of(180.0) == "easy" and band_of(179.9) == "standard" and band_of(1e9) == "easy"
    assert band_of(150.0) == "standard" and band_of(149.9) == "hard" and band_of(-20.0) == "hard"
    assert list(BANDS) == ["easy", "standard", "hard"]


@pytest.mark.slow
def test_every_shipped_map_measures_what_its_file_says() -> None:
    """The `measured:` line of each packaged map is the mean of its recorded scores; one of
    them (another seed for each map) is played again here and must come out the same (the
    bot and the dice are seeded), so the record is the bot's and not a guess. Map 1, the rulebook's, is
    standard; the others' titles say their band."""
    measures = json.loads(MEASURES.read_text(encoding="utf-8"))
    assert sorted(measures) == sorted(map_ids())
    for i, map_id in enumerate(map_ids()):
        spec, got = map_spec(map_id), measures[map_id]
        assert got["seeds"] == list(SEEDS) and len(got["scores"]) == len(SEEDS)
        assert spec.measured == round(statistics.fmean(got["scores"]), 1), map_id
        picked = [(7 * i + 11) % len(SEEDS)]
        again = measure(map_id, [SEEDS[k] for k in picked])
        assert list(again.scores) == [got["scores"][k] for k in picked], map_id
    assert band_of(map_spec("map1").measured or 0) == "standard"
    bands = {m: band_of(map_spec(m).measured or 0) for m in map_ids() if m not in ("map1", "map2")}
    assert sorted(bands.values()) == ["easy", "hard", "standard"]
    assert all(f"({band})" in map_spec(m).title for m, band in bands.items())  # what a player reads


@pytest.mark.slow
def test_maps_measure_prints_the_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "measure", "map1", "--games", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    recorded = json.loads(MEASURES.read_text(encoding="utf-8"))["map1"]["scores"][:2]
    assert got["scores"] == recorded and got["games"] == 2 and got["map"] == "map1"
    assert main(["maps", "measure", "no-such-map"]) == 1
    assert "neither a map id nor a file" in capsys.readouterr().err


@pytest.mark.slow
def test_maps_generate_writes_a_map_that_names_its_measure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.txt"
    assert main(["maps", "generate", "--seed", "1", "--difficulty", "standard", "--games", "4", "--jobs", "2",
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    err = capsys.readouterr().err
    name = text.split("name: ", 1)[1].split("\n", 1)[0]
    ident = parse_id(name)
    assert ident is not None and "# measured: " in text and f"wrote {out}: {name} (standard" in err
    assert text.replace(text[text.index("# measured:"):text.index("grid:")], "") == map_text(*ident)
    assert main(["check-map", str(out)]) == 0
    # measured, not guessed: in the band, and the same map measures the same again
    mean = float(text.split("# measured: ", 1)[1].split(" ", 1)[0])
    assert BANDS["standard"][0] <= mean < BANDS["standard"][1] and "attempt 1: gen-standard-1-0" in err
    assert measure(name, SEEDS[:4], jobs=2).mean == mean
