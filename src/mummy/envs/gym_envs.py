"""Gymnasium environments: the solo Tomb and solo Treasure, one engine game per episode.

``gymnasium.make("mummy/TombSolo-v0", map="map1")`` and ``"mummy/TreasureSolo-v0"``
(registered by ``import mummy.envs``). Each episode is one engine game, and a game is its
seed plus its actions: ``reset(seed=99)`` plays the game of seed 99 (the rulebook's
example seed), ``reset()`` draws the next game seed from the environment's generator, and
:meth:`record` gives the engine's JSON record, which ``replay_record`` replays to the same
final state.

**The mask** is ``info["action_mask"]`` after every ``reset`` and ``step``, and
:meth:`action_masks` (what sb3-contrib's ``MaskablePPO`` asks for). Its ones are exactly
the integers of the engine's legal list.

**An integer outside the mask** (Gymnasium's checker steps with unmasked samples) is
refused: nothing changes, the reward is 0, the episode goes on, and
``info["illegal_action"]`` is ``True``. So an unmasked agent learns nothing false about
the game, and no random integer can end an episode early.

**Rewards.** The Tomb: the change of the score (T7, computed live as "if the game ended
now"), counted from 0, so the first action also carries the fresh sheet's −36 and a whole
episode's rewards sum to the final score. Treasure solo: −1 for each turn started
(R4.3 scores a full site by its turns); a game that ends with the site unfilled (R4.2,
or truncated after ``max_turns`` turns) also costs one per uncovered square, so that
stopping early never pays.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mummy.envs import treasure_codec as tc
from mummy.envs.tomb_codec import tomb_codec
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score
from mummy.treasure.actions import ROLL
from mummy.treasure.game import Seat, TreasureGame

Obs = dict[str, Any]  # {"planes": float32 C×H×W, "vector": float32}
SEED_BOUND = 2**63 - 1


def _game_seed(env: gym.Env[Any, Any], seed: int | None, options: dict[str, Any] | None) -> int:
    """The engine seed of the next episode: ``options["game_seed"]``, else the seed given
    to ``reset``, else the next draw of the environment's own generator."""
    if options and options.get("game_seed") is not None:
        return int(options["game_seed"])
    if seed is not None:
        return int(seed)
    return int(env.np_random.integers(0, SEED_BOUND))


class _Masked:
    """What both solo environments answer about the legal integers of the state they hold
    (``_legal`` in the engine's order and ``_mask``, set by each ``reset`` and ``step``)."""

    _legal: list[int]
    _mask: np.ndarray

    def action_masks(self) -> np.ndarray:
        """The legal integers as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal integers, in the engine's order."""
        return list(self._legal)


class TombSoloEnv(_Masked, gym.Env[Obs, np.int64]):
    """The Mummy's Tomb for one player (T8): 20 rounds, then the after phase, then the end."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(self, map: str = "map1", mode: str = "standard",
                 render_mode: str | None = None) -> None:
        self.map_id = map
        self.mode = mode
        self.render_mode = render_mode
        self.codec = tomb_codec(map)
        c = self.codec
        self.action_space = spaces.Discrete(c.n_actions)
        self.observation_space = spaces.Dict({
            "planes": spaces.Box(0.0, 1.0, c.planes_shape, dtype=np.float32),
            "vector": spaces.Box(-10.0, 10.0, (c.vector_size,), dtype=np.float32),
        })
        self.game = TombGame(0, [PlayerSetup("agent", map, mode)])
        self.game_seed = 0
        self._legal: list[int] = []
        self._mask = np.zeros(c.n_actions, dtype=np.int8)
        self._score = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self.game_seed = _game_seed(self, seed, options)
        self.game = TombGame(self.game_seed, [PlayerSetup("agent", self.map_id, self.mode)])
        self._score = 0
        obs, total = self._observe()
        return obs, self._info(total, illegal=False)

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        i = int(action)
        game = self.game
        legal = 0 <= i < self.codec.n_actions and bool(self._mask[i]) and not game.is_over
        if legal:
            decoded = self.codec.decode(i, game.sheets[0])
            assert decoded is not None  # a legal integer always names an action
            game.push(0, decoded, keep_undo=False)
        obs, total = self._observe()
        reward = 0.0
        if legal:  # the score moves only with an action, and the first carries the fresh sheet's
            reward = float(total - self._score)
            self._score = total
        return obs, reward, game.is_over, False, self._info(total, illegal=not legal)

    def _observe(self) -> tuple[Obs, int]:
        game = self.game
        sheet = game.sheets[0]
        sc = score(sheet)
        self._legal = self.codec.legal(game, 0)
        self._mask = self.codec.mask(self._legal)
        obs = {"planes": self.codec.planes(sheet), "vector": self.codec.vector(game, 0, sc=sc)}
        return obs, sc.total

    def _info(self, total: int, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self._mask, "illegal_action": illegal, "score": total,
                "round": self.game.round, "game_seed": self.game_seed}

    def record(self) -> dict[str, Any]:
        """The engine's JSON record of the episode so far (``mummy.tomb.record``)."""
        from mummy.tomb.record import to_record
        return to_record(self.game)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from mummy.render.tomb_text import render_sheet
        return render_sheet(self.game, 0)


class TreasureSoloEnv(_Masked, gym.Env[Obs, np.int64]):
    """Mummy's Treasure alone (R4.3): fill the site in as few turns as possible."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(self, site: str = "oasis", movable: bool = False, max_turns: int = tc.MAX_TURNS,
                 render_mode: str | None = None) -> None:
        self.site = site
        self.movable = movable
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.observer = tc.TreasureObserver(1, max_turns)
        o = self.observer
        self.action_space = spaces.Discrete(tc.N_ACTIONS)
        self.observation_space = spaces.Dict({
            "planes": spaces.Box(0.0, 1.0, o.planes_shape, dtype=np.float32),
            "vector": spaces.Box(0.0, 1.0, (o.vector_size,), dtype=np.float32),
        })
        self.game = TreasureGame(0, [Seat("agent", site)], movable=movable)
        self.game_seed = 0
        self.truncated = False
        self._legal: list[int] = []
        self._mask = np.zeros(tc.N_ACTIONS, dtype=np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self.game_seed = _game_seed(self, seed, options)
        self.game = TreasureGame(self.game_seed, [Seat("agent", self.site)], movable=self.movable)
        self.truncated = False
        return self._observe(), self._info(illegal=False)

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        i = int(action)
        game = self.game
        done = game.is_over or self.truncated
        legal = 0 <= i < tc.N_ACTIONS and bool(self._mask[i]) and not done
        reward = 0.0
        if legal:
            decoded = tc.decode(i, game, 0)
            assert decoded is not None
            game.push(0, decoded, keep_undo=False)
            if decoded.kind == ROLL:
                reward -= 1.0
            st = game.state
            if not st.over and st.rolls == 0 and st.turns[0] >= self.max_turns:
                self.truncated = True
            if st.over or self.truncated:
                reward -= float(game.free_squares(0))
        obs = self._observe()
        return obs, reward, game.is_over, self.truncated, self._info(illegal=not legal)

    def _observe(self) -> Obs:
        game = self.game
        self._legal = [] if self.truncated else tc.legal(game, 0)
        self._mask = tc.mask(self._legal)
        return {"planes": self.observer.planes(game, 0), "vector": self.observer.vector(game, 0)}

    def _info(self, illegal: bool) -> dict[str, Any]:
        st = self.game.state
        return {"action_mask": self._mask, "illegal_action": illegal, "turns": st.turns[0],
                "covered": st.covered[0].bit_count(), "game_seed": self.game_seed}

    def record(self) -> dict[str, Any]:
        from mummy.treasure.record import to_record
        return to_record(self.game)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from mummy.render.treasure_text import render_game
        return render_game(self.game)


__all__ = ["TombSoloEnv", "TreasureSoloEnv"]
