"""How an action reaches the log: committed in the caller's thread, by group commit at the
event loop's next turn (SQLite, for moves made on the loop), or by group commit in a
thread of its own (databases across a network, and SQLite when its file is busy).

The SQL itself is not here: the writer is given the function that writes a batch's rows
on a connection (the repository's compiled statements, ``Repository.write_actions``), and
keeps it in :attr:`Writer.execute`, where a test may wrap it to count or hold batches.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from mummy.server.store.db import LOOP_WAIT, is_busy, wait_briefly
from mummy.server.store.writes import Execute, Write, WriteLock


class _Busy(Exception):
    """The database (or this process's write lock) stayed busy past the event loop's short
    wait: nothing was written, and the batch goes to the writer thread."""


class Writer:
    """Writes actions: in the caller's thread, by group commit at the event loop's next
    turn (SQLite, for moves made on the loop), or by group commit in a thread of its own.

    An action must be committed before anyone is told of it. Across a network every
    commit is a round trip; one at a time, writers queue behind each other, and that queue
    is where a busy server's tail latency comes from. The thread writes every action
    waiting in one transaction, so one round trip (and one disk sync) covers all of them.
    A batch that fails is written again action by action, so one bad action (a client id
    or a place in the log taken meanwhile) fails alone: on PostgreSQL in one transaction,
    each action in a savepoint of its own (:meth:`_write_apart`). The thread starts with
    the first write and ends when it has been idle for a moment, so a service that does
    not use it holds no thread.

    A batch is written in the order of its entries' places (game id, then version), the
    same order in every process: see :meth:`_write`.

    The event loop waits for no lock (a file lock held by another process froze every game
    and health check for the lock's 30 s): its commit waits at most ``LOOP_WAIT`` for this
    process's write lock and for SQLite's, then hands the batch to the thread, which may
    wait as long as it takes. Those moves are answered when the thread has committed them.
    """

    IDLE = 0.5  # seconds without a write before the thread ends

    def __init__(self, engine: Engine, writes: WriteLock, execute: Execute) -> None:
        self._engine = engine
        self._writes = writes
        self._file_lock = None if isinstance(writes, contextlib.nullcontext) else writes  # SQLite's writers
        #: Writes a batch's rows inside the writer's transaction (see the module's docstring).
        self.execute = execute
        self._queue: queue.SimpleQueue[Write] = queue.SimpleQueue()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pending = 0  # writes submitted to the thread and not yet settled
        self._soon: list[Write] = []  # for the event loop's next commit (write_soon)
        self._loop_conn: Connection | None = None  # used on the event loop only
        self._flushing: int | None = None  # the loop's thread while it commits (see _write)

    @property
    def queued(self) -> int:
        """Writes waiting for the thread, not yet taken into a batch (a test waits on it)."""
        return self._queue.qsize()

    def submit(self, write: Write) -> None:
        """Queue an action's rows for the thread; ``write.done`` is settled after the commit."""
        with self._guard:
            self._pending += 1
            self._queue.put(write)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mummy-writer")
                self._thread.start()

    def write_now(self, write: Write) -> None:
        """Write and commit an action's rows in the caller's thread; ``write.done`` settles."""
        try:
            with self._engine.connect() as conn:
                self._write(conn, [write])
        except Exception as exc:
            write.done.set_exception(exc)
        else:
            write.done.set_result(None)

    def write_soon(self, write: Write) -> None:
        """Queue an action's rows for a commit on the event loop at its next turn, which
        commits every action queued until then together; ``write.done`` settles after it.

        Moves come in bursts (many players, one loop), and a commit's disk sync is most
        of its cost: one sync per turn of the loop instead of one per move lets a burst
        drain sooner, and a quiet server commits each move a moment after it is made."""
        self._soon.append(write)
        if len(self._soon) == 1:
            asyncio.get_running_loop().call_soon(self._flush_soon)

    def close(self) -> None:
        """Give back the event loop's connection (the thread gives back its own). It is
        not pooled again: it gives up on a lock after a few milliseconds."""
        if self._loop_conn is not None:
            self._loop_conn.invalidate()
            self._loop_conn.close()
            self._loop_conn = None

    # -- on the event loop ------------------------------------------------------------------
    def _flush_soon(self) -> None:
        """The loop's turn: commit what ``write_soon`` queued, unless the thread is already
        writing what the loop handed it (a busy database), then after those."""
        batch, self._soon = self._soon, []
        if self._pending:
            self._hand_over(batch)
            return
        if self._loop_conn is None:
            try:
                self._loop_conn = self._engine.connect()
                wait_briefly(self._loop_conn)
            except Exception as exc:
                self._loop_conn = None
                for write in batch:
                    write.done.set_exception(exc)
                return
        self._flushing = threading.get_ident()
        try:
            self._loop_conn = self._commit_on(self._loop_conn, batch)
        except _Busy:  # rolled back, the connection is fine: the thread waits for the database
            self._hand_over(batch)
        finally:
            self._flushing = None

    def _hand_over(self, batch: list[Write]) -> None:
        for write in batch:
            self.submit(write)

    # -- in the writer thread ---------------------------------------------------------------
    def _run(self) -> None:
        # One connection for the thread's life: taking one from the pool and giving it
        # back (with its reset) per batch is Python work on the hot path, and every call
        # into the driver is another wait for the interpreter lock.
        conn: Connection | None = None
        try:
            while (batch := self._next_batch()) is not None:
                try:
                    conn = self._commit_on(conn, batch)
                finally:
                    with self._guard:
                        self._pending -= len(batch)
        finally:
            if conn is not None:
                conn.close()

    def _next_batch(self) -> list[Write] | None:
        """Every write waiting (at least one), or None when the thread has been idle for
        ``IDLE`` seconds and ends (a write submitted meanwhile starts a new one)."""
        while True:
            try:
                batch = [self._queue.get(timeout=self.IDLE)]
                break
            except queue.Empty:
                with self._guard:
                    if self._queue.empty():
                        self._thread = None
                        return None
        with contextlib.suppress(queue.Empty):
            while True:
                batch.append(self._queue.get_nowait())
        return batch

    # -- either way -------------------------------------------------------------------------
    def _commit_on(self, conn: Connection | None, batch: list[Write]) -> Connection | None:
        """Commit the batch on a kept connection (one is made if there is none); the
        connection to keep, or None after a failure (in doubt: the next batch gets a new
        one). Every write of the batch is settled either way."""
        if conn is None:
            try:
                conn = self._engine.connect()
            except Exception as exc:
                for write in batch:
                    write.done.set_exception(exc)
                return None
        if self._commit(conn, batch):
            return conn
        conn.invalidate()
        conn.close()
        return None

    def _commit(self, conn: Connection, batch: list[Write]) -> bool:
        """Write the batch, or each of its actions alone if it fails; False on a failure.
        On the event loop, raises ``_Busy`` (nothing written) when the database is busy."""
        try:
            self._write(conn, batch)
        except _Busy:
            raise
        except Exception as exc:
            if len(batch) == 1 or is_busy(exc):  # a busy database fails them all alike, at once
                for write in batch:
                    write.done.set_exception(exc)
                return False
            return self._write_apart(conn, batch)
        for write in batch:
            write.done.set_result(None)
        return True

    def _write_apart(self, conn: Connection, batch: list[Write]) -> bool:
        """After a batch failed: which one failed? Each action apart, so that the others
        stand; whether the connection is fit to keep.

        On PostgreSQL, in one transaction with a savepoint for each action: the one that
        fails is rolled back alone, and one commit covers the others. Several processes
        writing to the same games is where batches fail (an entry's place taken by
        another process): with 500 players in games across two processes, up to a tenth
        of the actions lost their place, the batches that failed held about 20 actions,
        and each written in a transaction of its own cost a disk sync apiece while every
        write behind them waited (a few hundred milliseconds a failure). Elsewhere each
        alone (:meth:`_write_each`): SQLite's driver does not keep savepoints as
        SQLAlchemy asks, and the event loop's commit waits for no lock."""
        if self._flushing == threading.get_ident() or conn.dialect.name != "postgresql":
            self._write_each(conn, batch)
            return False
        failed: dict[int, Exception] = {}
        try:
            with self._writes, conn.begin():
                for write in sorted(batch, key=lambda w: w.place):
                    try:
                        with conn.begin_nested():
                            self.execute(conn, [write])
                    except Exception as one:
                        failed[id(write)] = one
        except Exception as exc:  # the commit itself: none of them was written
            for write in batch:
                write.done.set_exception(exc)
            return False
        for write in batch:
            if id(write) in failed:
                write.done.set_exception(failed[id(write)])
            else:
                write.done.set_result(None)
        return True

    def _write_each(self, conn: Connection, batch: list[Write]) -> None:
        """After a batch failed: which one failed? Each alone, so that the others stand."""
        for write in batch:
            try:
                self._write(conn, [write])
            except _Busy:  # busy meanwhile (on the loop): the thread waits for it
                self.submit(write)
            except Exception as one:
                write.done.set_exception(one)
            else:
                write.done.set_result(None)

    def _write(self, conn: Connection, batch: list[Write]) -> None:
        """One transaction for the batch. A thread may wait its turn; the event loop waits
        a moment for this process's writers and one for SQLite's lock (the loop's
        connection waits ``LOOP_WAIT``), else raises ``_Busy`` and the thread takes it.

        The batch is written in the order of its entries' places. Two processes writing
        batches on the same games lock the same rows (an entry's key in the log, its
        game's row): in different orders, each may wait for a row the other holds, and
        PostgreSQL breaks such a deadlock only after a second (``deadlock_timeout``),
        failing one batch. Measured with 500 players in games across two processes: up
        to 10 deadlocks in a run (over 100 with the savepoints of :meth:`_write_apart`,
        whose transactions are longer), each holding up a writer and every action behind
        it for a second; in one order, none."""
        if len(batch) > 1:
            batch = sorted(batch, key=lambda w: w.place)
        if self._flushing != threading.get_ident():
            with self._writes, conn.begin():
                self.execute(conn, batch)
            return
        lock = self._file_lock
        if lock is not None and not lock.acquire(timeout=LOOP_WAIT):
            raise _Busy
        try:
            with conn.begin():
                self.execute(conn, batch)
        except DBAPIError as exc:
            if is_busy(exc):
                raise _Busy from exc
            raise
        finally:
            if lock is not None:
                lock.release()
