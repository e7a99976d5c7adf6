"""Bots by name, per game: ``make_agent("tomb", "strong", seed=3)``.

Each game's registration (:mod:`mummy.games`) lists its bots, their strengths and the
factory of each; this module makes them. A bot's module is imported only when the bot is
asked for: ``mcts`` (OpenSpiel's MCTS, :mod:`mummy.envs.mcts`) needs the ``research``
extra (``pip install 'mummy[research]'``), and the exact Treasure bot builds on the
analysis (:mod:`mummy.analysis.treasure`).
"""

from __future__ import annotations

import functools
import re
from importlib import metadata
from typing import Any

from mummy.bots.tomb import StrongTombAgent
from mummy.bots.tomb_search import ExpertTombAgent
from mummy.games import game_named, games, load


def seated_strong(seed: int) -> StrongTombAgent:
    """The strong Tomb bot in a seat of its own: after a restart it rebuilds its plan from
    its seat's moves (``resume``, :class:`~mummy.bots.tomb.Planner`)."""
    return StrongTombAgent(seed, resume=True)


def seated_expert(seed: int) -> ExpertTombAgent:
    """The expert Tomb bot in a seat of its own (see :func:`seated_strong`)."""
    return ExpertTombAgent(seed, resume=True)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game on ``game_seed``: its own for each seat
    and each game (for seeds below 2**53 and fewer than 1000 seats), and the same for
    the same game wherever it is played (terminal, simulation or server)."""
    return game_seed * 1000 + seat


def bot_names(game: str) -> list[str]:
    """The bots of ``game``, as its registration lists them."""
    return [bot.name for bot in game_named(game).bots]


@functools.lru_cache(maxsize=16)  # what is installed does not change while a process runs
def extra_installed(extra: str) -> bool:
    """Whether every requirement of the package's optional ``extra`` is installed (read
    from the package's metadata: nothing is imported, so a server can say which bots it
    offers without loading OpenSpiel)."""
    try:
        requires = metadata.requires("mummy") or []
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return False
    names = [re.match(r"[A-Za-z0-9._-]+", r).group(0) for r in requires  # type: ignore[union-attr]
             if re.search(rf"""extra\s*==\s*["']{re.escape(extra)}["']""", r)]
    try:
        return bool(names) and all(metadata.version(name) for name in names)
    except metadata.PackageNotFoundError:
        return False


def bots_help(game: str | None = None) -> str:
    """The bots of ``game`` (of every game when None), for a command's help text: what
    the registry lists, so that no help repeats (and forgets) a bot."""
    chosen = [game_named(game)] if game is not None else list(games().values())
    if game is None:
        listed = "; ".join(f"{g.name}: {', '.join(b.name for b in g.bots)}" for g in chosen)
    else:
        listed = ", ".join(bot_names(game))
    extras = sorted({(b.name, b.extra) for g in chosen for b in g.bots if b.extra})
    said = [f"{name} needs the {extra} extra" for name, extra in extras]
    return listed + (f" ({'; '.join(said)})" if said else "")


def make_agent(game: str, name: str, seed: int = 0) -> Any:
    """A seeded bot for ``game`` by name (its registration's bots: random, greedy, strong,
    mcts; expert for the Tomb, exact for Treasure), to play a seat: what it plays is a
    function of the game (:mod:`mummy.bots.base`), so one made anew in the middle of a game
    plays on as the one before it would have."""
    bot = game_named(game).bot(name)
    try:
        factory = load(bot.make)
    except ModuleNotFoundError as exc:  # pyspiel, numpy...: the extra is missing (a bug would be another error)
        if bot.extra is None:
            raise
        raise ValueError(f"the {name} bot needs the {bot.extra} extra: pip install 'mummy[{bot.extra}]' ({exc})") \
            from None
    return factory(seed)
