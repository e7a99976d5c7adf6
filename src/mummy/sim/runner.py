"""Play many seeded games between bots, on one core, several, or a Ray cluster.

Each game is a pure function of its :class:`GameSpec` (game, seed, bots, map or sites,
mode), so the results for a seed are identical whichever back end runs them: the
back ends only decide *where* ``play_one`` runs; results always come back in order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mummy.sim.kinds import sim_named
from mummy.sim.spec import GameSpec


def specs(game: str, bots: Sequence[str], games: int, seed: int, *, map_id: str = "map1",
          mode: str = "standard", sites: Sequence[str] = (), movable: bool = False) -> list[GameSpec]:
    """The games of a run; game i uses seed ``seed + i``. In a game played in turns
    (Treasure) the bots rotate through the seats, so each bot plays first equally often."""
    out = []
    rotate = sim_named(game).rotate
    for i in range(games):
        seated = tuple(bots)
        if rotate and len(bots) > 1:
            k = i % len(bots)
            seated = tuple(bots[k:]) + tuple(bots[:k])
        out.append(GameSpec(game, i, seed + i, seated, map_id, mode, tuple(sites), movable))
    return out


def play_one(spec: GameSpec) -> dict[str, Any]:
    """Play one game to the end and describe it as one JSON-ready dict."""
    return sim_named(spec.game).play(spec)


def progress_bar(total: int, stream: Any) -> Any:
    """tqdm's bar on ``stream``: games done of the total, the rate and the time left; None
    without tqdm (the ``analysis`` extra), since a simulation runs the same without a bar."""
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return None
    return tqdm(total=total, unit="game", file=stream, dynamic_ncols=True, smoothing=0.1)


def run(game_specs: Sequence[GameSpec], jobs: int = 1, ray_address: str | None = None,
        progress: bool = False, stream: Any = None) -> Iterator[dict[str, Any]]:
    """Yield each game's result in order. ``jobs`` processes on this machine, or the
    tasks on the Ray cluster at ``ray_address`` ("local" starts one in this process)."""
    results: Iterator[dict[str, Any]]
    if ray_address:
        results = _ray_results(game_specs, ray_address)
    elif jobs > 1:
        results = _pool_results(game_specs, jobs)
    else:
        results = map(play_one, game_specs)
    bar = progress_bar(len(game_specs), stream or sys.stderr) if progress else None
    try:
        for result in results:
            if bar is not None:
                bar.update()
            yield result
    finally:
        if bar is not None:
            bar.close()


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


__all__ = ["GameSpec", "play_one", "progress_bar", "run", "specs"]
