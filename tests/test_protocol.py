"""Both engines answer the protocol's questions the same way (core/protocol.py).

Each test plays games of every kind in ``KINDS`` through the protocol alone, never asking
which game it is: that is what the CLI, the simulator, the terminal and the server do.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mummy.core.errors import IllegalActionError
from mummy.core.protocol import EVERYONE, Chance, GameState
from mummy.games import KINDS, kind_of

NAMES = ["Ann", "Bob"]


def new_game(name: str, seed: int = 7) -> Any:
    kind = KINDS[name]
    return kind.new(seed, kind.validate({}, len(NAMES)), NAMES)


@pytest.fixture(params=list(KINDS))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def play_randomly(game: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_every_engine_has_the_protocol_shape_and_its_kind(name: str) -> None:
    game = new_game(name)
    assert isinstance(game, GameState)
    assert kind_of(game) is KINDS[name]
    assert game.seat_count == len(NAMES) and game.to_act()


def test_apply_and_push_return_the_action_as_recorded(name: str) -> None:
    rng = random.Random(1)
    checked, fast = new_game(name), new_game(name)
    for _ in range(40):
        if checked.is_over:
            break
        seat = checked.to_act()[0]
        action = rng.choice(checked.legal_actions(seat))
        assert checked.apply(seat, action) == fast.push(seat, action)
    assert checked.history == fast.history and checked.chances == fast.chances


def test_only_the_seats_to_act_have_legal_actions_and_others_are_refused(name: str) -> None:
    game = new_game(name)
    play_randomly(game, random.Random(2), 5)
    waiting = [s for s in range(game.seat_count) if s not in game.to_act()]
    assert waiting
    for seat in waiting:
        assert game.legal_actions(seat) == []
        with pytest.raises(IllegalActionError):
            game.check(seat, game.legal_actions(game.to_act()[0])[0])
    for seat in game.to_act():
        assert game.legal_actions(seat)


def test_undo_takes_back_the_seats_last_action_and_never_a_chance_event(name: str) -> None:
    rng = random.Random(3)
    game = new_game(name)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.to_act()[0]
        before = (list(game.history), list(game.chances))
        action = game.apply(seat, rng.choice(game.legal_actions(seat)))
        rolled = len(game.chances) > len(before[1])
        assert game.can_undo(seat) == (not rolled and not game.is_over)
        if game.can_undo(seat):
            assert game.undo(seat) == action
            assert (game.history, game.chances) == before
            game.apply(seat, action)
        else:
            with pytest.raises(IllegalActionError):
                game.undo(seat)


def test_chance_events_are_the_seeds_alone(name: str) -> None:
    """The same seed and the same actions give the same chance events, in the same order;
    each names whom it was for."""
    a, b = new_game(name, seed=11), new_game(name, seed=11)
    play_randomly(a, random.Random(4), 80)
    for seat, action in a.history:
        b.apply(seat, action)
    assert a.chances == b.chances and a.chances
    assert all(isinstance(c, Chance) and (c.seat == EVERYONE or 0 <= c.seat < a.seat_count) for c in a.chances)


def test_a_copy_is_independent_of_its_original(name: str) -> None:
    game = new_game(name)
    play_randomly(game, random.Random(5), 10)
    history, chances, returns = list(game.history), list(game.chances), list(game.returns())
    copy = game.copy()
    assert not any(copy.can_undo(seat) for seat in range(copy.seat_count))  # nothing to undo
    play_randomly(copy, random.Random(6), 200)
    assert (game.history, game.chances, list(game.returns())) == (history, chances, returns)


def test_a_game_played_to_its_end_has_returns_for_every_seat(name: str) -> None:
    game = new_game(name)
    play_randomly(game, random.Random(7), 100_000)
    assert game.is_over and game.to_act() == []
    returns = game.returns()
    assert len(returns) == game.seat_count and all(isinstance(r, float) for r in returns)
    result = KINDS[name].result(game)
    assert len(result["places"]) == game.seat_count
