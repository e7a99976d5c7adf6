"""Bots by name, per game: ``make_agent("tomb", "strong", seed=3)``."""

from __future__ import annotations

from typing import Any, Final

from mummy.bots.tomb import GreedyTombAgent, RandomTombAgent, StrongTombAgent
from mummy.bots.treasure import GreedyTreasureAgent, RandomTreasureAgent, StrongTreasureAgent

AGENTS: Final[dict[str, dict[str, Any]]] = {
    "tomb": {"random": RandomTombAgent, "greedy": GreedyTombAgent, "strong": StrongTombAgent},
    "treasure": {"random": RandomTreasureAgent, "greedy": GreedyTreasureAgent, "strong": StrongTreasureAgent},
}


def bot_names(game: str) -> list[str]:
    return list(AGENTS[game])


def make_agent(game: str, name: str, seed: int = 0) -> Any:
    """A seeded bot for ``game`` ("tomb" or "treasure") by name (random, greedy, strong)."""
    if game not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(AGENTS)}")
    if name not in AGENTS[game]:
        raise ValueError(f"unknown bot {name!r} for {game}; bots: {', '.join(AGENTS[game])}")
    return AGENTS[game][name](seed)
