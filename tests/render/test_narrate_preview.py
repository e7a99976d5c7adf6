"""Previews (contracts §2): what an action would do, on a copy; the warnings before a harm
the rules make permanent (sealed T3.2, no_use T4.3, unused_dice T4.4, unused_items
T4.5), each on a position built for it; never a roll shown before it is made."""

from __future__ import annotations

from typing import Any

import pytest

from mummy.core.errors import IllegalActionError
from mummy.games import KINDS
from mummy.render.narrate import NARRATORS
from mummy.render.narrate_words import UNKNOWN
from mummy.tomb.game import TombGame
from mummy.tomb.record import snapshot
from mummy.tomb.sheet import AFTER
from mummy.treasure.game import TreasureGame
from tests.helpers import act, dice, game, sq

TOMB = NARRATORS["tomb"]


def unchanged(g: TombGame) -> tuple[Any, ...]:
    """Everything a preview could change: sheets, round, history, chances, undo."""
    return (snapshot(g, 0), g.round, list(g.history), list(g.chances), g.undo_depth(0))


def previewed(g: TombGame, text: str) -> dict[str, Any]:
    before = unchanged(g)
    out = TOMB.preview(g, 0, text)
    assert unchanged(g) == before, f"previewing {text} changed the game"
    return out


def codes(out: dict[str, Any]) -> list[str]:
    return [w["code"] for w in out["warnings"]]


def nearly_full(g: TombGame, left: str | None, *values: int) -> None:
    """White-box: a dungeon covering every free square but ``left`` (or all of them),
    with no wall the Wand could erase, an ooze circled, 2 coins, these dice."""
    s = g.sheets[0]
    s.covered = s.map.free & ~(1 << sq(g, left) if left else 0)
    s.walls, s.tiles, s.oozes_found, s.coins, s.coins_gained = 0, (0,), 1, 2, 2
    dice(g, *values)


def test_a_wall_on_the_last_open_opening_warns_sealed_T3_2() -> None:
    g = game()
    dice(g, 1, 1)
    act(g, "1:1a.r0@A11")  # a stub from the entrance: one opening left, C11w
    out = previewed(g, "2:add@C11w")
    assert codes(out) == ["sealed"] and out["warnings"][0]["rule"] == "T3.2"
    assert "no open opening" in out["warnings"][0]["message"] and "T6.1" in out["warnings"][0]["message"]
    assert out["sentence"] == "Wall at C11 (west side) with a 1: no opening left open (T3.2)"
    assert out["action"] == "2:add@C11w" and out["uses_after"] > 0
    assert codes(previewed(g, "2:1a.r0@C11")) == []  # another stub keeps a way on


def test_a_coin_that_gives_a_die_no_tile_or_monster_warns_no_use_T4_3() -> None:
    g = game()
    nearly_full(g, "F6", 2, 3)
    up = previewed(g, "1:up")  # a 3: no zombie circled, no shape of 3 fits
    assert codes(up) == ["no_use"] and up["warnings"][0]["rule"] == "T4.3"
    assert "Wand or the Shovel" in up["warnings"][0]["message"]
    down = previewed(g, "1:down")  # a 1 defeats the circled ooze
    assert codes(down) == [] and down["sentence"] == "Turned a 2 down to 1 (1 coin)"
    assert down["by_value"]["1"] == 1 and down["by_value"]["3"] == 0
    assert down["uses_after"] > up["uses_after"]  # the ooze besides the Wand's and Shovel's work


def test_filling_the_last_square_warns_that_the_other_die_loses_its_use_T4_4() -> None:
    g = game()
    nearly_full(g, "F6", 2, 3)
    out = previewed(g, "1:dig.n@F6")
    assert codes(out) == ["unused_dice"] and out["warnings"][0]["rule"] == "T4.4"
    assert "a 3" in out["warnings"][0]["message"]


def test_discarding_a_die_a_coin_would_make_usable_warns_unused_dice_T4_3() -> None:
    g = game()
    nearly_full(g, None, 2)
    out = previewed(g, "1:discard")
    assert codes(out) == ["unused_dice"]
    assert "turned to 1 for 1 coin" in out["warnings"][0]["message"]
    g.sheets[0].coins = 0  # no coin: nothing else to do with it
    assert codes(previewed(g, "1:discard")) == []


def test_a_bought_die_is_weighed_over_its_faces_and_never_rolled_T4_6() -> None:
    g = game()
    nearly_full(g, None, 2)
    out = previewed(g, "buy")
    assert out["uses_after"] == UNKNOWN and out["sentence"] == "Buy a die (2 coins)"
    assert out["by_value"] == {"1": 1, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0} and codes(out) == []
    g.sheets[0].oozes_found = 0  # no face has a use now
    assert codes(previewed(g, "buy")) == ["no_use"]


def test_ending_a_round_shows_neither_the_next_dice_nor_what_they_allow() -> None:
    g = game()
    dice(g, 1, 1)
    act(g, "1:1a.r0@A11")
    act(g, "2:1a.r0@C11")
    out = previewed(g, "end")
    assert out == {"action": "end", "sentence": "player 1 ended round 1", "warnings": [], "uses_after": UNKNOWN}


def test_finishing_with_a_usable_shovel_warns_unused_items_T4_5() -> None:
    g = game()
    dice(g, 1, 1)
    act(g, "1:1a.r0@A11")
    s = g.sheets[0]
    s.phase, s.row, s.item_uses = AFTER, (), (0, 2, 0, 0)
    out = previewed(g, "end")
    assert codes(out) == ["unused_items"] and "the Shovel (2 uses)" in out["warnings"][0]["message"]


def test_an_illegal_action_is_refused_with_its_rule_and_square() -> None:
    g = game()
    with pytest.raises(IllegalActionError) as refused:
        previewed(g, "1:5b.r0@A10")
    assert refused.value.rule == "T3.2" and refused.value.where == "A10"
    with pytest.raises(IllegalActionError, match="undo"):
        previewed(g, "undo")


def test_a_treasure_preview_rolls_nothing_and_says_the_take() -> None:
    kind = KINDS["treasure"]
    g: TreasureGame = kind.new(5, kind.validate({}, 2), ["Ann", "Sphinx"])
    treasure = NARRATORS["treasure"]
    state, chances = g.state, list(g.chances)
    assert treasure.preview(g, 0, "roll") == {"action": "roll", "sentence": "Ann rolls the five dice",
                                              "warnings": [], "uses_after": UNKNOWN}
    assert g.state == state and g.chances == chances
    kind.apply(g, 0, "roll")
    take = next(t for t in kind.legal(g, 0) if t.startswith("take:"))
    state = g.state
    out = treasure.preview(g, 0, take)
    assert g.state == state and out["action"] == take
    assert out["sentence"].startswith("Ann took the ") and out["sentence"].endswith("/36 covered")
    with pytest.raises(IllegalActionError) as refused:
        treasure.preview(g, 1, "roll")
    assert refused.value.rule == "R2.3"
