"""What other server processes commit, heard through PostgreSQL's ``LISTEN``.

Several processes may serve the same games from one PostgreSQL, and a game's websockets
may be open on any of them. Every entry written to a log (and every rematch claimed) is
announced by the database in the committing transaction (``NOTIFY mummy``, migration
0007). A :class:`Relay` is one thread with one connection of its own that listens, and
hands each notice from another process to ``heard(game_id, version, rematch)``; the app
(``Play.heard``) catches its copy of the game up from the log and tells its connections.

A notice of a log entry carries the entry (migration 0009) unless it is too large: the
process applies it to its copy without reading the log (``copies.Copies.hear``).

No new component: no broker to run, and a notice is only a hint. The log stays the truth,
so a notice lost or late costs only time: an action on a copy that is behind fails its
write and is checked again on the log (``copies.Lost``). When the listening connection
breaks, notices sent meanwhile are lost: once it is back, ``resync()`` is called, and the
app treats every game it holds as possibly behind.

SQLite serves one process: it has no ``LISTEN``, and no relay runs there.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from sqlalchemy import Engine

log = logging.getLogger("mummy.server.play.relay")

CHANNEL: Final = "mummy"  # as in migration 0007
#: Seconds the thread waits for notices before it looks whether it should stop.
POLL: Final = 0.5
#: Seconds between two attempts to listen again after the connection broke (at most).
RETRY: Final = 5.0


class Entry(NamedTuple):
    """A log entry as a notice carries it: what a copy in memory keeps of it
    (``live.LogEntry``)."""

    seq: int
    seat: int
    text: str
    affects: int
    client_id: str
    result: str


class Notice(NamedTuple):
    """A commit announced by the database: a game's new version (with its log entry, when
    the notice had room for it), or its rematch claimed."""

    game_id: str
    version: int
    origin: str
    rematch: bool
    entry: Entry | None = None

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice in a payload (``{game} {version} {origin}[ rematch| e:{entry}]``,
        migrations 0007 and 0009), or None. An entry that cannot be read is left out: the
        log is read instead."""
        parts = payload.split(" ")
        if len(parts) not in (3, 4) or not parts[1].isdigit():
            return None
        version = int(parts[1])
        entry = None
        if len(parts) == 4 and parts[3].startswith("e:"):
            try:
                fields = json.loads(base64.b64decode(parts[3][2:], validate=True))
                entry = Entry(version, int(fields["seat"]), str(fields["text"]), int(fields["affects"]),
                              str(fields["client_id"]), str(fields["result"]))
            except (binascii.Error, ValueError, TypeError, KeyError):
                log.warning("a notice's entry cannot be read: %.200s", payload)
        return cls(parts[0], version, parts[2], len(parts) == 4 and parts[3] == "rematch", entry)


class Relay:
    """A thread listening for other processes' commits on PostgreSQL (see the module).

    ``heard(notice)`` is called in the relay's thread for every notice whose origin is not
    ``origin`` (this process's); it must be quick (it hands work elsewhere). ``resync()``
    is called when listening starts again after a break."""

    def __init__(self, engine: Engine, origin: str | None, heard: Callable[[Notice], None],
                 resync: Callable[[], None]) -> None:
        self.engine = engine
        self.origin = origin
        self.heard = heard
        self.resync = resync
        self.listening = threading.Event()  # set while the connection listens (tests wait on it)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Listen in a thread of its own until :meth:`stop`."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="mummy-relay", daemon=True)
        self._thread.start()

    def stop(self, wait: float = 0.0) -> None:
        """Stop listening: the thread ends within ``POLL`` seconds (waited for up to ``wait``)."""
        self._stop.set()
        if self._thread is not None and wait:
            self._thread.join(wait)

    def _run(self) -> None:
        pause, broke = 0.1, False
        while not self._stop.is_set():
            try:
                conn = self._connect()
            except Exception as exc:  # the database is away: try again, more slowly each time
                log.warning("cannot listen for other processes' commits: %r", exc)
                self._stop.wait(pause)
                pause, broke = min(RETRY, pause * 2), True
                continue
            pause = 0.1
            try:
                self.listening.set()
                if broke:
                    self.resync()  # notices sent while the connection was down are lost
                self._listen(conn)
            except Exception as exc:
                if not self._stop.is_set():
                    log.warning("listening for other processes' commits broke: %s", exc)
                    broke = True
            finally:
                self.listening.clear()
                conn.close()

    def _connect(self) -> Any:
        """A connection of the engine's, out of its pool for good, in autocommit, listening."""
        raw = self.engine.raw_connection()
        conn = raw.driver_connection
        raw.detach()
        if conn is None:
            raise ConnectionError("no connection")
        conn.rollback()
        conn.autocommit = True
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def _listen(self, conn: Any) -> None:
        while not self._stop.is_set():
            for message in conn.notifies(timeout=POLL):
                notice = Notice.parse(message.payload)
                if notice is None or (self.origin is not None and notice.origin == self.origin):
                    continue
                try:
                    self.heard(notice)
                except Exception:  # a bug in a handler must not stop the listening
                    log.exception("handling %r", message.payload)
            if conn.closed:
                raise ConnectionError("the listening connection closed")
