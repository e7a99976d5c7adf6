"""Train MaskablePPO (sb3-contrib) on the solo Tomb, on one CPU, and compare it with the bots.

    pip install -e '.[research,examples]'
    python examples/train_tomb_maskable_ppo.py --timesteps 200000

What it shows: ``mummy/TombSolo-v0`` is a plain Gymnasium environment with a legal-action
mask (``action_masks()``), which is all MaskablePPO needs; a short run on one core
learns to score well above the random bot. The script trains on game seeds drawn from
its ``--seed``, then plays ``--eval-games`` games on seeds it never trained on
(1,000,000 and up) with the trained policy (deterministic, masked) and with the random
and greedy bots on the very same seeds, prints the figures as JSON, and draws the
learning curve (the score of each training game, its running mean, and the bots' means)
to ``--plot``. docs/research.md quotes a run of it.

This is an example, not a test: it takes minutes, and its figures depend on the
library versions and the machine (PPO on CPU is not bit-for-bit reproducible across
torch builds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import mummy.envs  # noqa: F401 - registers mummy/TombSolo-v0
from mummy.bots.registry import make_agent
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score

EVAL_SEEDS = 1_000_000  # evaluation seeds start here; training seeds are drawn below 2**31


def bot_scores(bot: str, seeds: list[int], map_id: str) -> list[int]:
    out = []
    for seed in seeds:
        game = TombGame(seed, [PlayerSetup(bot, map_id)])
        agent = make_agent("tomb", bot, seed)
        while not game.is_over:
            game.apply(0, agent.act(game, 0))
        out.append(score(game.sheets[0]).total)
    return out


def policy_scores(model: MaskablePPO, seeds: list[int], map_id: str) -> list[int]:
    env = gym.make("mummy/TombSolo-v0", map=map_id).unwrapped
    out = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        out.append(int(info["score"]))
    return out


class Curve(BaseCallback):
    """Each finished training game: the environment steps so far and its final score (the
    rewards of a Tomb episode sum to its final score)."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[int] = []
        self.scores: list[float] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:
                self.steps.append(self.num_timesteps)
                self.scores.append(float(info["episode"]["r"]))
        return True


def plot(curve: Curve, figures: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rewards = np.array(curve.scores)
    steps = np.array(curve.steps)
    window = max(1, min(100, len(rewards) // 10))
    running = np.convolve(rewards, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    ax.plot(steps, rewards, ".", ms=2, alpha=0.25, color="#0072B2", label="training game (its final score)")
    ax.plot(steps[window - 1:], running, color="#0072B2", lw=2, label=f"running mean of {window} games")
    ax.axhline(figures["random_mean"], color="#D55E00", ls="--", label=f"random bot: {figures['random_mean']:.1f}")
    ax.axhline(figures["greedy_mean"], color="#009E73", ls=":", label=f"greedy bot: {figures['greedy_mean']:.1f}")
    ax.axhline(figures["ppo_mean"], color="#000000", ls="-.", lw=1,
               label=f"trained policy, {figures['eval_games']} new seeds: {figures['ppo_mean']:.1f}")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("final score (T7)")
    ax.set_title(f"MaskablePPO on mummy/TombSolo-v0 ({figures['map']}), one CPU, "
                 f"{figures['minutes']:.0f} min")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--map", default="map1")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together in this process")
    parser.add_argument("--plot", type=Path, default=Path("docs/research-tomb-ppo.png"))
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here (.zip)")
    args = parser.parse_args()

    torch.set_num_threads(1)  # one CPU, as the figures say
    # 14,286 logits per step: the distribution's argument checks cost more than they catch.
    torch.distributions.Distribution.set_default_validate_args(False)
    # Environments in this one process (batched forward passes); environment i starts on game
    # seed SEED + i and then draws each next game's seed from its own generator.
    venv = make_vec_env("mummy/TombSolo-v0", n_envs=args.envs, seed=args.seed, env_kwargs={"map": args.map})
    model = MaskablePPO("MultiInputPolicy", venv, seed=args.seed, n_steps=2048 // args.envs, batch_size=256,
                        n_epochs=3, learning_rate=3e-4, gamma=0.99, ent_coef=0.005,
                        policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    curve = Curve()
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=curve)
    minutes = (time.perf_counter() - t0) / 60
    if args.save:
        model.save(args.save)

    seeds = list(range(EVAL_SEEDS, EVAL_SEEDS + args.eval_games))
    ppo = policy_scores(model, seeds, args.map)
    rnd = bot_scores("random", seeds, args.map)
    greedy = bot_scores("greedy", seeds, args.map)
    episodes = curve.scores
    figures: dict[str, Any] = {
        "map": args.map, "timesteps": args.timesteps, "minutes": round(minutes, 1),
        "training_games": len(episodes),
        "first_100_games_mean": round(statistics.mean(episodes[:100]), 1),
        "last_100_games_mean": round(statistics.mean(episodes[-100:]), 1),
        "eval_games": len(seeds), "ppo_mean": round(statistics.mean(ppo), 1),
        "random_mean": round(statistics.mean(rnd), 1), "greedy_mean": round(statistics.mean(greedy), 1),
        "ppo_beats_random": sum(p > r for p, r in zip(ppo, rnd, strict=True)),
    }
    plot(curve, figures, args.plot)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
