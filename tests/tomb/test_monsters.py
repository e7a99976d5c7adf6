"""Findings and monsters: T5.2–T5.6 and T6.5–T6.6 (white-box set-ups of the Monster Log)."""

from __future__ import annotations

from tests.helpers import act, dice, game, legal_texts, refused


def test_T5_3_ooze_with_a_1_circles_its_skeleton_and_pays() -> None:
    g = game()
    s = g.sheets[0]
    s.oozes_found = 2
    dice(g, 1, 2)
    act(g, "1:ooze")
    s = g.sheets[0]
    assert (s.oozes_defeated, s.skeletons_circled(), s.coins, s.alerts) == (1, 1, 1, 1)
    act(g, "2:skeleton")
    s = g.sheets[0]
    assert s.skel_defeated == 1 and s.coins == 2 and s.alerts == 2


def test_T5_3_wrong_die_value_for_a_monster_is_refused() -> None:
    g = game()
    g.sheets[0].oozes_found = 1
    dice(g, 2)
    refused(g, "1:ooze", "T5.3")


def test_T5_3_no_circled_monster_is_refused() -> None:
    g = game()
    for value, monster in ((1, "ooze"), (2, "skeleton"), (3, "zombie"), (4, "golem.red"), (5, "mimic")):
        dice(g, value)
        refused(g, f"1:{monster}", "T5.3")


def test_T5_3_skeleton_needs_its_ooze_defeated_first() -> None:
    g = game()
    g.sheets[0].oozes_found = 1
    dice(g, 2)
    err = refused(g, "1:skeleton", "T5.3")
    assert "ooze first" in str(err)


def test_T5_3_golem_needs_its_gem_and_both_are_marked_off() -> None:
    g = game()
    s = g.sheets[0]
    red = s.map.colours.index("red")
    s.golems_found = 1 << red
    dice(g, 4, 4)
    refused(g, "1:golem.red", "T5.3")
    s.gems_found = 1 << red
    assert "1:golem.red" in legal_texts(g)
    act(g, "1:golem.red")
    s = g.sheets[0]
    assert s.golems_defeated == 1 << red and s.coins == 2
    refused(g, "2:golem.red", "T5.3")


def test_T5_3_mimic_takes_a_5_and_a_key() -> None:
    g = game()
    s = g.sheets[0]
    s.mimics_found = 1
    dice(g, 5)
    refused(g, "1:mimic", "T5.3")
    s.keys_gained = 1
    act(g, "1:mimic")
    s = g.sheets[0]
    assert s.mimics_defeated == 1 and s.keys == 0 and s.coins == 1


def test_T5_4_opening_a_sarcophagus_costs_a_key_and_no_die_and_frees_a_zombie() -> None:
    g = game()
    s = g.sheets[0]
    refused(g, "open", "T5.4")
    s.sarc_found = 1
    refused(g, "open", "T5.4")  # no key
    s.keys_gained = 1
    act(g, "open")
    s = g.sheets[0]
    assert (s.sarc_opened, s.keys, s.alerts) == (1, 0, 0)  # opening is not a defeat
    dice(g, 3)
    act(g, "1:zombie")
    s = g.sheets[0]
    assert s.zombies_defeated == 1 and s.coins == 2 and s.alerts == 1


def test_T5_2_coin_track_capacity_extra_coins_are_lost() -> None:
    g = game()
    s = g.sheets[0]
    s.coins_gained = 39
    s.oozes_found = 2
    s.oozes_defeated = 1
    dice(g, 2)
    events = act(g, "1:skeleton")  # pays 1 coin: the 40th
    s = g.sheets[0]
    assert (s.coins, s.coins_gained) == (1, 40) and not events
    s.oozes_found, s.oozes_defeated = 3, 2
    dice(g, 1)
    events = act(g, "1:ooze")
    assert g.sheets[0].coins == 1 and any("coin track full" in e for e in events)


def test_T5_2_key_track_holds_six_keys_ever() -> None:
    g = game()
    s = g.sheets[0]
    s.keys_gained, s.keys_used = 6, 6
    s.marks = sum(1 << (2 * r) for r in range(5))  # 1a..5a marked
    dice(g, 6)
    events = act(g, "1:6a.r2@J1")
    assert g.sheets[0].keys == 0 and any("key track full" in e for e in events)


def test_T5_5_alerts_past_the_18th_are_ignored() -> None:
    g = game()
    s = g.sheets[0]
    s.alerts = 18
    s.oozes_found = 1
    dice(g, 1)
    act(g, "1:ooze")
    assert g.sheets[0].alerts == 18


def test_T5_6_mummy_boxes_unlock_every_three_alerts_and_fill_in_order() -> None:
    g = game()
    s = g.sheets[0]
    s.alerts = 2
    dice(g, 6, 6, 6)
    err = refused(g, "1:mummy", "T5.6")
    assert "0 box" in str(err)
    s.alerts = 7  # two boxes unlocked
    act(g, "1:mummy")
    act(g, "2:mummy")
    assert g.sheets[0].hits == ((1, 20), (1, 20))
    refused(g, "3:mummy", "T5.6")  # box 3 needs 9 alerts
    g.sheets[0].alerts = 9
    act(g, "3:mummy")
    assert g.sheets[0].hits[2] == (1, 40)  # third hit: multiplier 2


def test_T5_6_hit_points_depend_on_the_round() -> None:
    g = game()
    g.round = 7
    s = g.sheets[0]
    s.alerts = 18
    s.hits = ((1, 20), (2, 19), (3, 36), (4, 34))
    dice(g, 6)
    act(g, "1:mummy")
    assert g.sheets[0].hits[-1] == (7, 3 * 14)


def test_T6_6_hammer_defeats_the_oozes_own_skeleton_out_of_order() -> None:
    g = game()
    s = g.sheets[0]
    s.oozes_found = 2
    s.oozes_defeated = 1  # skeleton 1 circled, not defeated
    s.items_found = 1 << 2
    s.item_uses = (0, 0, 3, 0)
    dice(g, 1)
    act(g, "1:ooze+hammer")
    s = g.sheets[0]
    assert s.oozes_defeated == 2
    assert s.skel_defeated == 0b10  # skeleton 2, even though skeleton 1 is undefeated
    assert s.coins == 1 + 1 and s.alerts == 2 and s.item_uses[2] == 2


def test_T6_6_hammer_without_uses_is_refused() -> None:
    g = game()
    g.sheets[0].oozes_found = 1
    dice(g, 1)
    refused(g, "1:ooze+hammer", "T6.6")


def test_T6_5_skeleton_key_replaces_a_key() -> None:
    g = game()
    s = g.sheets[0]
    s.sarc_found = 1
    s.mimics_found = 1
    refused(g, "open+skey", "T6.5")
    s.items_found = 1 << 3
    s.item_uses = (0, 0, 0, 2)
    dice(g, 5)
    act(g, "open+skey")
    act(g, "1:mimic+skey")
    s = g.sheets[0]
    assert s.sarc_opened == 1 and s.mimics_defeated == 1 and s.item_uses[3] == 0 and s.keys == 0
