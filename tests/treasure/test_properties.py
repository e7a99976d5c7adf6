"""Treasure engine invariants over random seeds and random legal play."""

from __future__ import annotations

import contextlib
import random

import pytest

pytest.importorskip("hypothesis", reason="the property tests need Hypothesis (the dev extra)")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mummy.core.errors import IllegalActionError, InvalidActionError
from mummy.treasure.actions import Action, fmt, from_json, parse, to_json
from mummy.treasure.game import ROLLS, Seat, TreasureGame
from mummy.treasure.record import replay_record, to_record

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SITES = ["oasis", "valley", "temple", "pyramid"]


def new_game(seed: int, players: int, movable: bool) -> TreasureGame:
    return TreasureGame(seed, [Seat(f"p{i}", SITES[i]) for i in range(players)], movable=movable)


def random_action(rng: random.Random, g: TreasureGame) -> Action:
    kind = rng.choice(["roll", "reroll", "take", "take", "pass"])
    if kind == "reroll":
        return Action(kind, dice="".join(sorted(rng.choices("SAEPCJ", k=rng.randint(1, 5)),
                                                key="SAEPCJ".index)))
    if kind == "take":
        grid = g.grid(g.state.current)
        square = grid.square(rng.randrange(grid.width), rng.randrange(grid.height))
        return Action(kind, pile=rng.choice(g.pile_names), square=square, orient=rng.choice("hv"))
    return Action(kind)


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(1, 4), movable=st.booleans(),
       play=st.integers(0, 2**32))
def test_random_legal_play_always_ends(seed: int, players: int, movable: bool, play: int) -> None:
    rng = random.Random(play)
    g = new_game(seed, players, movable)
    steps = 0
    while not g.is_over:
        seat = g.state.current
        legal = g.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        assert all(not g.legal_actions(o) for o in range(players) if o != seat)
        g.apply(seat, rng.choice(legal))
        assert 0 <= g.state.rolls <= ROLLS
        steps += 1
        assert steps < 20_000
    assert g.state.reason in ("full", "stuck")
    for i, board in enumerate(g.boards):
        assert g.state.covered[i] & ~board.squares == 0
        areas = sum(g.tiles[p.tile].area for p in g.state.placed[i])
        assert areas == g.state.covered[i].bit_count()  # tiles never overlap


@SETTINGS
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 120), play=st.integers(0, 2**32))
def test_refused_actions_change_nothing_and_legal_ones_apply(seed: int, steps: int, play: int) -> None:
    rng = random.Random(play)
    g = new_game(seed, 2, rng.random() < 0.3)
    for _ in range(steps):
        if g.is_over:
            return
        g.push(g.state.current, rng.choice(g.legal_actions(g.state.current)))
    if g.is_over:
        return
    seat = g.state.current
    legal = set(g.legal_actions(seat))
    for action in legal:
        assert g.is_legal(seat, action)
    for _ in range(30):
        action = random_action(rng, g)
        before = (g.state, list(g.history))
        try:
            g.check(seat, action)
        except IllegalActionError as exc:
            assert exc.rule
            assert action not in legal
            with contextlib.suppress(IllegalActionError):
                g.apply(seat, action)
            assert (g.state, g.history) == before
            continue
        assert action in legal or action._replace(orient="h") in legal


@SETTINGS
@given(seed=st.integers(0, 10**9), players=st.integers(1, 4), movable=st.booleans(),
       play=st.integers(0, 2**32))
def test_notation_json_and_replay_round_trip(seed: int, players: int, movable: bool, play: int) -> None:
    rng = random.Random(play)
    g = new_game(seed, players, movable)
    while not g.is_over:
        seat = g.state.current
        legal = g.legal_actions(seat)
        grid = g.grid(seat)
        for a in legal:
            assert parse(fmt(a, grid), grid) == a
            assert from_json(to_json(a, grid), grid) == a
        g.apply(seat, rng.choice(legal))
        if rng.random() < 0.05 and g.can_undo():
            g.undo()
    result = replay_record(to_record(g))
    assert result.ok, result.error
    assert result.game.state == g.state


@SETTINGS
@given(text=st.text(max_size=25))
def test_arbitrary_text_never_crashes(text: str) -> None:
    g = new_game(1, 2, False)
    try:
        action = parse(text, g.grid(0))
    except InvalidActionError:
        return
    with contextlib.suppress(IllegalActionError):
        g.apply(0, action)
