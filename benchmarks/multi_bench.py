"""Server figures on several processes for `make bench` (issue 16): action round trips
with 500 websocket players spread over two server processes on one PostgreSQL.

Two ``mummy serve`` run on two ports of loopback, on one database, as on two machines
behind a load balancer. Two ports rather than ``mummy serve --workers 2`` on one: the
kernel hands each connection of ``--workers`` to whichever worker it likes, and the
figure is about the players of one game on different processes, so that every move
crosses from one process to the other through PostgreSQL (``NOTIFY``, ``relay.py``).
Here that is placed, not left to chance: the players are in two-person Tomb games, the
first of each game connected to one process and the second to the other.

Each player plays as in the single-process load test (server_bench.py, whose player
this is): a quick person's pace (an action every 0.5-1.5 s), 30 actions each, the round
trip from sending an action to its result timed; the other player's moves are read
while it thinks, and at the end of a Tomb round it waits, untimed, for the other to end
it too. A bare websocket echo on both processes, measured in the same run, is the floor.
Figures: the action round trip's p50 and p99 (goal: p99 under 30 ms and within 3× the
echo's), the echo's, and how long after a player sent an action the other player, on
the other process, had the new state (``peer``: the commit, the notice, the other
process's reading of the log, and its update). Beside them, what the load asks of the
machine, steadier than latencies on a shared one: the servers' CPU time per action (both
processes together), the cores the busier process used, and where the machine's cores
went (the servers, the players' process, PostgreSQL; the machine's busy cores of all
of them). ``--quick``: 100 players, 5 actions each.

Everything shares the machine: the players (one process, uvloop and orjson, as in
server_bench.py), the two servers and PostgreSQL.

PostgreSQL: ``MUMMY_BENCH_POSTGRES`` names a server (default
``postgresql+psycopg://mummy:mummy@127.0.0.1:5432/``, the user that ``.ci/postgres.sh``
makes) on which the benchmark creates its own database, ``mummy_multibench``, and drops
it after (a database named in the URL is only connected to for that). Without an
answering PostgreSQL, or without the postgres extra, the figures are skipped with the
reason printed. ``python benchmarks/multi_bench.py [--quick] [--runs N] [--players N ...]``
prints each run; several ``--players`` give a load curve (one run each), which shows
where the latency stops being the server's and starts being the machine's queue.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import uvloop
from server_bench import UPDATE_BYTES, Seen, honest_load, new_games, percentile

from mummy.server.deploy.process import free_port, start

ENV = "MUMMY_BENCH_POSTGRES"
DEFAULT_SERVER = "postgresql+psycopg://mummy:mummy@127.0.0.1:5432/"
DATABASE = "mummy_multibench"
PROCESSES = 2
#: Players per game: each game has one player on each process.
PEOPLE = 2

Figures = dict[str, float]


class Skip(Exception):
    """No PostgreSQL to measure on: the reason."""


@contextlib.contextmanager
def own_database(server: str | None = None) -> Iterator[str]:
    """A fresh database of the benchmark's own on the PostgreSQL server named by
    ``server`` (``MUMMY_BENCH_POSTGRES``, else the local default): its URL, for the time of
    the block; dropped after. Raises :class:`Skip` when no PostgreSQL answers."""
    try:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        url = make_url(server or os.environ.get(ENV) or DEFAULT_SERVER)
        admin = create_engine(url.set(database=url.database or "postgres"), isolation_level="AUTOCOMMIT",
                              connect_args={"connect_timeout": 3})
    except ImportError as exc:  # the postgres extra (psycopg) is not installed
        raise Skip(f"no PostgreSQL driver ({exc}); pip install -e '.[postgres]'") from None

    def run(statement: str) -> None:
        with admin.connect() as conn:
            conn.execute(text(statement))

    try:
        try:
            run(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")  # left by a run cut short
            run(f"CREATE DATABASE {DATABASE}")
        except Exception as exc:
            raise Skip(f"no PostgreSQL at {url.render_as_string()} answers, or it refuses to create a "
                       f"database: {str(exc).splitlines()[0]} (set {ENV})") from None
        try:
            yield url.set(database=DATABASE).render_as_string(hide_password=False)
        finally:
            run(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    finally:
        admin.dispose()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """A graceful stop (SIGTERM), so that the server gives its connections back."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_seconds() -> tuple[float, float]:
    """The whole machine's CPU time so far, (busy, all) summed over its cores."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    scale = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / scale, sum(ticks) / scale


def _postgres_seconds() -> float:
    """The CPU time so far of the machine's PostgreSQL processes (0 where they are not
    readable, as on another machine)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() != "postgres":
                        continue
                total += _cpu_seconds(int(entry))
            except (OSError, ValueError, IndexError):
                continue  # gone meanwhile
    return total


def peer_delays(seen: list[Seen]) -> list[float]:
    """For every action that stood, ms from its sending until the other player of its game
    (player i's partner is i ^ 1, on the other process) had a state at its version or
    newer; actions the other player never saw (it had left) are not counted."""
    delays = []
    for i, mine in enumerate(seen):
        if i ^ 1 >= len(seen):
            continue  # alone in its game
        got = [(version, at) for kind, version, at in seen[i ^ 1] if kind == "got"]
        for kind, version, sent in mine:
            if kind == "made":
                seen_at = next((at for v, at in got if v >= version and at >= sent), None)
                if seen_at is not None:
                    delays.append((seen_at - sent) * 1000)
    return delays


def multi_run(db: str, clients: int, actions: int, game: str = "tomb") -> Figures:
    """One run: two servers on ``db``, ``clients`` players in two-person games (of the
    Tomb by default), each game across both; the figures of the run."""
    ports = [free_port() for _ in range(PROCESSES)]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:  # one after the other: the first migrates the database
            procs.append(start(db, port, wait=60))
        games = new_games(ports[0], clients, PEOPLE, game)
        seen: list[Seen] = []
        cpu = [_cpu_seconds(p.pid) for p in procs]
        machine, postgres, players = _machine_seconds(), _postgres_seconds(), _cpu_seconds(os.getpid())
        started = time.perf_counter()
        rtts, echoes = uvloop.run(honest_load([f"127.0.0.1:{port}" for port in ports], games, actions, seen))
        seconds = time.perf_counter() - started
        cpu = [_cpu_seconds(p.pid) - before for p, before in zip(procs, cpu, strict=True)]
        players = _cpu_seconds(os.getpid()) - players
        postgres = _postgres_seconds() - postgres
        busy, every = (now - before for now, before in zip(_machine_seconds(), machine, strict=True))
    finally:
        for proc in procs:
            _stop(proc)
    peers = peer_delays(seen)
    return {
        "server.multi_action_p50_ms": round(statistics.median(rtts), 2),
        "server.multi_action_p99_ms": round(percentile(rtts, 0.99), 2),
        "server.multi_echo_p50_ms": round(statistics.median(echoes), 2),
        "server.multi_echo_p99_ms": round(percentile(echoes, 0.99), 2),
        "server.multi_peer_p50_ms": round(statistics.median(peers), 2),
        "server.multi_peer_p99_ms": round(percentile(peers, 0.99), 2),
        "server.multi_actions_measured": float(len(rtts)),
        # What a player is sent for the other player's move: the median message's bytes.
        "server.update_bytes_p50": float(statistics.median(UPDATE_BYTES)) if UPDATE_BYTES else 0.0,
        "server.multi_actions_per_s": round(len(rtts) / seconds, 1),
        # The servers' CPU time (both processes) per action, and the cores the busier one
        # used: what the load asks of the machine, whatever else runs on it.
        "server.multi_cpu_ms_per_action": round(sum(cpu) / len(rtts) * 1000, 2),
        "server.multi_busiest_process_cores": round(max(cpu) / seconds, 2),
        # Where the machine's cores went: both servers, the players' process, PostgreSQL,
        # and the machine as a whole (busy cores of how many). Near all of them busy, the
        # latencies are the machine's queue, not the server's work.
        "server.multi_servers_cores": round(sum(cpu) / seconds, 2),
        "server.multi_players_cores": round(players / seconds, 2),
        "server.multi_postgres_cores": round(postgres / seconds, 2),
        "server.multi_machine_busy_cores": round(busy / seconds, 2),
        "server.multi_machine_cores": round(every / seconds, 2),
    }


def bench_multi(quick: bool, runs: int = 1, players: int | None = None) -> Figures:
    """500 players over two processes (100 and 5 actions each with ``quick``; ``players``
    others, to see where the machine's load starts to tell), in Tomb games, then a fifth
    as many in Treasure games; with ``runs`` above one, each run is printed and the last
    one's figures returned."""
    clients, actions = (100, 5) if quick else (500, 30)
    clients = players or clients
    figures: Figures = {}
    try:
        for run in range(runs):
            with own_database() as db:
                figures = multi_run(db, clients, actions)
            # Treasure too, fewer players: what a player is sent for the other's move, and
            # the servers' CPU time per action, in a game of turns.
            with own_database() as db:
                treasure = multi_run(db, max(2, clients // 5), actions, "treasure")
            figures["server.update_bytes_p50_treasure"] = treasure["server.update_bytes_p50"]
            figures["server.multi_cpu_ms_per_action_treasure"] = treasure["server.multi_cpu_ms_per_action"]
            if runs > 1:
                print(f"run {run + 1}: " + "  ".join(f"{k.removeprefix('server.multi_')} {v}"
                                                      for k, v in figures.items()), flush=True)
    except Skip as why:
        print(f"(bench_multi: skipped: {why})", file=sys.stderr)
        return {}
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="100 players, 5 actions each")
    parser.add_argument("--runs", type=int, default=1, help="runs, each printed")
    parser.add_argument("--players", type=int, nargs="+", default=[None],
                        help="players in all (even; default 500, or 100 with --quick); several: one run each, "
                             "a load curve")
    args = parser.parse_args()
    if any(players is not None and players < 2 for players in args.players):
        parser.error("--players: at least 2 (two-person games, one player on each process)")
    for players in args.players:
        if len(args.players) > 1:
            print(f"-- {players} players", flush=True)
        for key, value in bench_multi(args.quick, args.runs, players).items():
            print(f"{key:<34} {value}", flush=True)
