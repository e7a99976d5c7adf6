"""Play many seeded games between bots, on one core, several, or a Ray cluster.

Each game is a pure function of its :class:`GameSpec` (game, seed, bots, map or sites,
mode), so the results for a seed are identical whichever back end runs them: the
back ends only decide *where* ``play_one`` runs; results always come back in order.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mummy.bots.registry import make_agent


@dataclass(frozen=True)
class GameSpec:
    game: str  # "tomb" or "treasure"
    index: int
    seed: int
    bots: tuple[str, ...]  # one per seat, in seat order
    map: str = "map1"  # tomb
    mode: str = "standard"  # tomb
    sites: tuple[str, ...] = field(default=())  # treasure, one per seat
    movable: bool = False  # treasure


def specs(game: str, bots: Sequence[str], games: int, seed: int, *, map_id: str = "map1",
          mode: str = "standard", sites: Sequence[str] = (), movable: bool = False) -> list[GameSpec]:
    """The games of a run. For Treasure the bots rotate through the seats, so each bot
    plays first equally often; game i uses seed ``seed + i``."""
    out = []
    for i in range(games):
        seated = tuple(bots)
        if game == "treasure" and len(bots) > 1:
            k = i % len(bots)
            seated = tuple(bots[k:]) + tuple(bots[:k])
        out.append(GameSpec(game, i, seed + i, seated, map_id, mode, tuple(sites), movable))
    return out


def bot_seed(spec: GameSpec, seat: int) -> int:
    """Each seat's bot gets its own seed, distinct across the games of a run."""
    return spec.seed * 1000 + seat


def play_one(spec: GameSpec) -> dict[str, Any]:
    """Play one game to the end and describe it as one JSON-ready dict."""
    if spec.game == "tomb":
        return _play_tomb(spec)
    if spec.game == "treasure":
        return _play_treasure(spec)
    raise ValueError(f"unknown game {spec.game!r}")


def _play_tomb(spec: GameSpec) -> dict[str, Any]:
    from mummy.tomb.game import PlayerSetup, TombGame
    from mummy.tomb.record import to_record
    from mummy.tomb.scoring import ranking, score

    players = [PlayerSetup(f"{bot}-{i + 1}", spec.map, spec.mode) for i, bot in enumerate(spec.bots)]
    game = TombGame(spec.seed, players)
    agents = [make_agent("tomb", bot, bot_seed(spec, i)) for i, bot in enumerate(spec.bots)]
    started = time.perf_counter()
    while not game.is_over:
        seat = next(i for i, s in enumerate(game.sheets) if s.phase in ("play", "after"))
        game.apply(seat, agents[seat].act(game, seat))
    seconds = time.perf_counter() - started
    scores = [score(s) for s in game.sheets]
    sheets = []
    for s in game.sheets:
        sheets.append({
            "oozes": s.oozes_defeated, "skeletons": s.skel_defeated.bit_count(),
            "zombies": s.zombies_defeated, "golems": s.golems_defeated.bit_count(),
            "mimics": s.mimics_defeated, "mummy_hits": len(s.hits), "items": s.items_found.bit_count(),
            "found": {"oozes": s.oozes_found, "mimics": s.mimics_found, "sarcophagi": s.sarc_found,
                      "golems": s.golems_found.bit_count(), "gems": s.gems_found.bit_count(),
                      "keys": s.keys_gained, "coins": s.coins_gained},
            "covered": s.covered.bit_count(),
        })
    return {
        "game": "tomb", "index": spec.index, "seed": spec.seed, "bots": list(spec.bots),
        "map": spec.map, "mode": spec.mode,
        "scores": [sc.total for sc in scores],
        "breakdown": [sc.lines for sc in scores],
        "achievements": [list(sc.achievements) for sc in scores],
        "places": ranking(scores),
        "sheets": sheets,
        "seconds": round(seconds, 3),
        "record": to_record(game),
    }


def _play_treasure(spec: GameSpec) -> dict[str, Any]:
    from mummy.treasure.content import sites
    from mummy.treasure.game import Seat, TreasureGame
    from mummy.treasure.record import to_record

    names = list(sites())
    site_of = spec.sites or tuple(names[i % len(names)] for i in range(len(spec.bots)))
    seats = [Seat(f"{bot}-{i + 1}", site_of[i]) for i, bot in enumerate(spec.bots)]
    game = TreasureGame(spec.seed, seats, movable=spec.movable)
    agents = [make_agent("treasure", bot, bot_seed(spec, i)) for i, bot in enumerate(spec.bots)]
    takes: dict[str, int] = {p: 0 for p in game.pile_names}
    chances: list[tuple[str, float, bool]] = []  # (pile, chance at the first roll, taken that turn)
    started = time.perf_counter()
    turn_tops: dict[str, float] = {}
    while not game.is_over:
        seat = game.state.current
        action = agents[seat].act(game, seat)
        game.apply(seat, action)
        if action.kind == "roll":
            from mummy.treasure.odds import odds_many

            tops = {p: game.top(p) for p in game.pile_names}
            fitting = {p: t for p, t in tops.items() if t is not None and game.can_fit(seat, t)}
            result = odds_many([t.needs for t in fitting.values()], game.state.dice, 2)
            turn_tops = {p: o.decimal for p, o in zip(fitting, result, strict=True)}
        elif action.kind in ("take", "pass"):
            for p, c in turn_tops.items():
                chances.append((p, c, action.kind == "take" and action.pile == p))
            if action.kind == "take":
                takes[action.pile] += 1
            turn_tops = {}
    seconds = time.perf_counter() - started
    st = game.state
    return {
        "game": "treasure", "index": spec.index, "seed": spec.seed, "bots": list(spec.bots),
        "sites": list(site_of[: len(spec.bots)]), "movable": spec.movable,
        "squares": game.scores(), "places": game.places(), "turns": list(st.turns),
        "reason": st.reason, "winner": st.winner,
        "takes": takes,
        "chances": [list(c) for c in chances],
        "seconds": round(seconds, 3),
        "record": to_record(game),
    }


def _progress(done: int, total: int, started: float, stream: Any) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    rate = done / max(time.perf_counter() - started, 1e-9)
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.1f}/s ")
    stream.flush()


def run(game_specs: Sequence[GameSpec], jobs: int = 1, ray_address: str | None = None,
        progress: bool = False, stream: Any = None) -> Iterator[dict[str, Any]]:
    """Yield each game's result in order. ``jobs`` processes on this machine, or the
    tasks on the Ray cluster at ``ray_address`` ("local" starts one in this process)."""
    stream = stream or sys.stderr
    total = len(game_specs)
    started = time.perf_counter()
    results: Iterator[dict[str, Any]]
    if ray_address:
        results = _ray_results(game_specs, ray_address)
    elif jobs > 1:
        results = _pool_results(game_specs, jobs)
    else:
        results = map(play_one, game_specs)
    for done, result in enumerate(results, start=1):
        if progress:
            _progress(done, total, started, stream)
        yield result
    if progress:
        stream.write("\n")


def _pool_results(game_specs: Sequence[GameSpec], jobs: int) -> Iterator[dict[str, Any]]:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_one, game_specs, chunksize=1)


def _ray_results(game_specs: Sequence[GameSpec], address: str) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("the Ray back end needs the optional dependency: pip install 'mummy[cluster]'") \
            from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as exc:  # Ray raises many kinds; the user needs the reason, not a traceback
            raise RuntimeError(f"cannot reach the Ray cluster at {address}: {exc} "
                               "(for ray:// addresses install ray[client])") from None
    try:
        remote: Callable[..., Any] = ray.remote(play_one).remote
        refs = [remote(s) for s in game_specs]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


__all__ = ["GameSpec", "play_one", "run", "specs"]
