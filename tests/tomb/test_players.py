"""Modes and players (T8)."""

from __future__ import annotations

import pytest

from mummy.tomb.game import PlayerSetup, TombGame
from tests.helpers import act


def test_T8_1_any_number_of_players_share_the_round_dice() -> None:
    g = TombGame(3, 5)
    assert len({tuple(d.value for d in s.row) for s in g.sheets}) == 1
    with pytest.raises(ValueError):
        TombGame(3, [])


@pytest.mark.parametrize(("mode", "coins", "keys"), [("standard", 0, 0), ("easy", 3, 0), ("kids", 5, 1)])
def test_T8_2_starting_bonus_by_mode(mode: str, coins: int, keys: int) -> None:
    s = TombGame(3, [PlayerSetup("p", "map1", mode)]).sheets[0]
    assert (s.coins, s.keys) == (coins, keys)


def test_T8_2_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match=r"T8\.2"):
        TombGame(3, [PlayerSetup("p", "map1", "hard")])


def test_T8_3_players_may_play_different_maps_on_the_same_dice() -> None:
    g = TombGame(99, [PlayerSetup("a", "map1"), PlayerSetup("b", "map2")])
    assert g.maps[0].id == "map1" and g.maps[1].id == "map2"
    assert [d.value for d in g.sheets[0].row] == [d.value for d in g.sheets[1].row]
    act(g, "1:5a.r0@J1", 0)  # the top entrance of map1
    with pytest.raises(ValueError, match=r"T3\.1: the tile would cover stone at J3"):
        act(g, "1:5a.r0@J1", 1)  # map2 has stone on J3
    act(g, "1:5a.r0@H1", 1)  # map2's top entrance is H1


def test_each_player_acts_on_their_own_sheet() -> None:
    g = TombGame(99, 2)
    act(g, "1:5a.r0@J1", 0)
    assert g.sheets[1].covered == 0
    act(g, "1:5a.r0@J1", 1)
    assert g.sheets[0].covered == g.sheets[1].covered
