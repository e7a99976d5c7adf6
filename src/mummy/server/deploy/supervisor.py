"""``mummy serve`` and ``mummy serve --workers N``: the server on uvicorn, as one process
or as N processes sharing one listening socket and one PostgreSQL.

Why processes: the game's work is Python under one interpreter lock, so one process uses
one core. Every process serves every game (the database orders each game's log, and
``relay`` tells each process what the others commit), so the kernel may hand any
connection to any of them: no sticky sessions are needed.

The parent (``mummy serve``, which has migrated the database once) binds the socket, starts the workers (``spawn``:
each a fresh interpreter, the socket passed to it), and looks after them: a worker that
dies is started again (a log line says so), and SIGTERM or SIGINT stops them all
gracefully (each closes its websockets with 1012, "service restart", finishes its
writes, and gives back its bots' leases). Each worker writes its log lines in the
parent's format (``logs``). SQLite serves one process: several workers on it are refused.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import signal
import socket
import sys
import time
from types import FrameType
from typing import Any, Final

from mummy.server.admission.limits import Limits, RateLimiter
from mummy.server.api import logs

log = logging.getLogger("mummy.server")

#: Seconds a worker is given to stop gracefully before it is killed.
STOP_WAIT: Final = 30.0
#: A worker that dies sooner than this after its start is started again only after a pause
#: (so a worker that cannot start does not spin).
SHORT_LIFE: Final = 5.0


#: File descriptors a server process asks for at start (each connection holds one).
OPEN_FILES_WANTED: Final = 65_536


def raise_open_files(wanted: int = OPEN_FILES_WANTED) -> tuple[int, int] | None:
    """Raise this process's limit of open files towards ``wanted``, as far as the system's
    hard limit allows (no privilege needed): the common default of 1,024 let 1,500 idle
    connections take every descriptor. The limit (before, after), or None
    where there is no such limit (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft


def serve(app: Any, limits: Limits, *, host: str = "127.0.0.1", port: int = 8000,
          sock: socket.socket | None = None) -> None:
    """Run ``app`` on uvicorn with the settings of ``mummy serve``, on ``host:port`` or on
    a socket already listening (a worker's). uvicorn adds no log handlers of its own: its
    loggers write through the process's (``logs.configure``, done here if nobody has)."""
    import uvicorn

    from mummy.server.admission.limits import uvicorn_options
    from mummy.server.play.hub import MAX_MESSAGE

    if logs.configured() is None:
        logs.configure()
    files = raise_open_files()
    if files is not None and files[1] < 4096:
        log.warning("this process may open only %d files (each connection takes one); raise the limit "
                    "(ulimit -n, LimitNOFILE=) for more players: docs/deploy.md §6", files[1])
    # No permessage-deflate: a state is a few KiB, and compressing every update on the
    # event loop cost more time than anything else the server does per move.
    options = {"log_level": "warning", "log_config": None, "ws_per_message_deflate": False,
               **uvicorn_options(limits, MAX_MESSAGE, app.state.shunned)}
    if sock is None:
        uvicorn.run(app, host=host, port=port, **options)
    else:
        uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[sock])


def needs_postgres(db: str) -> str | None:
    """Why ``db`` cannot be shared by several server processes, or None if it can."""
    if db.startswith("postgresql"):
        return None
    return (f"--workers needs PostgreSQL (--db postgresql+psycopg://user:password@host/name): {db} is "
            "SQLite, which one server process owns; run one process on it, or move to PostgreSQL")


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """The listening socket the workers share."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


def worker(db: str, limits: Limits, sock: socket.socket, log_format: str = "text") -> None:
    """One worker process: the app on the shared socket (the parent has migrated), its
    log lines in the parent's format (a fresh interpreter configures its own logging). A
    worker that cannot start says why in one line of that format, and exits with 1."""
    logs.configure(log_format)
    try:
        from mummy.server.app import create_app

        app = create_app(db, limits=limits)
    except Exception:
        log.exception("a worker could not start")
        sys.exit(1)
    serve(app, limits, sock=sock)


class Supervisor:
    """N worker processes on one socket, started again when one dies (see the module)."""

    def __init__(self, db: str, limits: Limits, sock: socket.socket, workers: int,
                 log_format: str = "text") -> None:
        self.db = db
        self.log_format = log_format
        self.limits = limits
        self.sock = sock
        self.count = workers
        self.context = multiprocessing.get_context("spawn")
        self.procs: list[tuple[Any, float]] = []  # (process, when it started)
        self.stopping = False

    def start(self) -> None:
        for _ in range(self.count):
            self.procs.append(self._spawn())

    def _spawn(self) -> tuple[Any, float]:
        proc = self.context.Process(target=worker, args=(self.db, self.limits, self.sock, self.log_format),
                                    name="mummy-worker")
        proc.start()
        return proc, time.monotonic()

    def stop(self, _signum: int = 0, _frame: FrameType | None = None) -> None:
        """Stop looking after the workers (a signal handler): :meth:`run` then stops them."""
        self.stopping = True

    def run(self) -> None:
        """Look after the workers until stopped, then stop them gracefully."""
        while not self.stopping:
            multiprocessing.connection.wait([p.sentinel for p, _ in self.procs], timeout=0.5)
            for i, (proc, began) in enumerate(self.procs):
                if proc.is_alive() or self.stopping:
                    continue
                log.warning("worker %s stopped (exit code %s); starting another", proc.pid, proc.exitcode,
                            extra={"worker": proc.pid, "exit_code": proc.exitcode})
                if time.monotonic() - began < SHORT_LIFE:
                    time.sleep(SHORT_LIFE)
                self.procs[i] = self._spawn()
        for proc, _ in self.procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: uvicorn's graceful shutdown
        deadline = time.monotonic() + STOP_WAIT
        for proc, _ in self.procs:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join()


def run_workers(db: str, limits: Limits, host: str, port: int, workers: int, log_format: str = "text") -> None:
    """``mummy serve --workers N`` on a database the caller has migrated (once: N
    processes migrating at once would race): bind, start and look after N workers until
    SIGINT or SIGTERM (raises ``OSError`` when the port is taken). The workers write
    their log lines in ``log_format``."""
    RateLimiter(limits)  # a rate that is not one fails here, not in every worker
    sock = listen(host, port)
    supervisor = Supervisor(db, limits, sock, workers, log_format)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, supervisor.stop)
    try:
        supervisor.start()
        supervisor.run()
    finally:
        sock.close()
