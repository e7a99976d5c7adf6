"""Browser figures for `make bench`, in Debian's Chromium driven by Playwright.

* ``web.first_paint_ms``: from opening the start page to a drawn Tomb sheet: the page
  loads, the new-game form (a solo Tomb game, as it is by default) is sent, the game
  page loads, connects and draws the sheet. Median of several runs.
* ``web.place_tile_ms``: from the click on a square (die and tile chosen) to the tile
  drawn on the sheet, measured inside the page up to the next frame after the drawing:
  the websocket round trip, the engine's check and commit, the update and the redraw.
  Median over placements, each taken back with undo before the next.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mummy.server.process import call, free_port, start
from mummy.tomb.game import round_dice

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

#: In the page: click the square, then wait for the tile's walls and the next frame.
PLACE = """async (square) => {
  const t0 = performance.now();
  document.querySelector(`#sheet [data-square='${square}']`).dispatchEvent(new MouseEvent("click", {bubbles: true}));
  await new Promise((done) => {
    const drawn = () => document.querySelector("#sheet [data-wall]");
    const check = () => drawn() ? requestAnimationFrame(() => done()) : requestAnimationFrame(check);
    check();
  });
  return performance.now() - t0;
}"""


def _first_paint(page: Any, base: str) -> float:
    started = time.perf_counter()
    page.goto(base + "/")
    page.click("#create")
    page.wait_for_selector("#sheet [data-square]")
    return (time.perf_counter() - started) * 1000


def _place_tile(page: Any, base: str, runs: int) -> list[float]:
    seed = next(s for s in range(10_000) if round_dice(s, 1) == (5, 5))
    created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "bench"}], "seed": seed})
    page.goto(base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    times = []
    for _ in range(runs):
        page.click("#dice [data-slot='1']")
        page.click("#tools [data-shape='5a']")
        page.hover("#sheet [data-square='J1']")
        times.append(float(page.evaluate(PLACE, "J1")))
        version = page.evaluate("() => window.mummyLive.view.version")
        page.click("#undo")
        page.wait_for_function(
            "v => window.mummyLive.view.version > v && !document.querySelector('#sheet [data-wall]')", arg=version)
    return times


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
        proc = start(f"sqlite:///{Path(tmp) / 'web.db'}", port)
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            base = f"http://127.0.0.1:{port}"
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            _first_paint(page, base)  # warm: the browser's cache and the server's first game
            paints = [_first_paint(page, base) for _ in range(3 if quick else 10)]
            places = _place_tile(page, base, 5 if quick else 20)
        finally:
            browser.close()
            proc.kill()
            proc.wait()
    print("web samples (ms): first paint", [round(x) for x in paints], "place", [round(x) for x in places],
          file=sys.stderr)
    return {"web.first_paint_ms": round(statistics.median(paints), 1),
            "web.place_tile_ms": round(statistics.median(places), 1)}


if __name__ == "__main__":
    for key, value in bench_web("--quick" in sys.argv).items():
        print(f"{key:<24} {value}")
