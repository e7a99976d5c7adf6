"""Gymnasium: the registered ids pass Gymnasium's own checker unchanged; an episode's
rewards sum to the engine's result; an episode and the replay of its record agree."""

from __future__ import annotations

import warnings

import pytest

gym = pytest.importorskip("gymnasium", reason="needs the research extra")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import mummy.envs  # noqa: E402,F401 - registers the ids
from mummy.tomb.record import replay_record as replay_tomb  # noqa: E402
from mummy.tomb.scoring import score  # noqa: E402
from mummy.treasure.record import replay_record as replay_treasure  # noqa: E402


@pytest.mark.parametrize(("env_id", "kwargs"), [("mummy/TombSolo-v0", {"map": "map1"}),
                                                ("mummy/TombSolo-v0", {"map": "map2", "mode": "kids"}),
                                                ("mummy/TreasureSolo-v0", {"site": "oasis"}),
                                                ("mummy/TreasureSolo-v0", {"site": "temple", "movable": True})])
def test_gymnasiums_checker_passes(env_id: str, kwargs: dict[str, object]) -> None:
    env = gym.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns that make() wraps the environment
        check_env(env)
    check_env(env.unwrapped)


def _play(env: gym.Env, seed: int) -> tuple[float, int, dict]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.unwrapped.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("map_id", ["map1", "map2", "map4", "gen-standard-3-0"])
def test_tomb_rewards_sum_to_the_final_score_and_the_record_replays(map_id: str) -> None:
    env = gym.make("mummy/TombSolo-v0", map=map_id)
    for seed in (3, 4):
        total, _steps, info = _play(env, seed)
        game = env.unwrapped.game
        assert game.is_over
        assert total == score(game.sheets[0]).total == info["score"]
        record = env.unwrapped.record()
        assert record["final"] == [int(total)] and record["seed"] == seed
        replayed = replay_tomb(record)
        assert replayed.error is None
        assert replayed.game.sheets == game.sheets and replayed.game.is_over


def test_treasure_rewards_sum_to_minus_the_turns_and_the_record_replays() -> None:
    env = gym.make("mummy/TreasureSolo-v0")
    for seed in (1, 2, 3):
        total, _steps, info = _play(env, seed)
        game = env.unwrapped.game
        st = game.state
        left = 36 - st.covered[0].bit_count()
        assert total == -(st.turns[0] + left)
        if st.reason == "full":
            assert total == -st.turns[0] == -info["turns"]
        replayed = replay_treasure(env.unwrapped.record())
        assert replayed.error is None
        assert replayed.game.state == st


def test_an_integer_outside_the_mask_changes_nothing() -> None:
    env = gym.make("mummy/TombSolo-v0").unwrapped
    obs, info = env.reset(seed=99)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    history = list(env.game.history)
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward == 0 and not terminated and not truncated
    assert env.game.history == history
    assert np.array_equal(obs["planes"], obs2["planes"]) and np.array_equal(obs["vector"], obs2["vector"])


def test_the_first_step_carries_the_fresh_sheets_score() -> None:
    env = gym.make("mummy/TombSolo-v0").unwrapped
    _obs, info = env.reset(seed=99)
    assert info["score"] == -36
    legal = env.legal_actions()
    _obs, reward, _terminated, _truncated, info = env.step(legal[0])
    assert reward == info["score"]


def test_a_game_is_its_seed_plus_its_actions() -> None:
    env = gym.make("mummy/TreasureSolo-v0").unwrapped
    _obs, info = env.reset(seed=5)
    assert info["game_seed"] == 5
    a1, _ = env.reset()
    seed1 = env.game_seed
    other = gym.make("mummy/TreasureSolo-v0").unwrapped
    other.reset(seed=5)
    b1, _ = other.reset()
    assert other.game_seed == seed1
    assert all(np.array_equal(a1[k], b1[k]) for k in a1)
    _obs, info = env.reset(options={"game_seed": 42})
    assert info["game_seed"] == 42
