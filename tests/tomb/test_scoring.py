"""Final scoring lines, tie-breaks and achievements (T7)."""

from __future__ import annotations

from mummy.tomb.scoring import Score, ranking, score
from tests.helpers import game


def _score(total: int, penalties: int = 0, mummy: int = 0) -> Score:
    lines = dict.fromkeys(("oozes_x_skeletons", "zombies", "golems", "mimics", "magic_items",
                           "leftovers", "entrances"), 0)
    lines.update(mummy=mummy, penalties=penalties)
    return Score(lines, total, 0, 0, 0)


def test_T7_empty_sheet_scores_only_penalties() -> None:
    sc = score(game().sheets[0])
    assert sc.lines["penalties"] == -3 * (4 + 8)  # 4 open entrances, 8 open rooms
    assert sc.total == -36


def test_T7_tiers_for_zombies_golems_and_entrances() -> None:
    g = game()
    s = g.sheets[0]
    for n, points in ((0, 0), (1, 5), (2, 10), (3, 20), (4, 30)):
        s.zombies_defeated = n
        s.sarc_opened = s.sarc_found = n
        s.golems_defeated = s.golems_found = s.gems_found = (1 << n) - 1
        sc = score(s)
        assert sc.lines["zombies"] == points and sc.lines["golems"] == points


def test_T7_leftovers_count_circled_unfinished_things_and_keys() -> None:
    s = game().sheets[0]
    s.oozes_found, s.oozes_defeated, s.skel_defeated = 3, 2, 0b01  # 1 ooze, 1 skeleton
    s.sarc_found, s.sarc_opened, s.zombies_defeated = 3, 2, 1  # 1 sarcophagus, 1 zombie
    s.golems_found, s.gems_found, s.golems_defeated = 0b0011, 0b0110, 0b0010  # golem 0, gem 2
    s.mimics_found, s.mimics_defeated = 2, 1  # 1 mimic
    s.keys_gained, s.keys_used = 3, 1  # 2 keys
    assert score(s).lines["leftovers"] == 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2


def test_T7_ties_fewest_penalties_then_most_mummy_then_shared() -> None:
    a = _score(100, penalties=-6, mummy=10)
    b = _score(100, penalties=-3, mummy=0)
    c = _score(100, penalties=-3, mummy=5)
    d = _score(90)
    assert ranking([a, b, c, d]) == [3, 2, 1, 4]
    assert ranking([_score(50, -3, 4), _score(50, -3, 4)]) == [1, 1]


def test_T7_achievements_need_180_points() -> None:
    g = game()
    s = g.sheets[0]
    m = s.map
    grid = m.grid
    # A closed, complete map: everything covered, every entrance and room connected.
    s.covered = m.free
    s.inner = grid.edges_of(m.free) & ~m.border_block
    s.walls = m.border_block & ~m.connectable
    s.rooms_found = (1 << len(m.spec.rooms)) - 1
    s.sarc_found = 4
    s.gems_found = 0b1111
    s.hits = ((2, 19), (3, 18), (4, 34), (5, 32), (6, 45), (7, 42))
    sc = score(s)
    assert sc.lines["penalties"] == 0 and sc.lines["entrances"] == 30
    assert sc.total >= 180
    assert set(sc.achievements) == {"The Mapmaker", "Mummy Slayer"}
    s.hits = s.hits[:1]
    assert score(s).achievements == ()  # below 180 nothing counts


def test_T7_master_warden_and_hunter() -> None:
    s = game().sheets[0]
    s.oozes_found = s.oozes_defeated = 6
    s.skel_defeated = 0b111111
    s.sarc_found = s.sarc_opened = s.zombies_defeated = 4
    s.golems_found = s.gems_found = s.golems_defeated = 0b1111
    s.items_found = 0b1111
    s.mimics_found = s.mimics_defeated = 6
    s.keys_gained = s.keys_used = 6
    s.hits = ((1, 20), (1, 20), (1, 40), (1, 40))
    sc = score(s)
    assert sc.total >= 180
    assert {"Master of the Undead", "Magical Warden", "Treasure Hunter"} <= set(sc.achievements)
