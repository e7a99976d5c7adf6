"""Browser tests: the real server in its own process, and Debian's Chromium driven by
Playwright (which must not download a browser of its own).

Every page is watched: a request to anything but our server is refused and fails the
test (the client makes no external requests), and so does an uncaught script error.
Screenshots go to ``test-artifacts/`` (not committed).

Without Chromium the tests are skipped, unless ``MUMMY_REQUIRE_BROWSER=1`` (``.ci/run``
sets it), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

pytest.importorskip("fastapi")

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from mummy.server.deploy.process import UNLIMITED, call, free_port, start

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = os.environ.get("MUMMY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
#: The flags this machine's closed network needs (no background connections at all).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-default-apps", "--disable-extensions"]


def need_browser() -> None:
    """Skip without Playwright or Chromium, or fail when the run requires a browser."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("MUMMY_REQUIRE_BROWSER") == "1":
            pytest.fail("playwright is not installed")
        pytest.skip("playwright is not installed")
    if not CHROMIUM:
        if os.environ.get("MUMMY_REQUIRE_BROWSER") == "1":
            pytest.fail("Chromium is not installed (apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """``mummy serve`` on a fresh SQLite file; yields its base URL."""
    yield from served()


def served(env: dict[str, str] | None = None) -> Iterator[str]:
    """``mummy serve`` on a fresh SQLite file, with ``env`` added to its environment
    while it starts (it inherits it); yields its base URL."""
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            # Every page from one address; a loaded machine may take a while to start it.
            proc = start(f"sqlite:///{Path(tmp) / 'web.db'}", port, wait=60, args=UNLIMITED)
            try:
                yield f"http://127.0.0.1:{port}"
            finally:
                proc.kill()
                proc.wait()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class _Chromium:
    """The one Chromium of the browser tests, launched on first need and closed as soon as
    the next test does not need it.

    Playwright's sync API keeps an event loop marked as running in this thread for as long
    as it is started, so that ``asyncio.run`` anywhere else (tests/server does) fails with
    "cannot be called from a running event loop". A session-wide browser made the suite
    pass only in one order; here the browser lives only through a run of browser tests,
    whatever the order (``pytest_runtest_teardown`` below)."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        return self.browser

    def close(self) -> None:
        if self.playwright is not None:
            try:
                self.browser.close()
            finally:
                self.playwright.stop()  # the event loop stops being "running" here
                self.playwright = self.browser = None


CHROMIUM_NOW = _Chromium()


@pytest.fixture
def browser() -> Any:
    """The shared Chromium (launched if no browser test ran just before)."""
    need_browser()
    return CHROMIUM_NOW.get()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's own teardown: close the browser unless the next test uses it."""
    yield
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        CHROMIUM_NOW.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    CHROMIUM_NOW.close()  # a run stopped early (-x) has no next test to tell


class Watched:
    """A browser context whose pages may talk to our server only, and must not throw."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int]) -> None:
        self.base = base
        self.context = browser.new_context(viewport=viewport)
        self.outside: list[str] = []
        self.errors: list[str] = []
        host = urlparse(base).netloc

        def route(r: Any) -> None:
            if urlparse(r.request.url).netloc == host:
                r.continue_()
            else:
                self.outside.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)

    def page(self) -> Any:
        page = self.context.new_page()
        host = urlparse(self.base).netloc
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        # A Content Security Policy violation is only a console message: catch those too.
        page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                if m.type == "error" and "Content Security Policy" in m.text else None)
        # Websockets do not pass through routing: check their hosts here.
        page.on("websocket", lambda ws: None if urlparse(ws.url).netloc == host else self.outside.append(ws.url))
        page.set_default_timeout(15_000)
        return page

    def check(self) -> None:
        assert not self.outside, f"requests outside our server: {self.outside}"
        assert not self.errors, f"script errors: {self.errors}"


class Touch:
    """The browser, opening contexts with a touch screen (Playwright's hasTouch): for a
    phone's fixture, ``watched(Touch(browser), ...)``."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        return self.browser.new_context(**options, has_touch=True, is_mobile=True)


def watched(browser: Any, base: str, viewport: dict[str, int]) -> Iterator[Watched]:
    """A watched context of this size for a fixture to yield from: closed, and checked for
    script errors and outside requests, after the test."""
    w = Watched(browser, base, viewport)
    try:
        yield w
    finally:
        try:
            w.check()
        finally:
            w.context.close()


@pytest.fixture
def web(browser: Any, server: str) -> Iterator[Watched]:
    """A fresh, watched browser context on the test server (desktop size)."""
    yield from watched(browser, server, {"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Watched]:
    """The same at a phone's size."""
    yield from watched(browser, server, {"width": 390, "height": 844})


def shot(page: Any, name: str) -> None:
    """Save a screenshot of the whole page as ``test-artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """Create a game over HTTP (as the start page does); returns the server's answer."""
    result: dict[str, Any] = call(f"{base}/api/games", body)
    return result


def api(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    return call(f"{base}{path}", body, token)


# The page's live game (js/play.js exposes it as window.mummyLive). Functions, not
# expression strings, for wait_for_function: the page's CSP forbids eval.
def live_view(page: Any) -> dict[str, Any]:
    """The newest view the page holds."""
    view: dict[str, Any] = page.evaluate("() => window.mummyLive.view")
    return view


def page_version(page: Any) -> int:
    """The version of the view the page holds."""
    return int(page.evaluate("() => window.mummyLive.view.version"))


def wait_moved(page: Any, above: int) -> None:
    """Wait until the page holds a view newer than version ``above``."""
    page.wait_for_function("v => window.mummyLive.view && window.mummyLive.view.version > v", arg=above)


def play_to_end(base: str, body: dict[str, Any] | None = None, daily: str | None = None) -> tuple[str, str]:
    """Create a one-person game (or a daily one) and play ``legal[0]`` until it is over."""
    if daily:
        created = api(base, f"/api/daily/{daily}", {"name": (body or {}).get("name")})
    else:
        assert body is not None
        created = create(base, body)
    game_id, token = created["id"], created["seats"][0]["token"]
    view = api(base, f"/api/games/{game_id}", token=token)
    for n in range(2000):
        if view["over"]:
            return game_id, token
        answer = api(base, f"/api/games/{game_id}/actions",
                     {"client_id": f"t{n}", "version": view["version"], "action": view["legal"][0]}, token)
        view = answer["state"]
    raise AssertionError("the game did not end")


def play_greedy_tomb(base: str, game_id: str, token: str, seed: int) -> None:
    """Play a solo Tomb game on map1 (created on ``seed``) to its end: the greedy bot
    chooses on a copy of the game and each move goes over HTTP. A real game, with a real
    score and real mistakes, for the results screen's pictures and the review to find."""
    tomb = KINDS["tomb"]
    mirror = tomb.new(seed, {"map": "map1", "mode": "standard"}, ["Jane"])
    bot = make_agent("tomb", "greedy", 7)
    version = 0  # solo and without bots: every action is one version
    while not mirror.is_over:
        text = tomb.text(mirror, 0, bot.act(mirror, 0))
        tomb.apply(mirror, 0, text)
        api(base, f"/api/games/{game_id}/actions", {"client_id": f"g{version}", "version": version, "action": text},
            token=token)
        version += 1


def start_page(web: Watched) -> Any:
    """The start page in a new page of ``web``, once its script has set it up."""
    page = web.page()
    page.goto(web.base + "/")
    page.wait_for_selector("#app[data-ready=yes]")
    return page


def seat_field(n: int, part: str) -> str:
    """The selector of a part (``name``, ``kind``, ...) of the start form's seat ``n``."""
    return f"#seats li.seat:nth-child({n}) .{part}"
