"""The game log panel (js/log.js, contracts §1) in a real browser: the server's sentences
shown newest last, the notation hidden until "Show notation" (remembered by this
browser), a new move added to the list without redrawing the rest (so it is announced),
newEntries for animating moves that arrive together, and the copy button."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Watched, api, create, live_view, shot

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5

MOUNT = """async () => {
  const log = await import("/static/js/log.js");
  window.logModule = log;
  document.querySelectorAll(".test-log").forEach((n) => n.remove());
  const panel = log.logPanel(window.mummyLive.view);
  panel.classList.add("test-log");
  document.body.append(panel);  // beside the page, which redraws its own #app
}"""


def _game(base: str) -> tuple[str, str]:
    created = create(base, {"game": "tomb", "seats": [{"name": "Ann"}], "seed": FIVE_FIVE})
    return created["id"], created["seats"][0]["token"]


def _act(base: str, game_id: str, token: str, text: str, n: int) -> None:
    version = api(base, f"/api/games/{game_id}", token=token)["version"]
    body = {"client_id": f"log{n}", "version": version, "action": text}
    api(base, f"/api/games/{game_id}/actions", body, token=token)


def _open(web: Watched, game_id: str, token: str, version: int) -> Any:
    page = web.page()
    page.goto(f"{web.base}/play/{game_id}#token={token}")
    page.wait_for_function("v => window.mummyLive && window.mummyLive.view && window.mummyLive.view.version >= v",
                           arg=version)
    page.evaluate(MOUNT)
    return page


def test_the_log_panel_shows_sentences_and_the_toggle_reveals_notation(web: Watched) -> None:
    game_id, token = _game(web.base)
    _act(web.base, game_id, token, "1:5a.r0@J1", 1)
    _act(web.base, game_id, token, "2:5b.r3@J4", 2)
    page = _open(web, game_id, token, 2)
    panel = page.locator(".test-log")
    sentences = panel.locator(".log-sentence").all_inner_texts()
    assert sentences == [e["sentence"] for e in live_view(page)["log"]]
    assert sentences[0].startswith("Cross at J1") and sentences[1].startswith("Corner at J4")
    assert panel.get_attribute("aria-labelledby") and panel.locator("ol.log-list[aria-live=polite]").count() == 1
    notation = panel.locator(".log-notation").first
    assert not notation.is_visible()  # notation only on request
    assert panel.locator(".log-entry").first.get_attribute("title") == "1:5a.r0@J1"  # and as a tooltip
    shot(page, "log-panel-desktop-sentences")
    panel.get_by_label("Show notation").check()
    assert notation.is_visible() and notation.inner_text() == "1. 1:5a.r0@J1"
    shot(page, "log-panel-desktop-notation")
    page.reload()  # the toggle is remembered by this browser
    page.wait_for_function("() => window.mummyLive && window.mummyLive.view")
    page.evaluate(MOUNT)
    assert page.locator(".test-log .log-notation").first.is_visible()
    assert page.locator(".test-log").get_by_label("Show notation").is_checked()


def test_a_new_move_is_added_to_the_list_and_told_by_new_entries(web: Watched) -> None:
    game_id, token = _game(web.base)
    _act(web.base, game_id, token, "1:5a.r0@J1", 1)
    page = _open(web, game_id, token, 1)
    page.evaluate("""() => {
      window.firstItem = document.querySelector(".test-log .log-entry");
      window.prevView = window.mummyLive.view;
    }""")
    _act(web.base, game_id, token, "2:5b.r3@J4", 2)
    page.wait_for_function("() => window.mummyLive.view.version >= 2")
    added = page.evaluate("""() => {
      const panel = document.querySelector(".test-log");
      window.logModule.updateLog(panel, window.mummyLive.view);
      return {
        same: document.querySelector(".test-log .log-entry") === window.firstItem,
        count: panel.querySelectorAll(".log-entry").length,
        fresh: window.logModule.newEntries(window.prevView, window.mummyLive.view).map((e) => e.text),
        none: window.logModule.newEntries(null, window.mummyLive.view).length,
      };
    }""")
    assert added == {"same": True, "count": 2, "fresh": ["2:5b.r3@J4"], "none": 0}


def test_the_copy_button_copies_the_notation(web: Watched) -> None:
    game_id, token = _game(web.base)
    _act(web.base, game_id, token, "1:5a.r0@J1", 1)
    web.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = _open(web, game_id, token, 1)
    page.locator(".test-log .log-copy").click()
    page.wait_for_function("() => document.querySelector('.test-log .log-copied').textContent === 'Copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == "1. Ann: 1:5a.r0@J1"


def test_the_log_panel_fits_a_phone(phone: Watched) -> None:
    game_id, token = _game(phone.base)
    for n, text in enumerate(("1:5a.r0@J1", "2:5b.r3@J4"), start=1):
        _act(phone.base, game_id, token, text, n)
    page = _open(phone, game_id, token, 2)
    box = page.locator(".test-log").bounding_box()
    assert box is not None and box["width"] <= 390
    for control in (page.locator(".test-log .log-copy"), page.locator(".test-log .log-switch")):
        size = control.bounding_box()
        assert size is not None and size["height"] >= 44  # a touch target
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "log-panel-phone")
