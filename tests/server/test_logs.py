"""The server's log lines (docs/deploy.md §7, issue 16's "structured logs"): a real
``mummy serve --log-format json`` writes one JSON object per line on standard error, from
every process (the workers of ``--workers`` too) and from uvicorn's own loggers, with the
time, level, logger, message and process, and the fields a line carries (the game and the
client of the request it was written for, a close code passed with ``extra=``)."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from mummy.server.api.logs import JsonLines, Sampled, TextLines, utc_time
from mummy.server.deploy.process import call, free_port
from tests.server.players import WAIT, post

KEYS = {"time", "level", "logger", "message", "process"}


def serving(db: str, port: int, stderr: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None,
            wait: float = 30) -> subprocess.Popen[bytes]:
    """``mummy serve`` with its standard error in a file and its standard output kept,
    once it answers /api/health."""
    out = stderr.with_suffix(".out")
    proc = subprocess.Popen([sys.executable, "-m", "mummy.cli", "serve", "--port", str(port), "--db", db, *args],
                            stdout=out.open("wb"), stderr=stderr.open("wb"), env={**os.environ, **(env or {})})
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            call(f"http://127.0.0.1:{port}/api/health", timeout=2)
            return proc
        except OSError:
            assert proc.poll() is None, stderr.read_text()
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the server did not start: {stderr.read_text()}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(40)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise


def json_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of the file as JSON, each checked to have the keys every line has, and
    a time in ISO 8601, UTC, of the last minutes."""
    lines = path.read_text().splitlines()
    assert lines, "nothing was logged"
    out = []
    for line in lines:
        obj = json.loads(line)  # every line is one JSON object
        assert isinstance(obj, dict) and set(obj) >= KEYS, line
        when = datetime.fromisoformat(obj["time"].replace("Z", "+00:00"))
        assert when.utcoffset() == timedelta(0) and obj["time"].endswith("Z"), line
        # mummy serve runs in a process of its own, on the real clock (this one's is pinned)
        assert abs(time_machine.escape_hatch.time.time() - when.timestamp()) < 600, line
        assert isinstance(obj["process"], int) and isinstance(obj["message"], str), line
        out.append(obj)
    return out


def closed_for_a_reason(address: str) -> str:
    """A game, and a websocket to it closed by the server for a message that is no
    object (1008 ``unknown message type``, a line of ``mummy.server.ws``); the game's id."""
    created = post(f"http://{address}/api/games", {"game": "treasure", "seats": [{"name": "Ann"}], "seed": 5})
    with connect(f"ws://{address}/ws/games/{created['id']}", open_timeout=WAIT) as ws:
        ws.recv(timeout=WAIT)
        ws.send("[1]")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    return str(created["id"])


def bad_request(address: str) -> None:
    """Bytes that are no HTTP: uvicorn answers 400 and logs a warning of its own."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT) as s:
        s.sendall(b"\x00\x01 not http\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 400")


def test_every_line_of_mummy_serve_in_json_is_an_object_with_its_fields(tmp_path: Path) -> None:
    port = free_port()
    err = tmp_path / "serve.log"
    proc = serving(f"sqlite:///{tmp_path / 'games.db'}", port, err, ("--log-format", "json"))
    address = f"127.0.0.1:{port}"
    try:
        game_id = closed_for_a_reason(address)
        bad_request(address)
    finally:
        stop(proc)
    assert proc.returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again once it has stopped
    lines = json_lines(err)
    assert {line["process"] for line in lines} == {proc.pid}
    started = [line for line in lines if line["logger"] == "mummy.serve"]
    assert len(started) == 1 and started[0]["level"] == "INFO" and f":{port}/" in started[0]["message"]
    assert err.with_suffix(".out").read_text() == ""  # in JSON, the start is a line of the log
    closes = [line for line in lines if line["logger"] == "mummy.server.ws"]
    assert len(closes) == 1, lines
    assert closes[0]["level"] == "INFO" and "1008 unknown message type" in closes[0]["message"]
    assert closes[0]["game"] == game_id and closes[0]["client"] == "127.0.0.1"  # the websocket's
    assert any(line["logger"] == "uvicorn.error" and line["level"] == "WARNING" and "Invalid HTTP" in line["message"]
               for line in lines)


def test_text_stays_the_default_and_shows_the_same_lines(tmp_path: Path) -> None:
    port = free_port()
    err = tmp_path / "serve.log"
    proc = serving(f"sqlite:///{tmp_path / 'games.db'}", port, err, env={"MUMMY_LOG_FORMAT": ""})
    try:
        game_id = closed_for_a_reason(f"127.0.0.1:{port}")
    finally:
        stop(proc)
    text = err.read_text()
    assert "{" not in text
    close = next(line for line in text.splitlines() if " mummy.server.ws " in line)
    assert f" INFO mummy.server.ws {proc.pid}: websocket from 127.0.0.1 closed: 1008 unknown message type" in close
    assert f"game={game_id}" in close and "client=127.0.0.1" in close
    assert err.with_suffix(".out").read_text().startswith(f"mummy: open http://127.0.0.1:{port}/")


def test_a_log_format_that_is_none_is_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mummy.cli", "serve", "--port", str(free_port()),
                           "--db", f"sqlite:///{tmp_path / 'games.db'}"], capture_output=True, text=True,
                          timeout=WAIT, env={**os.environ, "MUMMY_LOG_FORMAT": "xml"})
    assert done.returncode == 2
    assert "the log format is text or json, not 'xml'" in done.stderr


def test_a_refusal_at_the_start_is_a_json_line_too(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mummy.cli", "serve", "--workers", "2", "--log-format", "json",
                           "--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'one.db'}"],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = (json.loads(text) for text in done.stderr.splitlines())
    assert line["level"] == "ERROR" and line["logger"] == "mummy.serve"
    assert "--workers needs PostgreSQL" in line["message"]


def test_warnings_and_uncaught_exceptions_are_json_lines(tmp_path: Path) -> None:
    """What Python would print on its own (a warning, a thread's uncaught exception, the
    main thread's) is a line too, its traceback inside it."""
    script = ("import threading, warnings\n"
              "from mummy.server.api import logs\n"
              "logs.configure('json')\n"
              "warnings.warn('a warning')\n"
              "t = threading.Thread(target=lambda: 1 / 0, name='doomed'); t.start(); t.join()\n"
              "raise RuntimeError('the end')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=WAIT,
                          env={k: v for k, v in os.environ.items() if k != "MUMMY_LOG_FORMAT"})
    assert done.returncode == 1
    err = tmp_path / "err.log"
    err.write_text(done.stderr)
    lines = json_lines(err)
    assert [(line["logger"], line["level"]) for line in lines] == [
        ("py.warnings", "WARNING"), ("mummy.server", "ERROR"), ("mummy.server", "CRITICAL")]
    assert "a warning" in lines[0]["message"]
    assert "doomed" in lines[1]["message"] and "ZeroDivisionError" in lines[1]["exception"]
    assert "RuntimeError: the end" in lines[2]["exception"]


def test_a_line_keeps_its_extra_fields_and_its_traceback_on_one_line() -> None:
    logger = logging.getLogger("mummy.server.test")
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        record = logger.makeRecord("mummy.server.ws", logging.INFO, __file__, 1, "closed: %d %s", (1013, "é\nx"),
                                   sys.exc_info(), extra={"code": 1013, "game": "g1", "when": datetime(2026, 1, 1)})
    text = JsonLines().format(record)
    assert "\n" not in text and text.isascii()
    obj = json.loads(text)
    assert obj["message"] == "closed: 1013 é\nx" and obj["code"] == 1013 and obj["game"] == "g1"
    assert obj["when"] == "2026-01-01 00:00:00"  # what JSON cannot hold is written as text
    assert obj["logger"] == "mummy.server.ws" and obj["process"] == os.getpid()
    assert "ValueError: bad\nthing" in obj["exception"]
    assert "code=1013 game=g1" in TextLines().format(record)
    assert utc_time(0.125) == "1970-01-01T00:00:00.125Z"


@pytest.fixture
def pg(db_url: str) -> Iterator[str]:
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL")
    yield db_url


@pytest.mark.slow
def test_workers_and_their_supervisor_write_json_lines(pg: str, tmp_path: Path) -> None:
    """``--workers 2`` (the format from the environment): the workers' lines and the
    parent's (a worker killed, and started again) are JSON, each with its own process."""
    port = free_port()
    err = tmp_path / "serve.log"
    proc = serving(pg, port, err, ("--workers", "2"), env={"MUMMY_LOG_FORMAT": "json"}, wait=60)
    address = f"127.0.0.1:{port}"
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2:  # the second may start a while after the first answers
            assert time.monotonic() < deadline, workers
            workers.add(call(f"http://{address}/api/health")["process"])
        assert proc.pid not in workers
        closed_for_a_reason(address)
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while '"worker"' not in err.read_text():
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.05)
    finally:
        stop(proc)
    assert proc.returncode == 0
    lines = json_lines(err)
    (died,) = (line for line in lines if line.get("worker") == victim)
    assert died["process"] == proc.pid and died["level"] == "WARNING" and died["exit_code"] == -signal.SIGKILL
    (close,) = (line for line in lines if line["logger"] == "mummy.server.ws")
    assert close["process"] in workers and close["client"] == "127.0.0.1"


def test_repeated_lines_are_sampled_and_say_how_many_were_left_out() -> None:
    """Issue 32: refused websockets wrote a line each, 65 KiB/s from one client."""
    now = [0.0]
    sampled = Sampled(burst=3, window=10.0, clock=lambda: now[0])

    def record(n: int, level: int = logging.INFO, msg: str = "websocket from %s closed: %d %s") -> logging.LogRecord:
        return logging.LogRecord("mummy.server.ws", level, __file__, 1, msg, (f"10.0.0.{n}", 1013, "x"), None)

    kept = [sampled.filter(record(n)) for n in range(10)]
    assert kept == [True] * 3 + [False] * 7
    assert sampled.filter(record(99, msg="another line %s %s %s"))  # another kind has its own count
    assert sampled.filter(record(11, logging.WARNING))  # warnings always pass
    now[0] = 10.0
    summary = record(12)
    assert sampled.filter(summary)
    assert summary.getMessage() == "websocket from 10.0.0.12 closed: 1013 x (7 more like this in the last 10 s)"
    assert sampled.filter(record(13))
