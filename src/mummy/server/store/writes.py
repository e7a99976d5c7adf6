"""What a write of the log is, for the repository that executes it and the writer that
commits it (``writer``): one action's rows waiting for their commit, the function that
writes a batch on a connection, and the process's write lock. Apart from both, so that
the repository (the SQL) does not import the writer (the threads and transactions).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from sqlalchemy import Connection

#: The process's write lock (SQLite's writers queue on it), or no lock at all.
WriteLock: TypeAlias = "threading.Lock | contextlib.nullcontext[None]"


@dataclass
class Write:
    """One action's rows, waiting for the writer; ``done`` is settled after the commit.
    The stamp of the game's last action also carries its result (``b_result``)."""

    row: dict[str, Any]
    stamp: dict[str, Any]
    done: Future[None] = field(default_factory=Future)

    def __post_init__(self) -> None:
        # Running from the start, so nobody can cancel it: the action is already applied
        # in memory, and its write must end one way or the other.
        self.done.set_running_or_notify_cancel()

    @property
    def place(self) -> tuple[str, int]:
        """The entry's place: its game and its version (the log's key)."""
        return self.row["game_id"], self.row["seq"]


#: Writes one batch's rows on a connection, inside the transaction the writer opened.
Execute = Callable[[Connection, list[Write]], None]
