"""How a final result reads comes from the engine, through the games' content
(mummy.web.content, ``results``): the score lines' labels and order, what a total counts,
and the achievements, which every page (results screen, score panel, replay, Treasure's
status line) reads from there instead of keeping its own words."""

from __future__ import annotations

from mummy.tomb.scoring import ACHIEVEMENTS, LINE_LABELS, LINES, score
from mummy.web.content import tomb_content, treasure_content
from tests.helpers import game


def test_T7_the_tomb_results_lines_are_the_engines_in_its_order() -> None:
    words = tomb_content()["results"]
    assert [key for key, _ in words["lines"]] == [*LINES, "total"]
    assert [label for _, label in words["lines"][:-1]] == [LINE_LABELS[key] for key in LINES]
    assert words["rule"] == "T7" and words["units"]["total"] == ["point", "points"]


def test_T7_every_achievement_the_engine_awards_is_listed_with_what_it_needs() -> None:
    """A sheet that earns all five (T7: each also needs a total of at least 180): every
    name the engine awards is one of the content's, in the rulebook's order."""
    s = game().sheets[0]
    m = s.map
    s.covered = m.free
    s.inner = m.grid.edges_of(m.free) & ~m.border_block
    s.walls = m.border_block & ~m.connectable
    s.rooms_found = (1 << len(m.spec.rooms)) - 1
    s.oozes_found = s.oozes_defeated = 6
    s.skel_defeated = 0b111111
    s.sarc_found = s.sarc_opened = s.zombies_defeated = 4
    s.golems_found = s.gems_found = s.golems_defeated = 0b1111
    s.items_found = 0b1111
    s.mimics_found = s.mimics_defeated = 6
    s.keys_gained = s.keys_used = 6
    s.hits = ((2, 19), (3, 18), (4, 34), (5, 32), (6, 45), (7, 42))
    earned = score(s).achievements
    assert earned == ACHIEVEMENTS  # all five, in order
    words = tomb_content()["results"]
    assert [name for name, _ in words["achievements"]] == list(ACHIEVEMENTS)
    assert all(needs and not needs.endswith(".") for _, needs in words["achievements"])
    assert words["achievement_min"] == 180


def test_R4_treasures_results_lines_end_with_the_squares_covered() -> None:
    words = treasure_content()["results"]
    assert [key for key, _ in words["lines"]] == ["site", "tiles", "turns", "filled", "total"]
    assert words["units"] == {"total": ["square covered", "squares covered"], "turns": ["turn", "turns"]}
    assert words["achievements"] == []
