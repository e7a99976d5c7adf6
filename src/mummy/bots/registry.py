"""Bots by name, per game: ``make_agent("tomb", "strong", seed=3)``.

``mcts`` is OpenSpiel's MCTS (:mod:`mummy.envs.mcts`); it is imported only when asked
for, since it needs the ``research`` extra (``pip install 'mummy[research]'``).
"""

from __future__ import annotations

from typing import Any, Final

from mummy.bots.tomb import GreedyTombAgent, RandomTombAgent, StrongTombAgent
from mummy.bots.tomb_search import ExpertTombAgent
from mummy.bots.treasure import GreedyTreasureAgent, RandomTreasureAgent, StrongTreasureAgent
from mummy.games import KINDS


def _mcts(seed: int) -> Any:
    """OpenSpiel's MCTS, imported on first use (the ``research`` extra)."""
    try:
        from mummy.envs.mcts import MctsAgent
    except ModuleNotFoundError as exc:  # pyspiel, numpy...: the extra is missing (a bug would be another error)
        raise ValueError(f"the mcts bot needs the research extra: pip install 'mummy[research]' ({exc})") from None
    return MctsAgent(seed)


def _exact(seed: int) -> Any:
    """The exact Treasure bot (:mod:`mummy.analysis.treasure`): it plays the review's
    values, the fewest expected turns to fill its site. Imported on first use, since the
    analysis package builds on this registry."""
    from mummy.analysis.treasure import ValueTreasureAgent

    return ValueTreasureAgent(seed)


def _seated(planner: type[StrongTombAgent | ExpertTombAgent]) -> Any:
    """A planning bot in a seat of its own: after a restart it rebuilds its plan from its
    seat's moves (``resume``, :class:`~mummy.bots.tomb.Planner`)."""
    return lambda seed: planner(seed, resume=True)


AGENTS: Final[dict[str, dict[str, Any]]] = {
    "tomb": {"random": RandomTombAgent, "greedy": GreedyTombAgent, "strong": _seated(StrongTombAgent),
             "expert": _seated(ExpertTombAgent), "mcts": _mcts},
    "treasure": {"random": RandomTreasureAgent, "greedy": GreedyTreasureAgent, "strong": StrongTreasureAgent,
                 "exact": _exact, "mcts": _mcts},
}
assert set(AGENTS) == set(KINDS), "every game kind has its bots"


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game on ``game_seed``: its own for each seat
    and each game (for seeds below 2**53 and fewer than 1000 seats), and the same for
    the same game wherever it is played (terminal, simulation or server)."""
    return game_seed * 1000 + seat


#: Bots that need an optional extra of the package, and which.
NEEDS_EXTRA: Final[dict[str, str]] = {"mcts": "research"}


def bot_names(game: str) -> list[str]:
    return list(AGENTS[game])


def bots_help(game: str | None = None) -> str:
    """The bots of ``game`` (of every game when None), for a command's help text: what
    the registry lists, so that no help repeats (and forgets) a bot."""
    if game is None:
        games, listed = list(AGENTS), "; ".join(f"{g}: {', '.join(bot_names(g))}" for g in AGENTS)
    else:
        games, listed = [game], ", ".join(bot_names(game))
    extras = [f"{name} needs the {extra} extra" for name, extra in NEEDS_EXTRA.items()
              if any(name in AGENTS[g] for g in games)]
    return listed + (f" ({'; '.join(extras)})" if extras else "")


def make_agent(game: str, name: str, seed: int = 0) -> Any:
    """A seeded bot for ``game`` ("tomb" or "treasure") by name (random, greedy, strong, mcts; expert
    for tomb, exact for treasure), to play a seat: what it plays is a function of the game
    (:mod:`mummy.bots.base`), so one made anew in the middle of a game plays on as the one
    before it would have."""
    if game not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(AGENTS)}")
    if name not in AGENTS[game]:
        raise ValueError(f"unknown bot {name!r} for {game}; bots: {', '.join(AGENTS[game])}")
    return AGENTS[game][name](seed)
