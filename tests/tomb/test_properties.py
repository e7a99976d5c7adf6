"""Engine invariants checked with Hypothesis over random seeds and random legal play."""

from __future__ import annotations

import contextlib
import random

import pytest

pytest.importorskip("hypothesis", reason="the property tests need Hypothesis (the dev extra)")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mummy.core.errors import IllegalActionError, InvalidActionError
from mummy.core.grid import iter_bits
from mummy.tomb.actions import KINDS, MONSTER_DIE, Action, fmt, from_json, parse, to_json
from mummy.tomb.board import DIG_VARIANTS
from mummy.tomb.content import COLOURS, TABLE_SHAPES, map_ids
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import replay_record, to_record
from mummy.tomb.scoring import score
from mummy.tomb.sheet import MODES, Sheet
from tests.helpers import sheet_state, state

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

setups = st.lists(
    st.builds(PlayerSetup, st.just("p"), st.sampled_from(map_ids()), st.sampled_from(list(MODES))),
    min_size=1, max_size=3,
)


def active(g: TombGame) -> int:
    return g.to_act()[0]


def connected(sheet: Sheet) -> bool:
    """The covered squares form one dungeon: reachable through edges without walls."""
    g = sheet.map.grid
    covered = sheet.covered
    if not covered:
        return True
    start = (covered & -covered).bit_length() - 1
    seen, todo = {start}, [start]
    while todo:
        sq = todo.pop()
        x, y = g.xy(sq)
        for side, (dx, dy) in (("N", (0, -1)), ("S", (0, 1)), ("W", (-1, 0)), ("E", (1, 0))):
            if not g.on_grid(x + dx, y + dy):
                continue
            nb = g.square(x + dx, y + dy)
            if covered >> nb & 1 and nb not in seen and not sheet.walls >> g.edge(sq, side) & 1:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == covered.bit_count()


def canonical(sheet: Sheet, action: Action) -> Action:
    """The listed form of an accepted action: the canonical orientation name (T2.2), and
    equal dice collapsed to the lowest slot(s)."""
    if action.kind in ("place", "dig"):
        action = action._replace(orient=sheet.map.canonical_orient(action.shape or "dig", action.orient))
    if not action.dice:
        return action
    unused = [i + 1 for i, d in enumerate(sheet.row) if not d.used]
    values = sorted(sheet.row[d - 1].value for d in action.dice)
    if len(action.dice) == 1:
        slot = next(s for s in unused if sheet.row[s - 1].value == values[0])
        return action._replace(dice=(slot,))
    for i, a in enumerate(unused):
        for b in unused[i + 1:]:
            if sorted((sheet.row[a - 1].value, sheet.row[b - 1].value)) == values:
                return action._replace(dice=(a, b))
    raise AssertionError("unreachable")


def random_action(rng: random.Random, sheet: Sheet) -> Action:
    """Any well-formed action, legal or not."""
    g = sheet.map.grid
    kind = rng.choice(KINDS)
    slots = tuple(rng.sample(range(1, 5), 2 if rng.random() < 0.2 else 1))
    square = rng.randrange(g.width) + g.stride * rng.randrange(g.height)
    edge = g.edge(square, rng.choice("NESW"))
    if kind == "place":
        shape = rng.choice([*TABLE_SHAPES, "room"])
        orient = rng.choice(["r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3"])
        return Action(kind, slots, shape, orient, square)
    if kind == "dig":
        item = rng.choice(["", "shovel"])
        dice = () if item else slots[:1]
        return Action(kind, dice, orient=rng.choice(DIG_VARIANTS), square=square, item=item)
    if kind in ("erase", "add"):
        item = rng.choice(["", "wand"])
        return Action(kind, () if item else slots[:1], edge=edge, item=item)
    if kind == "defeat":
        monster = rng.choice(list(MONSTER_DIE))
        helper = {"ooze": "hammer", "mimic": "skey"}.get(monster, "") if rng.random() < 0.3 else ""
        colour = rng.choice(COLOURS) if monster == "golem" else ""
        return Action(kind, slots[:1], monster, colour=colour, item=helper)
    if kind == "open":
        return Action(kind, item=rng.choice(["", "skey"]))
    if kind in ("up", "down", "discard"):
        return Action(kind, slots[:1])
    if kind == "choose":
        return Action(kind, value=rng.randint(1, 6))
    return Action(kind)


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), players=setups, play=st.integers(0, 2**32))
def test_random_legal_play_always_ends_with_a_valid_score(seed: int, players: list[PlayerSetup],
                                                          play: int) -> None:
    rng = random.Random(play)  # a whole game draws too much for Hypothesis to shrink
    g = TombGame(seed, players)
    steps = 0
    while not g.is_over:
        p = active(g)
        legal = g.legal_actions(p)
        assert legal, "an active player always has a legal action"
        assert len(set(legal)) == len(legal), "no duplicates"
        for action in rng.sample(legal, min(5, len(legal))):
            assert g.is_legal(p, action), fmt(action, g.maps[p].grid)
        g.apply(p, rng.choice(legal))
        assert connected(g.sheets[p])
        steps += 1
        assert steps < 5000
    for s in g.sheets:
        sc = score(s)
        assert sc.total == sum(sc.lines.values())
        assert sc.lines["penalties"] <= 0 and sc.lines["leftovers"] >= 0
        assert 0 <= s.coins <= s.coins_gained <= s.map.spec.coin_track
        assert 0 <= s.keys <= s.keys_gained <= s.map.spec.key_track
        assert s.alerts <= 18 and len(s.hits) <= 6


@SETTINGS
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 80), play=st.integers(0, 2**32))
def test_refused_actions_change_nothing_and_accepted_ones_are_listed(seed: int, steps: int,
                                                                     play: int) -> None:
    rng = random.Random(play)
    g = TombGame(seed, 1)
    for _ in range(steps):
        if g.is_over:
            break
        g.push(0, rng.choice(g.legal_actions(0)))
    if g.is_over:
        return
    legal = set(g.legal_actions(0))
    for _ in range(40):
        action = random_action(rng, g.sheets[0])
        before = state(g)
        try:
            g.check(0, action)
        except IllegalActionError as exc:
            assert exc.rule  # every refusal names a rule
            with contextlib.suppress(IllegalActionError):
                g.apply(0, action)
            assert state(g) == before
            assert action not in legal
            continue
        assert canonical(g.sheets[0], action) in legal, fmt(action, g.maps[0].grid)


@SETTINGS
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 100), play=st.integers(0, 2**32))
def test_every_legal_action_round_trips_through_notation_and_json(seed: int, steps: int,
                                                                  play: int) -> None:
    rng = random.Random(play)
    g = TombGame(seed, [PlayerSetup("p", rng.choice(map_ids()))])
    grid = g.maps[0].grid
    for _ in range(steps):
        if g.is_over:
            return
        g.push(0, rng.choice(g.legal_actions(0)))
    for action in g.legal_actions(0):
        assert parse(fmt(action, grid), grid) == action
        assert from_json(to_json(action, grid), grid) == action


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), players=setups, play=st.integers(0, 2**32))
def test_a_replay_reproduces_the_final_state(seed: int, players: list[PlayerSetup], play: int) -> None:
    rng = random.Random(play)
    g = TombGame(seed, players)
    while not g.is_over:
        p = active(g)
        g.apply(p, rng.choice(g.legal_actions(p)))
        if rng.random() < 0.05 and g.can_undo(p):
            g.undo(p)
    result = replay_record(to_record(g))
    assert result.ok, result.error
    assert [sheet_state(s) for s in result.game.sheets] == [sheet_state(s) for s in g.sheets]


@SETTINGS
@given(text=st.text(max_size=30))
def test_arbitrary_text_never_crashes_the_parser(text: str) -> None:
    g = TombGame(1, 1)
    try:
        action = parse(text, g.maps[0].grid)
    except InvalidActionError:
        return
    with contextlib.suppress(IllegalActionError):
        g.apply(0, action)


def test_connected_helper_detects_a_split() -> None:
    g = TombGame(1, 1)
    s = g.sheets[0]
    grid = s.map.grid
    s.covered = (1 << grid.parse_square("A1")) | (1 << grid.parse_square("C1"))
    assert not connected(s)
    assert list(iter_bits(s.covered))
