"""Browser figures for `make bench`, in Debian's Chromium driven by Playwright.

* ``web.first_paint_ms``: from opening the start page to a drawn Tomb sheet: the page
  loads, the new-game form (a solo Tomb game, as it is by default) is sent, the game
  page loads, connects and draws the sheet. Median of several runs. Timed by the pages'
  own clock, as a person waits: the start page's loading (from its navigation to its
  ``load`` event), then from the click on "Create" to the frame that shows the sheet
  painted (as ``web.place_tile_ms`` ends). The click is dispatched in the page, as for a
  placement; the time Playwright takes to notice a load, check that a button can be
  clicked and send the click (about 140 ms per first paint on our machines, measured
  against the pages' clock) is the driver's, not the page's, and is not counted.
* ``web.place_tile_ms``: from the click on a square (die and tile chosen) to the tile
  drawn on the sheet, measured inside the page up to the end of the main thread's work
  for the frame that shows it (``PAINTED``): the websocket round trip, the engine's
  check and commit, the update, the redraw, and the frame's style, layout and paint.
  Median over placements, each taken back with undo before the next. (Until this
  version the end was the start of the frame after that one: one frame, up to 16.7 ms,
  more; ``bench_web`` prints that figure too.)
* ``web.page_bytes_first`` and ``web.page_bytes_repeat``: the bytes a Tomb game page
  takes over HTTP (headers and bodies of the page, its modules, styles, icon and the
  game's content) on a first visit with an empty cache, then on a person's next visit to
  the same game in the same browser: Chromium's own accounting (the DevTools protocol's
  ``encodedDataLength``, 0 for an answer from the cache). The game's state arrives over
  the websocket, which no cache can spare: its bytes are ``web.page_ws_bytes`` (on the
  repeat visit), so that the whole is in view.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mummy.server.deploy.process import call, free_port, start
from mummy.tomb.game import round_dice

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

#: In a page: ``painted(then)`` calls ``then`` once the main thread has done its work for
#: the next frame (its animation callbacks, style, layout and paint): a task posted from
#: the frame's animation callback runs after them.
PAINTED = """const painted = (then) => requestAnimationFrame(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => then();
  channel.port2.postMessage(null);
});"""

#: In the page: click the square; when the tile's walls are in the sheet, the time to the
#: frame that shows them painted, and (as measured before) to the start of the frame after.
PLACE = """async (square) => {
  /*PAINTED*/
  const t0 = performance.now();
  const times = {};
  const sheet = document.getElementById("sheet");
  const shown = new Promise((done) => {
    const watcher = new MutationObserver(() => {
      if (!sheet.querySelector("[data-wall]")) return;
      watcher.disconnect();
      painted(() => { times.painted = performance.now() - t0; done(); });
    });
    watcher.observe(sheet, {childList: true, subtree: true, attributes: true});
  });
  const polled = new Promise((done) => {
    const check = () => sheet.querySelector("[data-wall]")
      ? requestAnimationFrame(() => { times.polled = performance.now() - t0; done(); })
      : requestAnimationFrame(check);
    check();
  });
  sheet.querySelector(`[data-square='${square}']`).dispatchEvent(new MouseEvent("click", {bubbles: true}));
  await Promise.all([shown, polled]);
  return [times.painted, times.polled];
}""".replace("/*PAINTED*/", PAINTED)


#: In every page, before its own scripts: the start page notes how long it took to load
#: and when "Create" is clicked; the game page, when the frame that shows the drawn sheet
#: has been painted (``PAINTED``; ms since the epoch, the machine's clock in both pages).
TIMED = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  if (location.pathname === "/") {
    addEventListener("load", () => sessionStorage.setItem("bench.load", String(performance.now())));
    document.addEventListener("click", (e) => {
      if (e.target && e.target.id === "create") sessionStorage.setItem("bench.click", String(now()));
    }, true);
    return;
  }
  /*PAINTED*/
  const observer = new MutationObserver(() => {
    if (!document.querySelector("#sheet [data-square]")) return;
    observer.disconnect();
    painted(() => { window.benchSheetShown = now(); });
  });
  observer.observe(document, {childList: true, subtree: true});
})()""".replace("/*PAINTED*/", PAINTED)


def _first_paint(page: Any, base: str) -> tuple[float, float]:
    """One first paint on a page that runs ``TIMED``: (the start page's loading, the
    click to the sheet drawn), in ms."""
    page.goto(base + "/")
    page.wait_for_function("() => sessionStorage.getItem('bench.load')")
    page.evaluate("() => document.getElementById('create').click()")
    page.wait_for_function("() => window.benchSheetShown")
    loading, clicked, shown = page.evaluate("""() => [Number(sessionStorage.getItem('bench.load')),
        Number(sessionStorage.getItem('bench.click')), window.benchSheetShown]""")
    page.evaluate("() => sessionStorage.clear()")
    return float(loading), float(shown - clicked)


def _place_tile(page: Any, base: str, runs: int) -> list[tuple[float, float]]:
    """Placements of one tile, each taken back: (to the frame that shows it painted, to the
    start of the frame after), in ms, for each."""
    seed = next(s for s in range(10_000) if round_dice(s, 1) == (5, 5))
    created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "bench"}], "seed": seed})
    page.goto(base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    times = []
    for _ in range(runs):
        page.click("#dice [data-slot='1']")
        page.click("#tools [data-shape='5a']")
        page.hover("#sheet [data-square='J1']")
        painted, polled = page.evaluate(PLACE, "J1")
        times.append((float(painted), float(polled)))
        version = page.evaluate("() => window.mummyLive.view.version")
        page.click("#undo")
        page.wait_for_function(
            "v => window.mummyLive.view.version > v && !document.querySelector('#sheet [data-wall]')", arg=version)
    return times


@dataclass
class Transfer:
    """What one page load took over the network, as Chromium counts it."""

    http: dict[str, int] = field(default_factory=dict)  # URL -> bytes (headers and body)
    websocket: int = 0  # payload bytes of the frames received

    @property
    def http_bytes(self) -> int:
        return sum(self.http.values())


def visit(context: Any, url: str, ready: str = "#sheet [data-square]") -> Transfer:
    """Open ``url`` in a new page of ``context`` (whose cache the pages share), wait until
    ``ready`` is drawn and the network is quiet, and count what came in."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    urls: dict[str, str] = {}
    out = Transfer()

    def finished(e: dict[str, Any]) -> None:
        url = urls.get(e["requestId"], "?")
        out.http[url] = out.http.get(url, 0) + int(e["encodedDataLength"])

    def frame(e: dict[str, Any]) -> None:
        out.websocket += len(e["response"]["payloadData"].encode())

    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketFrameReceived", frame)
    cdp.send("Network.enable")
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    page.close()
    return out


def page_bytes(browser: Any, base: str) -> tuple[Transfer, Transfer]:
    """A Tomb game page's first visit (from its invitation, empty cache) and the next one
    (the same game, the seat's token remembered, the cache as the first visit left it)."""
    created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "bench"}]})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        first = visit(context, base + created["seats"][0]["invite"])
        repeat = visit(context, f"{base}/play/{created['id']}")
    finally:
        context.close()
    return first, repeat


def bench_web(quick: bool) -> dict[str, float]:
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("web figures skipped: playwright is not installed", file=sys.stderr)
        return {}
    if not chromium:
        print("web figures skipped: no chromium (apt-get install chromium)", file=sys.stderr)
        return {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        port = free_port()
        proc = start(f"sqlite:///{Path(tmp) / 'web.db'}", port, wait=60)
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            base = f"http://127.0.0.1:{port}"
            first, repeat = page_bytes(browser, base)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.add_init_script(TIMED)
            _first_paint(page, base)  # warm: the browser's cache and the server's first game
            parts = [_first_paint(page, base) for _ in range(3 if quick else 10)]
            paints = [loading + drawn for loading, drawn in parts]
            placed = _place_tile(page, base, 5 if quick else 20)
            places = [painted for painted, _ in placed]
        finally:
            browser.close()
            proc.kill()
            proc.wait()
    print("web samples (ms): first paint", [round(x) for x in paints], "place", [round(x) for x in places],
          file=sys.stderr)
    print("web place tile to the start of the frame after the one that shows it (as measured until "
          "then):", round(statistics.median(polled for _, polled in placed), 1), file=sys.stderr)
    print("web first paint's parts (ms): the start page's loading", [round(a) for a, _ in parts],
          "the click to the sheet", [round(b) for _, b in parts], file=sys.stderr)
    print(f"web bytes: first visit {first.http_bytes} in {len(first.http)} answers; repeat visit, "
          "what was not from the cache:", {u: n for u, n in repeat.http.items() if n}, file=sys.stderr)
    return {"web.first_paint_ms": round(statistics.median(paints), 1),
            "web.place_tile_ms": round(statistics.median(places), 1),
            "web.page_bytes_first": first.http_bytes,
            "web.page_bytes_repeat": repeat.http_bytes,
            "web.page_ws_bytes": repeat.websocket}


if __name__ == "__main__":
    for key, value in bench_web("--quick" in sys.argv).items():
        print(f"{key:<24} {value}")
