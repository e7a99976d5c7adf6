"""PettingZoo environments: Treasure as an AEC game, the Tomb as a Parallel game.

* :func:`treasure_aec_env` (``players`` 2–4): turn-based, as the table plays it (R2.3):
  ``agent_selection`` is the seat whose turn it is, and every other agent's mask is all
  zeros. Rewards come at the end: each seat gains 1/(n−1) per seat it beats and loses as
  much per seat that beats it (R4 places), so they sum to zero. A game cut at
  ``max_turns`` turns a seat is truncated and ranked by squares covered, as R4.2 ranks a
  stuck game.
* :func:`tomb_parallel_env` (``players`` 1 or more): every sheet plays the same round's
  dice at the same time (T4.1, T8.1), so every live agent acts at every step. A player
  who has ended the round while others still play has one legal move, ``wait``
  (:attr:`~mummy.envs.tomb_codec.TombCodec.wait`). The reward is the change of each
  player's score, counted from 0 (so each agent's rewards sum to its final score).

Observations follow PettingZoo's classic games: ``{"observation": float32 vector,
"action_mask": int8 vector}`` (the planes flattened, then the vector: see
docs/research.md). An integer outside the mask is refused: nothing changes, the reward
is 0 and ``infos[agent]["illegal_action"]`` is ``True``. ``reset(seed=S)`` plays the game
of seed S; ``reset()`` draws the next seed from the environment's generator.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

from mummy.envs import treasure_codec as tc
from mummy.envs._bits import F32
from mummy.envs.gym_envs import SEED_BOUND
from mummy.envs.tomb_codec import tomb_codec
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame

Obs = dict[str, np.ndarray]


def _agents(n: int) -> list[str]:
    return [f"player_{i}" for i in range(n)]


def _next_seed(rng: np.random.Generator, seed: int | None) -> tuple[np.random.Generator, int]:
    """The generator and the game seed of a reset: ``seed`` itself, which also reseeds the
    generator (PettingZoo's seed tests), or the generator's next draw."""
    if seed is not None:
        return seeding.np_random(seed)[0], seed
    return rng, int(rng.integers(0, SEED_BOUND))


class SameSpaces:
    """Every agent has the same observation and action space, and PettingZoo wants the
    same object each time it asks (its conformance test compares them)."""

    _obs_space: spaces.Space[Any]
    _act_space: spaces.Space[Any]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space


class TreasureAEC(SameSpaces, AECEnv[str, Obs, int]):
    """Mummy's Treasure for 2–4 players, one seat after another."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "mummy_treasure_v0",
                                          "is_parallelizable": False, "render_fps": 2}

    def __init__(self, players: int = 2, sites: tuple[str, ...] | None = None, movable: bool = False,
                 max_turns: int = tc.MAX_TURNS, render_mode: str | None = None) -> None:
        super().__init__()
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"the AEC Treasure table seats 2 to {MAX_PLAYERS} players (R2.1); "
                             "TreasureSolo-v0 is the solo game")
        from mummy.envs.spiel import treasure_sites

        self.sites = tuple(sites) if sites else tuple(treasure_sites(players, ""))
        self.movable = movable
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.observer = tc.TreasureObserver(players, max_turns)
        self.possible_agents = _agents(players)
        self.agents = list(self.possible_agents)
        size = int(np.prod(self.observer.planes_shape)) + self.observer.vector_size
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (tc.N_ACTIONS,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(tc.N_ACTIONS)
        self._np_random, _ = seeding.np_random(None)
        self.game_seed = 0
        self.game = self._new_game(0)
        self._legal: list[int] = []

    def _new_game(self, seed: int) -> TreasureGame:
        seats = [Seat(a, s) for a, s in zip(self.possible_agents, self.sites, strict=True)]
        return TreasureGame(seed, seats, movable=self.movable)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._np_random, self.game_seed = _next_seed(self._np_random, seed)
        self.game = self._new_game(self.game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"illegal_action": False} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.state.current]
        self._legal = tc.legal(self.game, self.game.state.current)

    def observe(self, agent: str) -> Obs:
        seat = self.possible_agents.index(agent)
        mover = self.possible_agents.index(self.agent_selection)
        legal = self._legal if seat == mover and not self._finished() else []
        return {"observation": self.observer.flat(self.game, seat), "action_mask": tc.mask(legal)}

    def _finished(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        seat = game.state.current
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        if action is None or not (0 <= int(action) < tc.N_ACTIONS) or int(action) not in self._legal:
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.infos[agent] = {"illegal_action": False}
        decoded = tc.decode(int(action), game, seat)
        assert decoded is not None
        game.push(seat, decoded, keep_undo=False)
        st = game.state
        truncated = not st.over and st.rolls == 0 and st.turns[st.current] >= self.max_turns
        if st.over or truncated:
            places = game.places()
            n = len(places)
            for a, p in zip(self.possible_agents, places, strict=True):
                self.rewards[a] = (sum(1 for q in places if q > p) - sum(1 for q in places if q < p)) / (n - 1)
            done = dict.fromkeys(self.agents, True)
            if st.over:
                self.terminations = done
            else:
                self.truncations = done
            self._legal = []
        else:
            self._legal = tc.legal(game, st.current)
        self.agent_selection = self.possible_agents[st.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from mummy.render.treasure_text import render_game
        return render_game(self.game)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def record(self) -> dict[str, Any]:
        from mummy.treasure.record import to_record
        return to_record(self.game)


class TombParallel(SameSpaces, ParallelEnv[str, Obs, int]):
    """The Mummy's Tomb for several players on the same dice, all moving at once."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "mummy_tomb_v0", "render_fps": 2}

    def __init__(self, players: int = 2, map: str = "map1", mode: str = "standard",
                 render_mode: str | None = None) -> None:
        if players < 1:
            raise ValueError("a game needs at least one player (T8.1)")
        self.map_id = map
        self.mode = mode
        self.render_mode = render_mode
        self.codec = tomb_codec(map)
        c = self.codec
        self.possible_agents = _agents(players)
        self.agents = list(self.possible_agents)
        size = int(np.prod(c.planes_shape)) + c.vector_size
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-10.0, 10.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (c.n_actions,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(c.n_actions)
        self._np_random, _ = seeding.np_random(None)
        self.game_seed = 0
        self.game = self._new_game(0)
        self._legal: dict[str, list[int]] = {}
        self._scores: dict[str, int] = {}

    def _new_game(self, seed: int) -> TombGame:
        return TombGame(seed, [PlayerSetup(a, self.map_id, self.mode) for a in self.possible_agents])

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self._np_random, self.game_seed = _next_seed(self._np_random, seed)
        self.game = self._new_game(self.game_seed)
        self.agents = list(self.possible_agents)
        self._scores = dict.fromkeys(self.agents, 0)
        obs = {a: self._observe(a) for a in self.agents}
        return obs, {a: {"illegal_action": False} for a in self.agents}

    def _observe(self, agent: str) -> Obs:
        seat = self.possible_agents.index(agent)
        game = self.game
        legal = self.codec.legal(game, seat)
        self._legal[agent] = legal
        flat = np.concatenate([self.codec.planes(game.sheets[seat]).reshape(-1), self.codec.vector(game, seat)])
        return {"observation": flat, "action_mask": self.codec.mask(legal)}

    def step(self, actions: dict[str, int]) -> tuple[dict[str, Obs], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        game = self.game
        infos: dict[str, dict[str, Any]] = {}
        # Every action is judged against the masks the agents saw; a round can only move
        # on after the last of its ends, when no one else has anything left to apply.
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            action = actions.get(agent)
            legal = self._legal.get(agent, [])
            if action is None or int(action) not in legal:
                infos[agent] = {"illegal_action": action is not None or bool(legal)}
                continue
            infos[agent] = {"illegal_action": False}
            if int(action) == self.codec.wait:
                continue
            decoded = self.codec.decode(int(action), game.sheets[seat])
            assert decoded is not None
            game.push(seat, decoded, keep_undo=False)
        rewards: dict[str, float] = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.agents:
                rewards[agent] = 0.0
                if not infos[agent]["illegal_action"]:  # a refused action earns nothing
                    total = score(game.sheets[seat]).total
                    rewards[agent] = float(total - self._scores[agent])
                    self._scores[agent] = total
        live = list(self.agents)
        over = game.is_over
        obs = {a: self._observe(a) for a in live}
        terminations = {a: over for a in live}
        truncations = dict.fromkeys(live, False)
        for a in live:
            infos.setdefault(a, {"illegal_action": False})
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from mummy.render.tomb_text import render_sheet
        return "\n\n".join(render_sheet(self.game, i) for i in range(len(self.possible_agents)))

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def state(self) -> F32:
        """Every sheet's observation, one after another (a global state for centralised critics)."""
        return np.concatenate([self._observe(a)["observation"] for a in self.possible_agents])

    def record(self) -> dict[str, Any]:
        from mummy.tomb.record import to_record
        return to_record(self.game)


def treasure_aec_env(**kwargs: Any) -> TreasureAEC:
    """Mummy's Treasure for 2–4 players as a PettingZoo AEC environment."""
    return TreasureAEC(**kwargs)


def tomb_parallel_env(**kwargs: Any) -> TombParallel:
    """The Mummy's Tomb for several players as a PettingZoo Parallel environment."""
    return TombParallel(**kwargs)


__all__ = ["TombParallel", "TreasureAEC", "tomb_parallel_env", "treasure_aec_env"]
