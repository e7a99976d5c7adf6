"""The server's log lines (``mummy serve --log-format text|json``, docs/deploy.md §7):
every process, workers included, and uvicorn's own loggers, write to standard error
through one handler, as plain text or as one JSON object per line.

Why a configuration of our own: without one, Python prints only warnings and above, with
no time, no level and no logger, and uvicorn its own lines its own way; the lines a
deployment routes (``mummy.server.ws``'s websockets closed for a reason, at INFO) were
lost. Why JSON: a container's or a cloud's log collector reads fields (time, level,
logger, process, game, client) without parsing prose, and a traceback stays in its line.

A JSON line has ``time`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``,
``message``, ``process`` (the writing process's id), ``exception`` (a traceback, when
there is one), every field the code passes with ``extra=`` (a game id, a client address,
a close code), and, while a request or websocket is being served, the ``game`` its path
names and its ``client`` address (:class:`RequestFields`; a field passed with ``extra=``
wins). The standard library only: ``json.dumps`` in a ``logging.Formatter``; no package
does this enough better to be worth a dependency of every player's install.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from types import TracebackType
from typing import Any, Final

#: The formats ``--log-format`` takes; the first is the default.
FORMATS: Final = ("text", "json")
#: The environment's say when ``--log-format`` is not given (a container's setting). The
#: workers and the coaching children inherit it: :func:`configure` sets it.
ENV: Final = "MUMMY_LOG_FORMAT"
#: Our loggers' level: INFO, so that a websocket closed for a reason is one line. Every
#: other logger (uvicorn's, SQLAlchemy's, Alembic's) writes from WARNING on.
LEVEL: Final = logging.INFO

#: The attributes every LogRecord has: anything else on a record came with ``extra=``.
_STANDARD: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
#: What a JSON line always has, in this order (``extra=`` cannot replace them).
_KEYS: Final = ("time", "level", "logger", "message", "process")

#: The fields of the request or websocket the current task serves (see :class:`RequestFields`).
_request: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("mummy_log_request", default=None)
#: Paths that name a game: the HTTP API's, the websocket's, and the pages'.
_GAME_PATH: Final = re.compile(r"/(?:api/games|ws/games|play|replay)/([^/]+)")

_configured: str | None = None


def utc_time(created: float) -> str:
    """A record's time as ISO 8601 in UTC, to the millisecond: ``2025-05-01T09:30:00.125Z``."""
    seconds = int(created)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int((created - seconds) * 1000):03d}Z"


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a record carries beyond the standard ones (``extra=``, and the request's)."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line (newlines in a message or a traceback are
    escaped), in ASCII: whatever a message holds, every line parses."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": utc_time(record.created), "level": record.levelname, "logger": record.name,
                               "message": record.getMessage(), "process": record.process}
        for key, value in fields_of(record).items():
            out.setdefault(key, value)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=True, default=str)


class TextLines(logging.Formatter):
    """``time level logger process: message key=value ...``, and a traceback below."""

    def format(self, record: logging.LogRecord) -> str:
        line = (f"{utc_time(record.created)} {record.levelname} {record.name} {record.process}: "
                f"{record.getMessage()}")
        extra = fields_of(record)
        if extra:
            line += " " + " ".join(f"{k}={v}" for k, v in extra.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class _Request(logging.Filter):
    """Adds the ``game`` and ``client`` of the request being served to a record that
    does not carry its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _request.get()
        if fields:
            for key, value in fields.items():
                if not hasattr(record, key):
                    setattr(record, key, value)
        return True


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`configure` installs (so that a second call replaces it)."""


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class RequestFields:
    """ASGI middleware: while a request or websocket is served, the lines written carry
    the ``game`` its path names (``/api/games/{id}…``, ``/ws/games/{id}``, ``/play/{id}``,
    ``/replay/{id}``) and its ``client`` address (after uvicorn's ``X-Forwarded-For``).

    Each request and websocket runs in an asyncio task of its own, with a copy of the
    context, so the fields are set for that task and never reset: uvicorn's own line about
    a request that failed, written after the app gave up, carries them too. A line written
    while serving one connection about another (an update one player's move caused that
    another connection is too slow to read) carries the first's ``client``: the line's
    own ``extra=``, when the code passes one, names the other."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            fields: dict[str, str] = {}
            match = _GAME_PATH.match(scope.get("path", ""))
            if match:
                fields["game"] = match.group(1)
            client = scope.get("client")
            if client:
                fields["client"] = str(client[0])
            _request.set(fields)
        await self.app(scope, receive, send)


def chosen(given: str | None = None) -> str:
    """The format: ``given`` (``--log-format``), else the environment's (``MUMMY_LOG_FORMAT``),
    else text. Raises ``ValueError`` for one that is not in :data:`FORMATS`."""
    fmt = (given or os.environ.get(ENV) or FORMATS[0]).strip().lower()
    if fmt not in FORMATS:
        raise ValueError(f"the log format is {' or '.join(FORMATS)}, not {fmt!r} (--log-format or {ENV})")
    return fmt


class Sampled(logging.Filter):
    """At most ``burst`` lines of one kind (logger and message template, whatever their
    arguments) per ``window`` seconds; the rest are counted, and the next line of that
    kind after the window says how many were left out (``... (N more like this in the
    last 10 s)``). Warnings and errors always pass.

    Why: refused websockets wrote a line each, 65 KiB/s from one client, ~5.8 GB a day.
    A template repeated that often says nothing more with each line, and the
    disk is everybody's."""

    def __init__(self, burst: int = 20, window: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._clock = clock
        self._kinds: dict[tuple[str, str], list[float]] = {}  # kind -> [window's start, lines, left out]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        key = (record.name, str(record.msg))
        now = self._clock()
        with self._lock:
            kind = self._kinds.get(key)
            if kind is None or now - kind[0] >= self.window:
                left_out = int(kind[2]) if kind is not None else 0
                if len(self._kinds) > 1000:  # kinds are templates: few; bounded all the same
                    self._kinds.clear()
                self._kinds[key] = [now, 1, 0]
                if left_out:
                    record.msg = f"{record.msg} ({left_out} more like this in the last {self.window:g} s)"
                return True
            if kind[1] < self.burst:
                kind[1] += 1
                return True
            kind[2] += 1
            return False


def configure(fmt: str | None = None) -> str:
    """Send every log line of this process to standard error in the format chosen
    (:func:`chosen`): our loggers from INFO, everyone else's (uvicorn's included: it is
    then started with ``log_config=None``, so that it adds no handlers of its own) from
    WARNING. In JSON, Python's warnings and uncaught exceptions (of the main thread and of
    the others) are lines too. The format is put in the environment, for the processes
    this one starts. Idempotent; the format."""
    global _configured
    fmt = chosen(fmt)
    handler = _Handler(sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else TextLines())
    handler.addFilter(Sampled())
    handler.addFilter(_Request())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("mummy").setLevel(LEVEL)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    if fmt == "json":
        logging.captureWarnings(True)
        sys.excepthook = _uncaught
        threading.excepthook = _uncaught_in_thread
    os.environ[ENV] = fmt
    _configured = fmt
    return fmt


def configured() -> str | None:
    """The format :func:`configure` set in this process, if it was called."""
    return _configured


def _uncaught(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, exc, tb)
        return
    logging.getLogger("mummy.server").critical("uncaught %s", kind.__name__, exc_info=(kind, exc, tb))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "?"
    logging.getLogger("mummy.server").error("uncaught %s in thread %s", args.exc_type.__name__, name,
                                            exc_info=(args.exc_type, args.exc_value, args.exc_traceback))


__all__ = ["ENV", "FORMATS", "JsonLines", "RequestFields", "Sampled", "TextLines", "chosen", "configure", "configured",
           "fields_of", "utc_time"]
