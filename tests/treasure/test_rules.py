"""Mummy's Treasure rules R2–R5, refusals included (white-box dice where a roll is needed)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mummy.core.errors import IllegalActionError
from mummy.treasure.actions import Action
from mummy.treasure.game import Seat, TreasureGame, contains, roll_die, shuffle_pile
from tests.treasure.helpers import act, game, put_on_top, set_dice


def refused(g: TreasureGame, text: str, rule: str, seat: int | None = None) -> IllegalActionError:
    before = (g.state, list(g.history))
    with pytest.raises(IllegalActionError) as info:
        act(g, text, seat)
    assert info.value.rule == rule, str(info.value)
    assert (g.state, g.history) == before
    return info.value


def test_R2_1_one_to_four_players() -> None:
    for n in (1, 2, 3, 4):
        assert len(TreasureGame(1, n).seats) == n
    with pytest.raises(ValueError, match=r"R2\.1"):
        TreasureGame(1, 5)


def test_R2_2_piles_are_shuffled_from_the_seed() -> None:
    a, b = TreasureGame(1, 2), TreasureGame(1, 2)
    assert a.order == b.order
    assert TreasureGame(2, 2).order != a.order
    assert sorted(a.order["scroll"]) == sorted(t.id for t in a.tiles.values() if t.pile == "scroll")
    assert shuffle_pile(1, "scroll", ["x", "y"]) == shuffle_pile(1, "scroll", ["x", "y"])


def test_R2_3_play_goes_in_seat_order() -> None:
    g = game()
    refused(g, "roll", "R2.3", seat=1)
    act(g, "roll")
    assert g.state.turns == (1, 0)


def test_R3_1_first_roll_is_all_five_dice_from_the_seeded_stream() -> None:
    g = game(seed=3)
    act(g, "roll")
    assert len(g.state.dice) == 5
    assert sorted(g.state.dice) == sorted(roll_die(3, i) for i in range(5))
    refused(g, "roll", "R3.1")


def test_R3_1_reroll_a_non_empty_subset_at_most_twice() -> None:
    g = game()
    act(g, "roll")
    dice = g.state.dice
    act(g, f"reroll:{dice[0]}")
    kept = dice[1:]
    assert contains(g.state.dice, kept)
    assert g.state.rolls == 2
    act(g, f"reroll:{g.state.dice}")  # all five may be rerolled, kept ones included
    assert g.state.rolls == 3
    refused(g, f"reroll:{g.state.dice[0]}", "R3.1")  # a fourth roll


def test_R3_1_rerolling_nothing_or_dice_not_showing_is_refused() -> None:
    g = game()
    act(g, "roll")
    with pytest.raises(IllegalActionError) as info:
        g.apply(0, Action("reroll", dice=""))
    assert info.value.rule in ("R3.1", "notation")
    set_dice(g, "SSAAJ")
    refused(g, "reroll:P", "R3.1")
    refused(g, "reroll:JJ", "R3.1")


def test_R3_1_no_take_or_reroll_before_the_first_roll() -> None:
    g = game()
    refused(g, "reroll:S", "R3.1")
    refused(g, "take:amulet@A1.h", "R3.1")
    refused(g, "pass", "R3.1")


def test_R3_2_after_the_third_roll_a_possible_take_is_forced() -> None:
    g = game()
    put_on_top(g, "amulet-1")  # needs S
    act(g, "roll")
    set_dice(g, "SAAEE", rolls=3)
    err = refused(g, "pass", "R3.2")
    assert "take:amulet" in str(err)


def test_R3_2_empty_turn_when_nothing_can_be_taken() -> None:
    g = game()
    for tile in ("amulet-1", "scroll-1", "dagger-1", "chest-1", "statue-1", "sarcophagus-1"):
        put_on_top(g, tile)  # S, SA, SS, SSA, SSS, SSAA
    act(g, "roll")
    set_dice(g, "EPPCJ", rolls=2)
    refused(g, "pass", "R3.1")  # not before the third roll
    set_dice(g, "EPPCJ", rolls=3)
    assert [a.kind for a in g.legal_actions(0)] == ["pass"]
    act(g, "pass")
    assert g.state.current == 1 and g.state.rolls == 0 and g.state.placed[0] == ()


def test_R3_3_take_when_the_symbols_show_and_place_at_once() -> None:
    g = game()
    put_on_top(g, "chest-1")  # SSA, 2x2
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:chest@B2.h")
    st = g.state
    board = g.boards[0]
    assert st.covered[0] == board.placements(2, 2)[(board.grid.parse_square("B2"), "h")]
    assert g.top("chest") is not None and g.top("chest").id != "chest-1"
    assert st.current == 1  # one tile, and the turn passes


def test_R3_3_missing_symbols_are_refused() -> None:
    g = game()
    put_on_top(g, "scroll-2")  # EP
    act(g, "roll")
    set_dice(g, "SSAJP")
    err = refused(g, "take:scroll@A1.h", "R3.3")
    assert "missing E" in str(err)


def test_R3_3_a_pair_needs_two_dice() -> None:
    g = game()
    put_on_top(g, "dagger-1")  # SS
    act(g, "roll")
    set_dice(g, "SAEPC")
    err = refused(g, "take:dagger@A1.h", "R3.3")
    assert "pair needs two dice" in str(err)


def test_R3_3_tile_turned_either_way_inside_the_site() -> None:
    g = game()
    put_on_top(g, "statue-1")  # SSS, 2x3
    act(g, "roll")
    set_dice(g, "SSSAJ")
    refused(g, "take:statue@E1.h", "R3.3")  # 2 rows x 3 cols from E1 leaves the 6-wide oasis
    act(g, "take:statue@E1.v")  # 3 rows x 2 cols fits
    assert g.state.covered[0].bit_count() == 6


def test_R3_3_overlap_is_refused_naming_the_square() -> None:
    g = game(players=1)
    put_on_top(g, "chest-1")
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:chest@A1.h")
    act(g, "roll")
    set_dice(g, "SSAJP")
    err = refused(g, "take:amulet@B2.h", "R3.3")
    assert err.where == "B2"


def test_R3_3_only_the_top_tile_can_be_taken() -> None:
    g = game()
    put_on_top(g, "scroll-1")
    act(g, "roll")
    set_dice(g, "SAEPJ")
    err = refused(g, "take:scroll-2@A1.h", "R3.3")
    assert "not on top" in str(err)
    act(g, "take:scroll-1@A1.h")  # naming the top tile is fine
    assert g.history[-1][1].pile == "scroll"


def test_R3_3_an_empty_pile_cannot_be_taken_from() -> None:
    g = game()
    g.state = replace(g.state, tops=(8, 0, 0, 0, 0, 0))
    act(g, "roll")
    set_dice(g, "SAEPJ")
    refused(g, "take:amulet@A1.h", "R3.3")


def test_R3_4_one_tile_a_turn() -> None:
    g = game()
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:amulet@A1.h")
    refused(g, "take:scroll@A2.h", "R3.4", seat=0)
    solo = game(players=1)
    put_on_top(solo, "amulet-1")
    act(solo, "roll")
    set_dice(solo, "SSAJP")
    act(solo, "take:amulet@A1.h")
    refused(solo, "take:scroll@A2.h", "R3.4")


def test_R4_1_a_full_site_wins_at_once() -> None:
    g = game()
    board = g.boards[0]
    a1 = board.grid.parse_square("A1")
    g.state = replace(g.state, covered=(board.squares & ~(1 << a1), 0))
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:amulet@A1.h")
    assert g.is_over and g.state.reason == "full" and g.state.winner == 0
    assert g.places() == [1, 2]
    refused(g, "roll", "R4", seat=1)


def test_R4_the_end_of_a_game_is_final_undo_is_refused() -> None:
    """The game-ending take cannot be undone (docs/treasure-rules.md, Undo)."""
    g = game()
    board = g.boards[0]
    g.state = replace(g.state, covered=(board.squares & ~(1 << board.grid.parse_square("A1")), 0))
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:amulet@A1.h")
    before = g.state
    assert g.is_over and not g.can_undo()
    with pytest.raises(IllegalActionError) as info:
        g.undo()
    assert info.value.rule == "R4" and "result stands" in str(info.value)
    assert g.state == before and g.is_over


def test_R4_2_game_ends_when_no_tile_can_ever_be_taken_most_squares_wins() -> None:
    g = game(players=2)
    sq = [b.squares for b in g.boards]
    # Every pile empty but one sarcophagus, which fits on neither site (one and two
    # squares free): nobody can ever take a tile again.
    g.state = replace(g.state, tops=(8, 8, 8, 8, 8, 7), covered=(sq[0] & ~1, sq[1] & ~0b11))
    act(g, "roll")
    set_dice(g, "SAEPC", rolls=3)
    assert [a.kind for a in g.legal_actions(0)] == ["pass"]
    act(g, "pass")
    assert g.is_over and g.state.reason == "stuck"
    assert g.scores() == [35, 34] and g.places() == [1, 2]


def test_R4_2_ties_are_shared() -> None:
    g = game(players=2)
    g.state = replace(g.state, over=True, reason="stuck", covered=(0b11, 0b101))
    assert g.places() == [1, 1]


def test_R4_3_solo_ends_full_with_turns_or_stuck_with_squares() -> None:
    g = game(players=1)
    board = g.boards[0]
    a1 = board.grid.parse_square("A1")
    g.state = replace(g.state, covered=(board.squares & ~(1 << a1),), turns=(11,))
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:amulet@A1.h")
    assert g.is_over and g.state.reason == "full" and g.state.turns == (12,)


def take_top(g: TreasureGame, tile: str, where: str = "") -> None:
    """Put ``tile`` on top, roll, show its symbols, and take it."""
    put_on_top(g, tile)
    act(g, "roll")
    needs = g.tiles[tile].needs
    set_dice(g, needs + "JJJJJ"[: 5 - len(needs)])
    act(g, f"take:{g.tiles[tile].pile}{where}")


def test_R5_1_movable_tiles_rearranged_to_fit() -> None:
    g = TreasureGame(5, [Seat("solo", "oasis")], movable=True)
    take_top(g, "amulet-1")  # the game puts it somewhere
    for tile in ("sarcophagus-1", "sarcophagus-4", "sarcophagus-2", "sarcophagus-3"):
        take_top(g, tile)
    st = g.state
    assert len(st.placed[0]) == 5
    assert st.covered[0].bit_count() == 1 + 4 * 8  # four 2x4 and an amulet in the 6x6 oasis
    board = g.boards[0]
    masks = [board.placements(g.tiles[p.tile].rows, g.tiles[p.tile].cols)[(p.square, p.orient)]
             for p in st.placed[0]]
    assert sum(m.bit_count() for m in masks) == st.covered[0].bit_count()  # no overlap


def test_R5_1_refused_when_no_arrangement_exists() -> None:
    g = TreasureGame(5, [Seat("solo", "oasis")], movable=True)
    for tile in ("sarcophagus-1", "sarcophagus-2", "sarcophagus-3", "sarcophagus-4"):
        take_top(g, tile)
    put_on_top(g, "dagger-1")  # 1x3 with 4 free squares left, but never in a row of three
    act(g, "roll")
    set_dice(g, "SSAJP")
    err = refused(g, "take:dagger", "R5.1")
    assert "no arrangement" in str(err)
    assert [a for a in g.legal_actions(0) if a.kind == "take" and a.pile == "dagger"] == []


def test_fixed_game_needs_a_square() -> None:
    g = game()
    act(g, "roll")
    set_dice(g, "SAEPC")
    refused(g, "take:amulet", "R3.3")


def test_undo_back_to_the_last_roll() -> None:
    g = game()
    put_on_top(g, "amulet-1")
    act(g, "roll")
    assert not g.can_undo()
    set_dice(g, "SSAJP")
    before = g.state
    act(g, "take:amulet@A1.h")
    g.undo()
    assert g.state == before
    with pytest.raises(IllegalActionError):
        g.undo()


def test_R2_1_sites_dealt_at_random_are_distinct_and_seeded() -> None:
    from mummy.treasure.game import deal_sites

    dealt = deal_sites(9, 4)
    assert sorted(dealt) == ["oasis", "pyramid", "temple", "valley"]
    assert deal_sites(9, 3) == dealt[:3] and deal_sites(9, 4) == dealt
    assert {tuple(deal_sites(s, 4)) for s in range(20)} != {tuple(dealt)}  # it does vary with the seed


def test_R2_3_first_player_at_random_from_the_seed() -> None:
    from mummy.treasure.game import random_first

    firsts = {random_first(s, 3) for s in range(40)}
    assert firsts == {0, 1, 2}
    g = TreasureGame(1, 3, first=2)
    assert g.state.current == 2 and g.legal_actions(0) == [] and g.legal_actions(2) == [Action("roll")]


def test_undo_by_seat_takes_back_only_that_seats_own_last_action() -> None:
    """The protocol's undo(seat): the seat that made the last action may take it back;
    another seat is refused under "undo", naming whose action it was, and nothing changes."""
    g = game()
    put_on_top(g, "amulet-1")
    act(g, "roll")
    set_dice(g, "SSAJP")
    act(g, "take:amulet@A1.h")
    taker = g.history[-1][0]
    other = (taker + 1) % len(g.seats)
    state, history = g.state, list(g.history)
    assert g.can_undo(taker) and not g.can_undo(other)
    with pytest.raises(IllegalActionError, match=f"the last action was {g.seats[taker].name}'s") as refusal:
        g.undo(other)
    assert refusal.value.rule == "undo" and (g.state, g.history) == (state, history)
    assert g.undo(taker).kind == "take"
