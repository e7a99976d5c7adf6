"""PettingZoo: Treasure as an AEC game and the Tomb as a Parallel game pass PettingZoo's
own tests unchanged; rewards add up to the engine's results; records replay."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="needs the research extra")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from mummy.envs.pz_envs import tomb_parallel_env, treasure_aec_env
from mummy.tomb.record import replay_record as replay_tomb
from mummy.tomb.scoring import score
from mummy.treasure.record import replay_record as replay_treasure


@pytest.mark.parametrize("players", [2, 3, 4])
def test_treasure_passes_the_aec_api_and_seed_tests(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tests warn about dict observations and zero masks
        api_test(treasure_aec_env(players=players), num_cycles=1000)
        seed_test(lambda: treasure_aec_env(players=players, movable=players == 3), num_cycles=300)


@pytest.mark.parametrize(("players", "map_id"), [(1, "map1"), (2, "map1"), (3, "map2")])
def test_tomb_passes_the_parallel_api_and_seed_tests(players: int, map_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(tomb_parallel_env(players=players, map=map_id), num_cycles=1000)
        parallel_seed_test(lambda: tomb_parallel_env(players=players, map=map_id))


def test_treasure_rewards_are_a_zero_sum_share_of_the_places() -> None:
    env = treasure_aec_env(players=3)
    env.reset(seed=11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    game = env.game
    assert game.is_over
    places = game.places()
    assert abs(sum(totals.values())) < 1e-9
    best = min(places)
    assert all(totals[a] == max(totals.values()) for a, p in zip(env.possible_agents, places, strict=True) if p == best)
    replayed = replay_treasure(env.record())
    assert replayed.error is None and replayed.game.state == game.state


def test_tomb_rewards_sum_to_each_final_score_and_the_record_replays() -> None:
    env = tomb_parallel_env(players=2)
    obs, _infos = env.reset(seed=7)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    waits = 0
    while env.agents:
        actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
        waits += sum(1 for v in actions.values() if v == env.codec.wait)
        obs, rewards, _term, _trunc, infos = env.step(actions)
        assert not any(i["illegal_action"] for i in infos.values())
        for a, r in rewards.items():
            totals[a] += r
    game = env.game
    assert game.is_over and waits > 0
    assert [totals[a] for a in env.possible_agents] == [score(s).total for s in game.sheets]
    replayed = replay_tomb(env.record())
    assert replayed.error is None and replayed.game.sheets == game.sheets


def test_a_refused_integer_changes_nothing_in_the_parallel_tomb() -> None:
    env = tomb_parallel_env(players=2)
    obs, _ = env.reset(seed=1)
    bad = int((obs["player_0"]["action_mask"] == 0).nonzero()[0][0])
    good = int(obs["player_1"]["action_mask"].nonzero()[0][0])
    _obs, rewards, _t, _tr, infos = env.step({"player_0": bad, "player_1": good})
    assert infos["player_0"]["illegal_action"] and rewards["player_0"] == 0
    assert not infos["player_1"]["illegal_action"]
    assert [p for p, _ in env.game.history] == [1]
