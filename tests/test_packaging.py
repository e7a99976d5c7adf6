"""The package as a player gets it: ``pip install mummy`` and ``mummy serve``.

The other tests import the checkout (an editable install), where every file of ``src/``
is at hand whether the wheel carries it or not. These build the wheel from a copy of the
project, compare its files with ``src/mummy`` (so that a file the package reads at run time
but ``pyproject.toml``'s package-data misses is caught before a player meets it), install
it in a fresh virtual environment with its dependencies alone, and start ``mummy serve``
from there, in an empty folder, as a player would: the start page, every static file, both
games' content, the migrations and a new game must all be served from what was installed.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from websockets.sync.client import connect

from mummy.server.deploy.process import free_port
from mummy.web.content import tomb_content, treasure_content
from tests.without_extras import EXTRAS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "mummy"
#: What building and installing may take at most, with the dependencies to download.
PIP_TIMEOUT = 600
#: What the installed server may take to answer its first request.
START_TIMEOUT = 60.0
#: Modules of the extras (cluster, research, postgres, print, analysis, dev, examples) and
#: pytest: a player's install has none.
EXTRAS_MODULES = tuple(sorted(EXTRAS | {"pytest"}))


def _skipped(path: Path) -> bool:
    """Files a build leaves in the tree that are not the package's: byte code, editors' and
    the system's hidden files."""
    return "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo") or path.name.startswith(".")


def source_files(package: Path = PACKAGE) -> set[str]:
    """Every file of ``src/mummy`` (or a copy of it) as the wheel should name it (``mummy/...``)."""
    return {f"mummy/{p.relative_to(package).as_posix()}" for p in package.rglob("*")
            if p.is_file() and not _skipped(p.relative_to(package))}


def _pip(*args: str, cwd: Path) -> None:
    """pip of the interpreter running the tests (its index, its cache), quiet unless it fails."""
    done = subprocess.run([sys.executable, "-m", "pip", "--quiet", *args], cwd=cwd, env=_player_env(),
                          capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"


def _player_env() -> dict[str, str]:
    """The environment without anything that would lead Python to the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}


def _isolation() -> list[str]:
    """Build with the setuptools at hand when it is recent enough (``make test`` installs
    it: no download, no isolated environment to make), otherwise as pip would by default."""
    try:
        major = int(importlib.metadata.version("setuptools").split(".")[0])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return []
    return ["--no-build-isolation"] if major >= 77 else []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the project so that the build leaves nothing in the
    checkout (``build/``, ``*.egg-info``) that other runs would trip on."""
    work = tmp_path_factory.mktemp("build")
    tree = work / "project"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*"))
    _pip("wheel", "--no-deps", *_isolation(), "--wheel-dir", str(work / "dist"), str(tree), cwd=work)
    (built,) = (work / "dist").glob("mummy-*.whl")
    return built


def test_the_wheel_carries_every_file_of_the_package_and_nothing_else(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        carried = {n for n in z.namelist() if n.startswith("mummy/") and not n.endswith("/")}
    # The copy the wheel was built from: the checkout may have changed since.
    source = source_files(wheel.parent.parent / "project" / "src" / "mummy")
    missing = source - carried
    assert not missing, f"pyproject.toml's package-data misses: {sorted(missing)}"
    assert not carried - source, f"the wheel carries files src/mummy lacks: {sorted(carried - source)}"


def test_the_source_files_check_sees_data_files_in_every_folder() -> None:
    # The comparison above is only as good as this listing: it must see the kinds of file
    # package-data names (and no byte code), or a missing folder would go unnoticed.
    files = source_files()
    for expected in ("mummy/py.typed", "mummy/tomb/data/map1.txt", "mummy/treasure/data/sites.txt",
                     "mummy/server/store/migrations/env.py", "mummy/web/static/index.html"):
        assert expected in files
    assert any(f.startswith("mummy/web/static/rules/") and f.endswith(".md") for f in files)
    assert any(f.startswith("mummy/server/store/migrations/versions/") for f in files)
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the wheel and its dependencies
    (from the index pip uses here) and nothing else: its ``bin`` folder."""
    home = tmp_path_factory.mktemp("player")
    env = home / "venv"
    # No pip of its own (ensurepip costs seconds): this pip installs into it.
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    _pip("--python", str(python), "install", str(wheel), cwd=home)
    return env / "bin"


def test_a_players_install_holds_the_package_and_no_extra(installed: Path) -> None:
    probe = ("import importlib.util, json, mummy; "
             f"print(json.dumps([mummy.__file__, [m for m in {EXTRAS_MODULES!r} if importlib.util.find_spec(m)]]))")
    done = subprocess.run([str(installed / "python"), "-c", probe], cwd=installed.parent.parent,
                          env=_player_env(), capture_output=True, text=True, timeout=60, check=True)
    location, extras = json.loads(done.stdout)
    assert Path(location).is_relative_to(installed.parent), f"mummy imported from {location}, not the install"
    assert extras == [], f"the play install brings packages of the extras: {extras}"


def _get(url: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``mummy serve`` from the install, run in an empty folder on a new SQLite file: its
    address and its database file."""
    home = tmp_path_factory.mktemp("serve")
    db = home / "mummy.db"
    port = free_port()
    proc = subprocess.Popen([str(installed / "mummy"), "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                            cwd=home, env=_player_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert proc.poll() is None, f"mummy serve stopped: {proc.stdout.read().decode() if proc.stdout else ''}"
            try:
                if _get(f"{base}/api/health")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "mummy serve did not answer in time"
            time.sleep(0.1)
        yield base, db
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


def test_the_installed_server_serves_the_start_page_and_every_static_file(
        served: tuple[str, Path], wheel: Path) -> None:
    base, _ = served
    status, page = _get(f"{base}/")
    assert status == 200 and b"<html" in page.lower()
    # Compared with the wheel's copy (the wheel's test compares its list with src/): the
    # checkout may have changed since the build.
    prefix = "mummy/web/static/"
    with zipfile.ZipFile(wheel) as z:
        static = {n.removeprefix(prefix): z.read(n) for n in z.namelist() if n.startswith(prefix)}
    assert "index.html" in static
    for path, data in sorted(static.items()):
        status, body = _get(f"{base}/static/{path}")
        assert (status, body) == (200, data), f"/static/{path} answered {status}"


@pytest.mark.parametrize(("game", "content"), [("tomb", tomb_content), ("treasure", treasure_content)])
def test_the_installed_server_serves_each_games_content(served: tuple[str, Path], game: str, content: Any) -> None:
    # The maps, tile table, sites and piles come from the package's data files (T10, R1).
    status, body = _get(f"{served[0]}/api/content/{game}")
    assert status == 200
    assert json.loads(body) == json.loads(json.dumps(content()))


def test_the_installed_server_migrates_its_database_and_plays(served: tuple[str, Path]) -> None:
    base, db = served
    status, body = _get(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "me"}], "seed": 7})
    assert status == 201, body
    created = json.loads(body)
    status, view = _get(f"{base}/api/games/{created['id']}")
    assert status == 200 and json.loads(view)["id"] == created["id"]
    # Live play needs a websocket implementation in the install (uvicorn brings none).
    live = f"ws{base.removeprefix('http')}/ws/games/{created['id']}?token={created['seats'][0]['token']}"
    with connect(live, open_timeout=20) as ws:
        first = json.loads(ws.recv(timeout=20))
    assert (first["type"], first["version"]) == ("state", 0)
    cfg = Config()
    cfg.set_main_option("script_location", str(PACKAGE / "server" / "store" / "migrations"))
    with sqlite3.connect(db) as conn:
        (version,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert version == ScriptDirectory.from_config(cfg).get_current_head()
