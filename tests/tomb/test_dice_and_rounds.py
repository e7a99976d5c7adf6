"""Dice, rounds, coins, bonus dice and undo: T2.3–T2.5, T4.1–T4.6."""

from __future__ import annotations

import pytest

from mummy.core.errors import IllegalActionError
from mummy.core.rng import draw
from mummy.tomb.actions import END, Action
from mummy.tomb.game import TombGame, bought_die, round_dice
from mummy.tomb.sheet import AFTER, DONE, PLAY, WAITING, Die
from tests.helpers import FIVE_FIVE_SEED, act, dice, game, legal_texts, refused, state


def use_all_dice(g: TombGame, player: int = 0) -> None:
    """Spend every die of the round on the first listed die action, then end the round."""
    while True:
        legal = g.legal_actions(player)
        if any(x.kind == END for x in legal):
            g.apply(player, Action(END))
            return
        g.apply(player, next(x for x in legal if x.dice and x.kind not in ("up", "down")))


def test_T4_1_two_dice_a_round_shared_by_every_player() -> None:
    g = TombGame(5, 3)
    a, b = round_dice(5, 1)
    for s in g.sheets:
        assert [(d.value, d.source) for d in s.row] == [(a, "roll"), (b, "roll")]


def test_T4_1_next_round_starts_when_every_player_has_ended() -> None:
    g = TombGame(5, 2)
    use_all_dice(g, 0)
    assert g.round == 1 and g.sheets[0].phase == WAITING
    refused(g, "end", "T4.4", player=0)  # waiting: nothing to do until the round advances
    use_all_dice(g, 1)
    assert g.round == 2
    assert [d.value for d in g.sheets[0].row][-2:] == list(round_dice(5, 2))
    assert all(s.phase == PLAY for s in g.sheets)


def test_T4_2_each_die_is_used_once() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    refused(g, "1:5b.r3@J4", "T4.2")
    refused(g, "3:5b.r3@J4", "T4.2")  # no die in slot 3


def test_T4_3_turn_a_die_up_or_down_for_a_coin_with_wrap() -> None:
    g = game()
    s = g.sheets[0]
    refused(g, "1:up", "T4.3")  # no coins
    s.coins = 3
    dice(g, 6, 1)
    act(g, "1:up")
    act(g, "2:down")
    assert [d.value for d in g.sheets[0].row] == [1, 6]
    assert g.sheets[0].coins == 1


def test_T4_3_buy_a_rolled_die_for_two_coins_and_a_chosen_die_for_three() -> None:
    g = game()
    g.sheets[0].coins = 5
    act(g, "buy")
    s = g.sheets[0]
    assert s.row[2] == Die(bought_die(g.seed, 0, 0), "buy") and s.coins == 3
    act(g, "buy6")
    s = g.sheets[0]
    assert s.row[3] == Die(6, "choose") and s.coins == 0


def test_T4_3_buying_into_a_full_row_is_refused() -> None:
    g = game()
    g.sheets[0].coins = 10
    dice(g, 1, 2, 3, 4)
    err = refused(g, "buy", "T4.3")
    assert "full" in str(err)
    refused(g, "buy3", "T4.3")


def test_T4_3_not_enough_coins() -> None:
    g = game()
    g.sheets[0].coins = 2
    refused(g, "buy3", "T4.3")
    g.sheets[0].coins = 1
    refused(g, "buy", "T4.3")


def test_T4_4_a_round_ends_only_when_every_die_is_used() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    err = refused(g, "end", "T4.4")
    assert "slot 2" in str(err)
    assert "end" not in legal_texts(g)


def test_T4_4_discard_only_a_die_with_no_legal_use() -> None:
    g = game()
    refused(g, "1:discard", "T4.4")
    # White-box: one tile over every free square, every border and block edge walled
    # except the entrances and room openings: no placement, no Wand or Shovel use.
    s = g.sheets[0]
    m = s.map
    s.covered = m.free
    s.inner = m.grid.edges_of(m.free) & ~m.border_block
    s.walls = m.border_block & ~m.connectable
    dice(g, 1, 1)
    assert legal_texts(g) == {"1:discard"}
    act(g, "1:discard")
    assert legal_texts(g) == {"2:discard"}


def test_T2_3_first_placement_marks_the_shape() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    assert g.sheets[0].marks == 1 << 8


def test_T2_4_a_completed_row_pays_the_opposite_face_once() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")
    s = g.sheets[0]
    assert s.row[2] == Die(2, "bonus")
    assert s.rows_paid == 1 << 4


def test_T2_4_a_completed_column_pays_a_key_once() -> None:
    g = game()
    s = g.sheets[0]
    s.marks = sum(1 << (2 * r) for r in range(4)) | 1 << 10  # 1a..4a and 6a marked
    dice(g, 5)
    act(g, "1:5a.r0@J1")
    s = g.sheets[0]
    assert s.cols_paid == 1 and s.keys == 1


def test_T2_5_bonus_die_goes_to_the_next_round_when_the_row_is_full() -> None:
    g = game()
    g.sheets[0].coins = 6
    act(g, "buy1")
    act(g, "buy1")  # row full: 5 5 1 1
    act(g, "1:5a.r0@J1")
    events = act(g, "2:5b.r3@J4")  # row 5 complete: bonus 2
    assert any("round 2" in e for e in events)
    assert g.sheets[0].next_bonus == (2,)


def test_T2_5_bonus_die_with_no_slot_is_lost_and_the_game_says_so() -> None:
    g = game()
    s = g.sheets[0]
    s.next_bonus = (3, 4)  # next round's row already holds two carried dice
    dice(g, 5, 5, 1, 1)
    act(g, "1:5a.r0@J1")
    events = act(g, "2:5b.r3@J4")
    assert any("lost" in e and "T2.5" in e for e in events)
    assert g.sheets[0].next_bonus == (3, 4)


def test_T2_5_carried_bonus_dice_are_written_first_in_the_next_row() -> None:
    g = game()
    g.sheets[0].next_bonus = (2,)
    dice(g, 1)
    g.sheets[0].row = (Die(1, "roll", True),)
    act(g, "end")
    assert [(d.value, d.source) for d in g.sheets[0].row] == [
        (2, "bonus"), *((v, "roll") for v in round_dice(g.seed, 2))]


def test_T4_5_after_round_20_only_items_and_keys_then_end() -> None:
    g = game()
    for _ in range(20):
        use_all_dice(g)
    s = g.sheets[0]
    assert s.phase == AFTER and s.row == () and g.round == 20
    assert not g.is_over
    refused(g, "buy1", "T4.5")
    refused(g, "1:up", "T4.5")
    assert "end" in legal_texts(g)
    act(g, "end")
    assert g.sheets[0].phase == DONE and g.is_over
    refused(g, "end", "T4.5")


def _buy_twice_each(g: TombGame) -> None:
    for p in range(len(g.sheets)):
        g.sheets[p].coins = 4
        act(g, "buy", p)
        act(g, "buy", p)


def test_T4_6_same_seed_same_round_dice_and_each_seat_its_own_bought_dice() -> None:
    """T4.6: one seed, the same round dice for everyone; a bought die comes from the buying
    seat's own stream (seed, seat, k), so another player's purchase tells nobody their own."""
    assert [round_dice(11, r) for r in range(1, 21)] == [round_dice(11, r) for r in range(1, 21)]
    g = TombGame(11, 3)
    _buy_twice_each(g)
    bought = [[d.value for d in g.sheets[p].row[2:]] for p in range(3)]
    assert all(g.sheets[p].row[:2] == g.sheets[0].row[:2] for p in range(3))
    assert bought == [[bought_die(11, p, 0), bought_die(11, p, 1)] for p in range(3)]
    # The streams differ: over many seeds, the seats' first bought dice are not one stream.
    assert any(bought_die(seed, 0, 0) != bought_die(seed, 1, 0) for seed in range(20))
    assert any(bought_die(seed, 1, 0) != bought_die(seed, 2, 0) for seed in range(20))


def test_T4_6_solo_games_on_one_seed_keep_their_bought_dice() -> None:
    """Seat 0's stream is the one every seat shared before: a solo game (a daily challenge)
    on one seed buys the same k-th die as it always did."""
    assert [bought_die(11, 0, k) for k in range(10)] == [draw(11, "buy", k) for k in range(10)]
    g = TombGame(11, 1)
    _buy_twice_each(g)
    assert [d.value for d in g.sheets[0].row[2:]] == [draw(11, "buy", 0), draw(11, "buy", 1)]


def test_T4_6_games_under_the_old_rule_still_share_the_bought_dice() -> None:
    """Records of version 1 were played with one bought-die stream for every seat."""
    g = TombGame(11, 2, shared_buys=True)
    _buy_twice_each(g)
    assert [d.value for d in g.sheets[1].row[2:]] == [bought_die(11, 0, 0), bought_die(11, 0, 1)]


def test_undo_goes_back_to_the_last_random_event() -> None:
    g = game()
    start = state(g)
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")
    g.undo(0)
    g.undo(0)
    assert state(g) == start
    with pytest.raises(IllegalActionError):
        g.undo(0)
    act(g, "1:5a.r0@J1")
    g.sheets[0].coins = 2
    act(g, "buy")  # a random event: nothing before it can be undone
    assert not g.can_undo(0)


def test_undo_depth_counts_what_undo_can_take_back() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")
    assert g.undo_depth(0) == 2
    g.undo(0)
    assert g.undo_depth(0) == 1
    g.sheets[0].coins = 2
    act(g, "buy")
    assert g.undo_depth(0) == 0 and not g.can_undo(0)


def test_T4_3_a_bought_die_weighed_face_by_face_on_copies() -> None:
    """What the strong bot asks before buying: the game with each face bought, on a copy."""
    g = game()
    g.sheets[0].coins = 3
    before = state(g)
    for face in range(1, 7):
        hypo = g.with_bought_die(0, face)
        s = hypo.sheets[0]
        assert s.row[-1] == Die(face, "buy") and s.coins == 1 and len(s.row) == 3
    assert state(g) == before
    g.sheets[0].coins = 1
    with pytest.raises(IllegalActionError):
        g.with_bought_die(0, 4)


def test_undo_of_an_end_while_others_still_play() -> None:
    g = TombGame(FIVE_FIVE_SEED, 2)
    use_all_dice(g, 0)
    assert g.sheets[0].phase == WAITING
    g.undo(0)
    assert g.sheets[0].phase == PLAY
    assert g.round == 1


def test_T4_2_actions_that_take_no_die_refuse_one_on_the_api_path() -> None:
    g = game()
    s = g.sheets[0]
    s.coins, s.sarc_found, s.keys_gained = 5, 1, 1
    for action in (Action("buy", (1,)), Action("open", (1,)), Action("choose", (1,), value=3),
                   Action("end", (1,)), Action("erase", (1,), edge=-1),
                   Action("defeat", (1,), "ooze", colour="red"), Action("place", (1,), "dig", "r0", 5)):
        before = state(g)
        with pytest.raises(IllegalActionError):
            g.apply(0, action)
        assert state(g) == before


def test_the_final_end_cannot_be_undone() -> None:
    g = game()
    for _ in range(20):
        use_all_dice(g)
    act(g, "end")
    assert g.is_over and not g.can_undo(0)


def test_T4_6_every_roll_is_a_recorded_chance_event() -> None:
    """The rounds' dice are for everybody and a bought die for its buyer alone (T4.6):
    the game logs each as a chance event, with the dice the seed gave. (The round is
    ended with ``push``, dice unspent: only the log is under test.)"""
    from mummy.core.protocol import EVERYONE, Chance

    g = game(players=2)
    assert g.chances == [Chance(EVERYONE, "round 1", round_dice(g.seed, 1))]
    g.sheets[1].coins = 2
    act(g, "buy", player=1)
    assert g.chances[-1] == Chance(1, "buy", (bought_die(g.seed, 1, 0),))
    for seat in (0, 1):
        while seat in g.to_act():
            g.push(seat, Action(END))
    assert g.chances[-1] == Chance(EVERYONE, "round 2", round_dice(g.seed, 2))


def test_T4_2_T4_5_everyone_still_in_the_round_acts_at_once() -> None:
    """to_act: every player who has not ended the round (T4.2); after round 20 every
    player who has not taken their last turn (T4.5); nobody once the game is over.
    (The rounds are ended with ``push``, dice unspent: only the round flow is under test.)"""
    g = game(players=3)
    assert g.to_act() == [0, 1, 2]
    g.push(1, Action(END))
    assert g.to_act() == [0, 2] and g.legal_actions(1) == []
    for _ in range(20):
        for seat in list(g.to_act()):
            g.push(seat, Action(END))
    assert all(s.phase == AFTER for s in g.sheets) and g.to_act() == [0, 1, 2]
    for seat in (0, 1, 2):
        g.push(seat, Action(END))
    assert g.is_over and g.to_act() == []
