"""The integer encodings: every legal action round-trips through its integer and the
notation, the mask is exactly the engine's legal list, and observations hold only what a
player may see."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="mummy.envs needs the research extra")

from mummy.envs import treasure_codec as tc  # noqa: E402
from mummy.envs.tomb_codec import PLANES, tomb_codec  # noqa: E402
from mummy.tomb.actions import fmt as tomb_fmt  # noqa: E402
from mummy.tomb.actions import parse as tomb_parse  # noqa: E402
from mummy.tomb.game import TombGame  # noqa: E402
from mummy.treasure.actions import fmt as treasure_fmt  # noqa: E402
from mummy.treasure.actions import parse as treasure_parse  # noqa: E402
from mummy.treasure.game import TreasureGame  # noqa: E402

from .helpers import tomb_states, treasure_states  # noqa: E402


@pytest.mark.parametrize("map_id", ["map1", "map2", "map4"])
def test_tomb_every_legal_integer_round_trips_through_the_notation(map_id: str) -> None:
    codec = tomb_codec(map_id)
    grid = codec.grid
    checked = 0
    for game in tomb_states(map_id, range(12), every=3):
        sheet = game.sheets[0]
        legal = game.legal_actions(0)
        ints = codec.legal(game, 0)
        assert len(ints) == len(legal) == len(set(ints))
        for action, i in zip(legal, ints, strict=True):
            assert 0 <= i < codec.n_actions
            decoded = codec.decode(i, sheet)
            assert decoded == action
            text = tomb_fmt(action, grid)
            assert codec.encode(tomb_parse(text, grid), sheet) == i
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("map_id", ["map1", "map2", "map4"])
def test_tomb_mask_is_the_engines_legal_list_over_the_whole_space(map_id: str) -> None:
    """At random states, every one of the integers is checked by the engine: those it
    accepts are exactly the mask (no legal action is missing from the space)."""
    codec = tomb_codec(map_id)
    states = tomb_states(map_id, range(3), every=25)
    assert len(states) >= 6
    for game in states:
        sheet = game.sheets[0]
        mask = codec.mask(codec.legal(game, 0))
        for i in range(codec.n_actions):
            action = codec.decode(i, sheet)
            accepted = action is not None and game.is_legal(0, action)
            assert bool(mask[i]) == accepted, (i, codec.describe(i))
        assert not mask[codec.wait]


def test_tomb_wait_is_the_only_move_of_a_player_who_ended_the_round() -> None:
    codec = tomb_codec("map1")
    game = TombGame(99, 2)
    game.apply(0, tomb_parse("1:5a.r0@J1", codec.grid))
    game.apply(0, tomb_parse("2:5b.r3@J4", codec.grid))
    while not any(a.kind == "end" for a in game.legal_actions(0)):
        game.apply(0, game.legal_actions(0)[0])
    game.apply(0, tomb_parse("end", codec.grid))
    assert game.legal_actions(0) == []
    assert codec.legal(game, 0) == [codec.wait]
    assert codec.decode(codec.wait, game.sheets[0]) is None
    assert codec.wait not in codec.legal(game, 1)


def test_tomb_integers_name_dice_by_value_at_the_lowest_slot() -> None:
    codec = tomb_codec("map1")
    game = TombGame(99, 1)  # round 1 rolls 5 and 5
    sheet = game.sheets[0]
    one = codec.encode(tomb_parse("1:5a.r0@J1", codec.grid), sheet)
    two = codec.encode(tomb_parse("2:5a.r0@J1", codec.grid), sheet)
    assert one == two
    assert tomb_fmt(codec.decode(one, sheet), codec.grid) == "1:5a.r0@J1"  # type: ignore[arg-type]
    assert codec.describe(one) == "v5:5a.r0@J1"


def test_tomb_observation_shapes_and_bounds() -> None:
    codec = tomb_codec("map1")
    for game in tomb_states("map1", range(2), every=11):
        planes = codec.planes(game.sheets[0])
        vector = codec.vector(game, 0)
        assert planes.shape == (len(PLANES), 12, 12) == codec.planes_shape
        assert planes.dtype == np.float32 and vector.dtype == np.float32
        assert planes.min() >= 0 and planes.max() <= 1
        assert vector.shape == (codec.vector_size,) and np.abs(vector).max() <= 10
        covered = planes[PLANES.index("covered")]
        assert int(covered.sum()) == game.sheets[0].covered.bit_count()
        walls = planes[2:6].sum()
        assert walls > 0 or not game.sheets[0].walls


@pytest.mark.parametrize(("players", "movable"), [(1, False), (2, False), (3, True), (4, False)])
def test_treasure_every_legal_integer_round_trips_and_the_mask_is_the_legal_list(players: int,
                                                                                  movable: bool) -> None:
    checked = 0
    for game in treasure_states(players, range(4), movable=movable, every=6):
        seat = game.state.current
        grid = game.grid(seat)
        legal = game.legal_actions(seat)
        ints = tc.legal(game, seat)
        assert len(ints) == len(legal) == len(set(ints))
        for action, i in zip(legal, ints, strict=True):
            assert tc.decode(i, game, seat) == action
            assert tc.encode(treasure_parse(treasure_fmt(action, grid), grid), game, seat) == i
            checked += 1
        mask = tc.mask(ints)
        for i in range(tc.N_ACTIONS):
            # The engine accepts some actions under other names (a turned amulet is the
            # amulet, reroll:S names either S): only the integer of its canonical form is legal.
            action = tc.decode(i, game, seat)
            accepted = action is not None and game.is_legal(seat, action)
            canonical = accepted and action is not None and tc.encode(game.check(seat, action), game, seat) == i
            assert bool(mask[i]) == canonical, (i, tc.describe(i))
    assert checked > 150


def test_treasure_rerolls_are_subsets_of_dice_positions() -> None:
    assert tc.reroll_subset("SSAPJ", "S") == 0b00001
    assert tc.reroll_subset("SSAPJ", "SJ") == 0b10001
    assert tc.reroll_subset("SSAPJ", "SSAPJ") == 0b11111
    with pytest.raises(ValueError):
        tc.reroll_subset("SSAPJ", "EE")
    assert tc.describe(0b10001) == "reroll:{0,4}"
    assert tc.describe(tc.ROLL_INDEX) == "roll" and tc.describe(tc.PASS_INDEX) == "pass"


def test_treasure_observation_never_shows_a_piles_hidden_order() -> None:
    observer = tc.TreasureObserver(2)
    for game in treasure_states(2, range(3), every=9):
        shuffled = TreasureGame(game.seed, 2)
        shuffled.state = game.state
        rng = random.Random(1)
        for pile, order in game.order.items():
            i = game.state.tops[game.pile_names.index(pile)]
            below = list(order[i + 1:])
            rng.shuffle(below)
            shuffled.order[pile] = (*order[:i + 1], *below)
        for seat in range(2):
            assert np.array_equal(observer.flat(game, seat), observer.flat(shuffled, seat))


def test_treasure_observation_shapes() -> None:
    for players in (1, 4):
        observer = tc.TreasureObserver(players)
        game = TreasureGame(3, players)
        assert observer.planes(game, 0).shape == (2 * players, 6, 9) == observer.planes_shape
        flat = observer.flat(game, 0)
        assert flat.shape == (2 * players * 54 + observer.vector_size,)
        assert flat.min() >= 0 and flat.max() <= 1
