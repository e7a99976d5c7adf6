"""Lanes of analysis work for coaching: a bounded queue of jobs, ONE worker thread that
takes them in turn, and a child process that does the thinking at a lower priority.

Why a child process: a par is an expert bot's whole game, 20-60 s of CPU, and a review a
little more. In a thread of the server it would hold the interpreter lock against the
event loop, people's calls and the bots for all that time (every move waits up to a
switch interval, 5 ms, at each turn of the lock). A child has its own interpreter, and
``os.nice`` puts it behind the server in the machine's scheduler: on two cores busy with
people and bots it gets what they leave. The worker thread only waits on the child's
pipe (no lock held while it waits), keeps the job's progress for whoever asks, and hands
the result on.

* **Bounded.** A lane holds at most ``capacity`` jobs waiting; beyond, :meth:`Lane.submit`
  answers ``None`` and the caller refuses politely (a par is simply not computed now, a
  review is refused with ``503`` and a time to come back).
* **Once per key.** A job asked for again while it waits or runs is the same job (its
  callers wait together): a day's challenge is one seed for everybody, one par.
* **Bounded in time.** A job that runs past ``timeout`` has its child killed; the next job
  starts another. A child that dies fails its job only.
* **Gone when idle.** The thread ends after ``idle`` seconds without a job, and its child
  with it (a server that coaches nobody holds neither); the next job starts both again.

``processes=False`` runs the jobs in the worker thread itself (tests of the lanes; a
platform without processes).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

import mummy
from mummy.server.coaching.coach_jobs import run

log = logging.getLogger("mummy.server.coaching.coaching")

#: Seconds a lane's thread (and child) waits for a job before ending.
IDLE: Final = 120.0
#: Seconds a job may run before its child is killed.
TIMEOUT: Final = 600.0


@dataclass(eq=False)
class Job:
    """One job of a lane: what to run, how far it has got, and what it gave."""

    key: Hashable
    name: str
    args: tuple[Any, ...]
    state: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int = 0
    result: Any = None
    error: str | None = None
    #: Settled with the result (an error: a ``JobFailed``) once the job has ended.
    #: A failure that asking again will not change (the analysis refused the record).
    lasting: bool = False
    #: Ahead of the jobs without it in the queue (a review asked for by one of the game's
    #: players goes before those asked for by anyone else).
    first: bool = False
    future: Future[Any] = field(default_factory=Future)
    then: list[Callable[[Job], None]] = field(default_factory=list)

    def status(self) -> dict[str, Any]:
        """What a page is told of it: ``status`` and the progress so far."""
        return {"status": self.state, "done": self.done, "total": self.total}


class JobFailed(Exception):
    """A job that could not be done: the message says why (a record that cannot be
    analysed, a child that died or ran out of time)."""


class Lane:
    """A bounded queue of jobs, one worker thread, one child process (see the module)."""

    def __init__(self, name: str, nice: int, capacity: int, *, processes: bool = True, idle: float = IDLE,
                 timeout: float = TIMEOUT) -> None:
        self.name = name
        self.nice = nice
        self.capacity = capacity
        self.processes = processes
        self.idle = idle
        self.timeout = timeout
        self._guard = threading.Lock()
        self._wake = threading.Condition(self._guard)
        self._queue: collections.deque[Job] = collections.deque()
        self._jobs: dict[Hashable, Job] = {}  # queued or running, by key
        self._thread: threading.Thread | None = None
        self._child: Any = None  # (process, connection) of the running child
        self._closed = False

    # -- asking ---------------------------------------------------------------------------
    def submit(self, key: Hashable, name: str, args: tuple[Any, ...],
               then: Callable[[Job], None] | None = None, first: bool = False) -> Job | None:
        """Queue a job (``coach_jobs.JOBS[name](*args, progress)``), or join the one of the
        same key waiting or running; ``then(job)`` is called in the worker thread once it
        has ended. A new job ``first`` goes ahead of every queued job that is not
        (:meth:`promote` moves one up). ``None``: the queue is full (nothing was queued)."""
        with self._guard:
            job = self._jobs.get(key)
            if job is None:
                if len(self._queue) >= self.capacity or self._closed:
                    return None
                job = self._jobs[key] = Job(key, name, args, first=first)
                job.future.set_running_or_notify_cancel()
                self._place(job)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name=f"mummy-{self.name}", daemon=True)
                    self._thread.start()
                self._wake.notify()
            if then is not None:
                job.then.append(then)
            return job

    def promote(self, key: Hashable) -> Job | None:
        """The job of this key (None: none waits or runs), moved ahead of every queued job
        that is not ``first`` if it is still queued."""
        with self._guard:
            job = self._jobs.get(key)
            if job is not None and not job.first and job.state == "queued":
                self._queue.remove(job)
                job.first = True
                self._place(job)
            return job

    def _place(self, job: Job) -> None:
        """Into the queue: after every job, or (``first``) after the other first ones only."""
        if job.first:
            at = next((i for i, queued in enumerate(self._queue) if not queued.first), len(self._queue))
            self._queue.insert(at, job)
        else:
            self._queue.append(job)

    def find(self, key: Hashable) -> Job | None:
        """The job of this key waiting or running, if any."""
        with self._guard:
            return self._jobs.get(key)

    def ahead(self, job: Job) -> int:
        """How many jobs will run before this one (the running one included)."""
        with self._guard:
            if job.state != "queued":
                return 0
            waiting = list(self._queue)
            return (waiting.index(job) if job in waiting else 0) + (len(self._jobs) - len(waiting))

    @property
    def waiting(self) -> int:
        """Jobs queued, not yet running."""
        return len(self._queue)

    def close(self) -> None:
        """Fail every job waiting, stop the child (a running job fails with it) and take no
        more jobs (at the app's end)."""
        with self._guard:
            self._closed = True
            dropped = list(self._queue)
            self._queue.clear()
            for job in dropped:
                self._jobs.pop(job.key, None)
            self._wake.notify_all()
        for job in dropped:
            self._end(job, None, "the server stopped before it could be done")
        self._stop_child()

    # -- the worker thread ----------------------------------------------------------------
    def _run(self) -> None:
        while (job := self._next()) is not None:
            try:
                kind, value = self._execute(job)
            except Exception as exc:  # a bug of the lane itself: the job fails, the lane goes on
                log.exception("coaching job %s of lane %s", job.name, self.name,
                              extra={"job": job.name, "lane": self.name})
                kind, value = "stopped", f"the analysis failed ({type(exc).__name__})"
            with self._guard:
                self._jobs.pop(job.key, None)
            job.lasting = kind == "error"
            if kind == "done":
                self._end(job, value, None)
            else:
                self._end(job, None, str(value))

    def _next(self) -> Job | None:
        """The next job, or None once the lane has been idle for ``idle`` seconds (closed:
        at once); the thread ends then."""
        with self._guard:
            while not self._queue:
                if self._closed or (not self._wake.wait(self.idle) and not self._queue):
                    self._thread = None  # a job submitted from now on starts a new thread, and child
                    leaving, self._child = self._child, None
                    break
            else:
                job = self._queue.popleft()
                job.state = "running"
                return job
        stop_child(leaving)
        return None

    def _end(self, job: Job, result: Any, error: str | None) -> None:
        """The job's end: its ``then`` callbacks first (what they store and release is done
        by the time anyone waiting on the future hears of it), then its future."""
        job.state = "done" if error is None else "failed"
        job.result, job.error = result, error
        for then in job.then:
            try:
                then(job)
            except Exception:
                log.exception("after coaching job %s", job.name, extra={"job": job.name, "lane": self.name})
        if error is None:
            job.future.set_result(result)
        else:
            job.future.set_exception(JobFailed(error))

    def _progress(self, job: Job) -> Callable[[int, int], None]:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
        return progress

    def _execute(self, job: Job) -> tuple[str, Any]:
        """Run the job in the child (or here, without processes): ``("done", result)``,
        ``("error", message)`` (the analysis refused it) or ``("stopped", message)``."""
        if not self.processes:
            return run(job.name, job.args, self._progress(job))
        proc, send, conn = self._ensure_child()
        deadline = time.monotonic() + self.timeout
        progress = self._progress(job)
        try:
            send.send((job.name, job.args))
        except (OSError, ValueError):
            self._stop_child()
            return "stopped", "the analysis stopped (its process ended); ask again"
        while True:
            try:
                ready = conn.poll(1.0)
                message = conn.recv() if ready else None
            except (EOFError, OSError, ValueError):
                self._stop_child()
                return "stopped", "the analysis stopped (its process ended); ask again"
            if message is None:
                if proc.poll() is not None:
                    self._stop_child()
                    return "stopped", "the analysis stopped (its process ended); ask again"
                if time.monotonic() > deadline:
                    self._stop_child()
                    return "stopped", f"the analysis took more than {self.timeout:g} s and was stopped"
                continue
            if message[0] == "progress":
                progress(message[1], message[2])
                continue
            return message[0], message[1]

    # -- the child process --------------------------------------------------------------
    def _ensure_child(self) -> tuple[subprocess.Popen[bytes], Connection, Connection]:
        """The lane's child, started if it has none (only the worker thread asks)."""
        if self._child is not None and self._child[0].poll() is None:
            return self._child  # type: ignore[no-any-return]
        self._stop_child()
        child = start_child(self.nice)
        with self._guard:
            self._child = child
        return child

    def _stop_child(self) -> None:
        with self._guard:
            child, self._child = self._child, None
        stop_child(child)


def start_child(nice: int) -> tuple[subprocess.Popen[bytes], Connection, Connection]:
    """A child process for a lane's jobs (``python -m mummy.server.coaching.coach_jobs``), with a
    pipe each way: a fresh interpreter that imports only the analysis, never the parent's
    own main module (which ``multiprocessing``'s spawn would import again, and a server
    started from a script without a ``__main__`` guard would start again)."""
    to_child, child_in = os.pipe()
    child_out, from_child = os.pipe()
    package = str(Path(mummy.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (package, os.environ.get("PYTHONPATH")) if p)}
    try:
        proc = subprocess.Popen([sys.executable, "-m", "mummy.server.coaching.coach_jobs", str(to_child),
                                 str(from_child), str(nice), str(os.getpid())], pass_fds=(to_child, from_child),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    finally:
        os.close(to_child)
        os.close(from_child)
    return proc, Connection(child_in, readable=False), Connection(child_out, writable=False)


def stop_child(child: Any) -> None:
    """Ask a child to end, and kill it if it does not at once (a job under way)."""
    if child is None:
        return
    proc, send, recv = child
    with contextlib.suppress(OSError, ValueError):
        send.send(None)
    try:
        proc.wait(1.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5.0)
    send.close()
    recv.close()


__all__ = ["IDLE", "TIMEOUT", "Job", "JobFailed", "Lane", "start_child", "stop_child"]
