"""How the pages load (docs/web.md, "Loading a game page"): the start page fetches only the
content its form shows, a game page is told by the server every module and stylesheet
it needs (no waterfall of imports), and the game is never drawn before its stylesheet."""

from __future__ import annotations

import re
from urllib.parse import urlparse

from tests.web.conftest import Watched, create

#: Notes, at the first drawing of the sheet, whether the game's stylesheet was in force.
FIRST_DRAW = """
(() => {
  new MutationObserver((_, watcher) => {
    if (!document.querySelector("#sheet [data-square]")) return;
    watcher.disconnect();
    const sheet = [...document.styleSheets].find((s) => s.href && s.href.includes("/static/css/tomb.css"));
    window.firstDraw = { styled: Boolean(sheet && sheet.cssRules.length) };
  }).observe(document, { childList: true, subtree: true });
})();
"""


def _asked(requests: list[str], prefix: str) -> list[str]:
    return [urlparse(u).path for u in requests if urlparse(u).path.startswith(prefix)]


def test_the_start_page_fetches_the_content_of_its_form_only(web: Watched) -> None:
    page = web.page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(web.base + "/")
    page.wait_for_selector("#app[data-ready=yes]")
    assert _asked(requests, "/api/content/") == ["/api/content/tomb"]
    assert page.locator("#tomb-map option").count() >= 2  # the maps, from the content
    # The other game's content when the form switches to it, once.
    page.select_option("#game-kind", "treasure")
    page.wait_for_function("() => performance.getEntriesByType('resource')"
                           ".some((e) => e.name.includes('/api/content/treasure'))")
    page.select_option("#game-kind", "tomb")
    page.select_option("#game-kind", "treasure")
    assert _asked(requests, "/api/content/") == ["/api/content/tomb", "/api/content/treasure"]


def test_the_best_sites_fetch_their_content_when_about_to_be_used(web: Watched) -> None:
    page = web.page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(web.base + "/")
    page.wait_for_selector("#app[data-ready=yes]")
    page.hover("#best-treasure-site")
    page.wait_for_function("() => performance.getEntriesByType('resource')"
                           ".some((e) => e.name.includes('/api/content/treasure'))")
    assert _asked(requests, "/api/content/") == ["/api/content/tomb", "/api/content/treasure"]


def test_a_game_page_asks_for_what_its_head_names_and_draws_styled(web: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ada"}], "seed": 3})
    page = web.page()
    page.add_init_script(FIRST_DRAW)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.firstDraw") == {"styled": True}
    head = page.evaluate("() => [...document.head.querySelectorAll('link')].map((l) => [l.rel, l.href])")
    named = {urlparse(href).path for rel, href in head if rel in ("modulepreload", "stylesheet", "preload")}
    modules = set(_asked(requests, "/static/js/"))
    # Every module the page ran (but results.js, loaded once the game is over) was named in
    # its head: fetched at once, not one level of imports after another.
    assert modules and modules - {"/static/js/play.js"} <= named, sorted(modules - named)
    assert "/static/js/tomb/page.js" in modules and not [m for m in modules if "treasure" in m]
    assert set(_asked(requests, "/static/css/")) <= named
    assert _asked(requests, "/api/content/") == ["/api/content/tomb"]  # the preload, used
    # Versioned, each of them.
    assert all(re.search(r"\?v=[0-9a-f]{12}$", href) for rel, href in head if rel != "icon")


def test_a_game_page_opens_one_websocket_before_its_modules_and_plays_on_it(web: Watched) -> None:
    """The game page's head opens the game's websocket while the modules load (play.html),
    and the live game takes it over with the first view it brought: one socket a page,
    made while the page was still being read (the modules run once it has been), and
    moves go through it."""
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ada"}], "seed": 3})
    page = web.page()
    page.add_init_script("""(() => {
      const Native = window.WebSocket;
      window.socketsMade = [];
      window.WebSocket = class extends Native {
        constructor(...args) { super(...args); window.socketsMade.push(document.readyState); }
      };
    })()""")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(urlparse(ws.url).path))
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    page.wait_for_function("() => window.mummyLive && window.mummyLive.status === 'open'")
    assert sockets == [f"/ws/games/{created['id']}"]
    assert page.evaluate("() => window.socketsMade") == ["loading"]
    version = page.evaluate("() => window.mummyLive.view.version")
    first = page.evaluate("() => window.mummyLive.view.legal[0]")
    page.evaluate("(text) => window.mummyLive.act(text)", first)
    page.wait_for_function("(v) => window.mummyLive.view.version > v", arg=version)
    assert len(sockets) == 1 and page.evaluate("() => window.socketsMade.length") == 1  # still the one socket
