"""Speed figures for `make bench`: printed, and written to bench.json (flat keys, numbers).

Speed goals are checked here, never by timed assertions in tests: our machines are small
and noisy. Each figure is measured on one process, but the ``server.multi_*`` figures
(two server processes on one PostgreSQL, multi_bench.py). ``--quick`` runs fewer
repetitions of the same measurements (the slow figures of later issues are skipped with it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mummy.tomb.board import TombMap
from mummy.tomb.content import map_spec, tile_table
from mummy.tomb.game import PlayerSetup, TombGame

Figures = dict[str, float]


def random_game(seed: int, map_id: str = "map1") -> TombGame:
    """One complete solo game of uniformly random legal play (fast unchecked path)."""
    game = TombGame(seed, [PlayerSetup("bench", map_id)])
    rng = random.Random(seed)
    legal = game.legal_actions
    push = game.push
    while not game.is_over:
        push(0, rng.choice(legal(0)), keep_undo=False)
    return game


def mid_game_states(count: int) -> list[TombGame]:
    """A fixed set of seeded states around round 10 on Map 1."""
    states = []
    for seed in range(count):
        game = TombGame(1000 + seed, 1)
        rng = random.Random(seed)
        while game.round < 10 or rng.random() < 0.5:
            game.push(0, rng.choice(game.legal_actions(0)), keep_undo=False)
        states.append(game)
    return states


def bench_tomb(quick: bool) -> Figures:
    out: Figures = {}
    t0 = time.perf_counter()
    TombMap(map_spec("map1"), tile_table())
    out["tomb.map_precompute_ms"] = round((time.perf_counter() - t0) * 1000, 1)

    games = 60 if quick else 300
    random_game(0)  # warm the per-map tables
    t0 = time.perf_counter()
    actions = 0
    for seed in range(games):
        actions += len(random_game(seed).history)
    elapsed = time.perf_counter() - t0
    out["tomb.random_games_per_s"] = round(games / elapsed, 1)
    out["tomb.random_actions_per_game"] = round(actions / games, 1)

    states = mid_game_states(40 if quick else 100)
    per_state = []
    counts = []
    for game in states:
        reps = 20
        t0 = time.perf_counter()
        for _ in range(reps):
            legal = game.legal_actions(0)
        per_state.append((time.perf_counter() - t0) / reps * 1e6)
        counts.append(len(legal))
    out["tomb.legal_actions_median_us"] = round(statistics.median(per_state), 1)
    out["tomb.legal_actions_median_count"] = statistics.median(counts)

    checked = []
    for game in states:
        legal = game.legal_actions(0)
        action = legal[len(legal) // 2]
        t0 = time.perf_counter()
        for _ in range(20):
            game.check(0, action)
        checked.append((time.perf_counter() - t0) / 20 * 1e6)
    out["tomb.check_action_median_us"] = round(statistics.median(checked), 1)
    return out


def bench_treasure(quick: bool) -> Figures:
    from mummy.treasure.content import all_tiles
    from mummy.treasure.game import TreasureGame
    from mummy.treasure.odds import best_decision, odds_many

    out: Figures = {}
    needs = [t.needs for t in all_tiles().values()]
    runs = []
    for _ in range(10 if quick else 40):
        t0 = time.perf_counter()
        odds_many(needs)  # from nothing: each call builds its own tables
        runs.append((time.perf_counter() - t0) * 1000)
    out["treasure.odds_all_tiles_ms"] = round(statistics.median(runs), 2)

    rng = random.Random(1)
    decisions = []
    for _ in range(10 if quick else 40):
        game = TreasureGame(rng.randrange(10**6), 2)
        game.push(0, game.legal_actions(0)[0])  # roll
        goals = [(t.needs, t.area) for t in (game.top(p) for p in game.pile_names) if t is not None]
        t0 = time.perf_counter()
        best_decision(goals, game.state.dice, 2)
        decisions.append((time.perf_counter() - t0) * 1e6)
    out["treasure.best_reroll_us"] = round(statistics.median(decisions), 1)

    games = 10 if quick else 40
    t0 = time.perf_counter()
    for seed in range(games):
        game = TreasureGame(seed, 4)
        r = random.Random(seed)
        while not game.is_over:
            seat = game.state.current
            game.push(seat, r.choice(game.legal_actions(seat)), keep_undo=False)
    out["treasure.random_games_per_s"] = round(games / (time.perf_counter() - t0), 1)
    return out


def bench_bots(quick: bool) -> Figures:
    """Bot strength: 200 seeded games each (minutes; skipped with --quick). Games run on
    both cores; the seconds per round are measured inside each single-threaded game."""
    if quick:
        return {}
    from mummy.sim.runner import run, specs
    from mummy.sim.summary import summarise

    out: Figures = {}
    jobs = 2
    for bot in ("strong", "greedy"):
        rows = list(run(specs("tomb", [bot], 200, seed=0), jobs=jobs))
        out[f"tomb.{bot}_mean_score"] = summarise(rows)["bots"][bot]["mean"]
        if bot == "strong":
            out["tomb.strong_s_per_round"] = round(statistics.mean(r["seconds"] for r in rows) / 20, 3)
    # The expert bot looks ahead over the next round's dice: about 5x the strong bot's time.
    rows = list(run(specs("tomb", ["expert"], 200, seed=0), jobs=jobs))
    out["tomb.expert_mean_score"] = summarise(rows)["bots"]["expert"]["mean"]
    out["tomb.expert_s_per_round"] = round(statistics.mean(r["seconds"] for r in rows) / 20, 3)
    for bot in ("strong", "expert"):  # Map 2, on the first 50 of the same seeds (time)
        rows = list(run(specs("tomb", [bot], 50, seed=0, map_id="map2"), jobs=jobs))
        out[f"tomb.{bot}_map2_mean_score"] = summarise(rows)["bots"][bot]["mean"]
    out.update(strongest(out))
    rows = list(run(specs("treasure", ["strong", "greedy"], 200, seed=0), jobs=jobs))
    out["treasure.strong_vs_greedy_winrate"] = summarise(rows)["bots"]["strong"]["win_rate"]
    for bot in ("strong", "greedy"):
        solo = list(run(specs("treasure", [bot], 200, seed=0), jobs=jobs))
        out[f"treasure.{bot}_solo_mean_turns"] = summarise(solo)["bots"][bot]["mean_turns"]
    return out


def strongest(figures: Figures) -> Figures:
    """The figures of the strongest Tomb bot (the one that sets par, mummy.analysis.tomb)
    under their own names, so that they keep their meaning if another bot takes its place."""
    from mummy.analysis.tomb import STRONGEST_TOMB

    return {f"tomb.strongest_{what}": figures[f"tomb.{STRONGEST_TOMB}_{what}"]
            for what in ("mean_score", "s_per_round", "map2_mean_score")}


def bench_analysis(quick: bool) -> Figures:
    """The review of one whole solo Tomb game (20 rounds and the turn after) by the
    strongest bot, on one process: the strong bot's game on seed 0, map1 standard, stands
    in for a player's (its plans differ from the strongest bot's, as a person's do). The
    goal is under 60 s. Par (the strongest bot's own game) is not included: see
    tomb.strongest_s_per_round. Skipped with --quick (about a minute)."""
    if quick:
        return {}
    from mummy.analysis.tomb import tomb_review
    from mummy.bots.registry import bot_seed, make_agent
    from mummy.tomb.record import to_record

    game = TombGame(0, [PlayerSetup("bench", "map1")])
    bot = make_agent("tomb", "strong", bot_seed(0, 0))
    while not game.is_over:
        game.apply(0, bot.act(game, 0))
    t0 = time.perf_counter()
    tomb_review(to_record(game), 0)
    return {"analysis.tomb_review_s": round(time.perf_counter() - t0, 1)}


def bench_server(quick: bool) -> Figures:
    """Action round trips with 200 websocket players (50 with --quick), the bare echo
    beside them, and SIGKILL restarts (skipped with --quick). See server_bench.py."""
    sys.path.insert(0, str(Path(__file__).parent))
    from server_bench import bench_server as run_server_bench

    return run_server_bench(quick)


def bench_multi(quick: bool) -> Figures:
    """Action round trips with 500 websocket players (100 with --quick) in two-person games,
    each game's players on two server processes over one PostgreSQL, and the bare echo
    beside them; skipped, with the reason, without PostgreSQL. See multi_bench.py."""
    sys.path.insert(0, str(Path(__file__).parent))
    from multi_bench import bench_multi as run_multi_bench

    return run_multi_bench(quick)


def bench_attack(quick: bool) -> Figures:
    """The same players while silent readers, a game-creation flood and an undo spammer
    attack the server; then its memory after 10,000 games. See attack_bench.py."""
    sys.path.insert(0, str(Path(__file__).parent))
    from attack_bench import bench_attack as run_attack_bench

    return run_attack_bench(quick)


def bench_web(quick: bool) -> Figures:
    """Start page to a drawn Tomb sheet, click to tile drawn, and the bytes of a Tomb game
    page on a first and a repeat visit, in Chromium. See web_bench.py."""
    sys.path.insert(0, str(Path(__file__).parent))
    from web_bench import bench_web as run_web_bench

    return run_web_bench(quick)


def bench_env(quick: bool) -> Figures:
    """Research interfaces (mummy.envs, the research extra): Gymnasium steps per second with
    observation and mask (uniformly random masked actions, one process, the best of three
    runs; goals 5,000 Tomb, 10,000 Treasure), random OpenSpiel Tomb games per second (chance sampled), and, without
    --quick, OpenSpiel's MCTS bot against the strong bot on the same seeds (two processes)."""
    try:
        import gymnasium as gym
        import pyspiel

        import mummy.envs  # noqa: F401 - registers the ids and games
    except ImportError:
        print("(bench_env: the research extra is not installed; skipped)", file=sys.stderr)
        return {}
    out: Figures = {}
    for key, env_id in (("tomb", "mummy/TombSolo-v0"), ("treasure", "mummy/TreasureSolo-v0")):
        env = gym.make(env_id).unwrapped
        rng = random.Random(0)
        steps = 2_000 if quick else 10_000
        env.reset(seed=0)
        rates = []
        for _ in range(3):  # the best of three runs, as timeit does: other jobs only slow a run down
            t0 = time.perf_counter()
            for _ in range(steps):
                _obs, _r, terminated, truncated, _info = env.step(rng.choice(env.legal_actions()))
                if terminated or truncated:
                    env.reset()
            rates.append(steps / (time.perf_counter() - t0))
        out[f"env.{key}_steps_per_s"] = round(max(rates))

    game = pyspiel.load_game("mummy_tomb")
    sims = 10 if quick else 40
    rng = random.Random(1)
    t0 = time.perf_counter()
    for _ in range(sims):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    out["spiel.tomb_random_sims_per_s"] = round(sims / (time.perf_counter() - t0), 1)
    if quick:
        return out

    from mummy.sim.runner import run, specs
    from mummy.sim.summary import summarise

    games = 10
    for bot in ("mcts", "strong"):
        rows = list(run(specs("tomb", [bot], games, seed=0), jobs=2))
        out[f"mcts.tomb_{bot}_mean_score"] = summarise(rows)["bots"][bot]["mean"]
        if bot == "mcts":
            out["mcts.tomb_s_per_game"] = round(statistics.mean(r["seconds"] for r in rows), 1)
    rows = list(run(specs("treasure", ["mcts", "strong"], 20, seed=0), jobs=2))
    out["mcts.treasure_vs_strong_winrate"] = summarise(rows)["bots"]["mcts"]["win_rate"]
    out["mcts.treasure_s_per_game"] = round(statistics.mean(r["seconds"] for r in rows), 1)
    return out


BENCHES: list[Callable[[bool], Figures]] = [bench_tomb, bench_treasure, bench_bots, bench_analysis, bench_server,
                                            bench_multi, bench_attack, bench_web, bench_env]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions; skip slow figures")
    parser.add_argument("--out", default="bench.json", help="where to write the figures")
    args = parser.parse_args(argv)
    figures: Figures = {}
    for bench in BENCHES:
        figures.update(bench(args.quick))
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    Path(args.out).write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    if args.quick:
        print("(--quick: the bot-strength figures, which take minutes, were skipped)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
