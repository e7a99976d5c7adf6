"""OpenSpiel: both games registered as Python games pass OpenSpiel's own random
simulation test (serialisation included); chance is explicit and hides nothing."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the research extra")
np = pytest.importorskip("numpy")

import mummy.envs  # noqa: E402,F401 - registers the games
from mummy.envs.spiel import BUY_BASE, TILE_BASE, MummyTombState, MummyTreasureState, TreasureCore  # noqa: E402
from mummy.tomb.game import TombGame  # noqa: E402
from mummy.treasure.game import TreasureGame  # noqa: E402


def test_the_games_are_registered() -> None:
    names = pyspiel.registered_names()
    assert "mummy_tomb" in names and "mummy_treasure" in names


@pytest.mark.parametrize(("name", "params"), [
    ("mummy_tomb", {}),
    ("mummy_tomb", {"players": 2, "map": "map2", "mode": "easy"}),
    ("mummy_treasure", {"players": 1}),
    ("mummy_treasure", {"players": 2}),
    ("mummy_treasure", {"players": 4, "movable": True, "sites": "pyramid+temple+valley+oasis"}),
])
def test_openspiels_random_simulation_test_passes(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    # Serialising replays each state's history: quadratic in a long 4-seat game, so one sim.
    sims = 1 if params.get("players") == 4 else 2
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def _random_history(state: pyspiel.State, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_tomb_chance_nodes_roll_the_round_and_the_bought_dice() -> None:
    game = pyspiel.load_game("mummy_tomb")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state.apply_action(4 * 6 + 4)  # round 1 rolls 5 and 5, as on seed 99
    assert isinstance(state, MummyTombState)
    assert [d.value for d in state.core.game.sheets[0].row] == [5, 5]
    assert state.notation(state.legal_actions()[0]).startswith("1:5")
    rng = np.random.default_rng(0)
    bought = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.core.chance == "buy":
            assert [o for o, _ in state.chance_outcomes()] == list(range(BUY_BASE, BUY_BASE + 6))
            bought += 1
        _random_history(state, rng, 1)
    assert state.returns()[0] == state.core.returns()[0]
    assert bought > 0 or "buy" not in state.history_str()


def test_tomb_observations_hide_the_dice_not_yet_rolled() -> None:
    """At a chance node the engine holds placeholder dice; two states that differ only in
    them observe the same."""
    game = pyspiel.load_game("mummy_tomb")
    a, b = game.new_initial_state(), game.new_initial_state()
    from mummy.tomb.sheet import Die

    b.core.game.sheets[0].row = (Die(6, "roll"), Die(1, "roll"))
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)


def test_treasure_deals_and_draws_tiles_by_chance() -> None:
    game = pyspiel.load_game("mummy_treasure", {"players": 2})
    state = game.new_initial_state()
    assert isinstance(state, MummyTreasureState)
    for _ in range(6):  # each pile's top tile
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 8 and all(o >= TILE_BASE for o, _ in outcomes)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 0
    state.apply_action(state.legal_actions()[0])  # roll
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 252 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    rng = np.random.default_rng(1)
    _random_history(state, rng, 5000)
    assert state.is_terminal()
    returns = state.returns()
    assert abs(sum(returns)) < 1e-12 and max(returns) == 1.0


def test_a_state_serialises_as_its_history() -> None:
    for name in ("mummy_tomb", "mummy_treasure"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        _random_history(state, np.random.default_rng(2), 60)
        text = pyspiel.serialize_game_and_state(game, state)
        _game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state)
        assert state2.observation_tensor(state2.current_player() if not state2.is_chance_node() else 0) == \
            state.observation_tensor(state.current_player() if not state.is_chance_node() else 0)


def test_a_search_state_from_the_engine_knows_only_the_tops() -> None:
    """The MCTS bot copies an engine game without the piles' order below their tops:
    two engine games that differ only there give the same OpenSpiel state."""
    game = TreasureGame(4, 2)
    game.apply(0, game.legal_actions(0)[0])
    other = TreasureGame(4, 2)
    other.state = game.state
    for pile, order in game.order.items():
        other.order[pile] = (order[0], *reversed(order[1:]))
    a, b = TreasureCore.from_engine(game), TreasureCore.from_engine(other)
    assert a.game.order == b.game.order
    assert a.drawn == b.drawn and a.game.state == b.game.state


def test_a_tomb_search_state_ignores_the_seed() -> None:
    from mummy.envs.mcts import tomb_search_state

    one, two = TombGame(1, 1), TombGame(2, 1)
    two.sheets[0].row = one.sheets[0].row
    assert str(tomb_search_state(one, 0)) == str(tomb_search_state(two, 0))
