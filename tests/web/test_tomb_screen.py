"""The Tomb's page on a phone and under the hood (issue 13): the map and the chosen die's
controls on one phone screen, the counts of uses each die value would give shown on the
buy-a-value buttons before paying, one handler per preview on its way however often the
page is drawn meanwhile, the sheets' pattern ids defined once, and a placement that changes
the sheet in place rather than drawing it anew (web.place_tile_ms)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import FIVE_FIVE_SEED
from tests.web.conftest import ARTIFACTS, Touch, Watched, api, create, live_view, wait_moved, watched

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def touch(browser: Any, server: str) -> Iterator[Watched]:
    """A phone (390×844) with a touch screen: taps, not clicks."""
    yield from watched(Touch(browser), server, PHONE)


@pytest.fixture
def laptop(browser: Any, server: str) -> Iterator[Watched]:
    yield from watched(browser, server, {"width": 1366, "height": 768})


def screen(page: Any, name: str) -> None:
    """What the screen shows (not the whole page) as ``test-artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _open(w: Watched, body: dict[str, Any], init: str | None = None) -> tuple[Any, dict[str, Any]]:
    created = create(w.base, body)
    page = w.page()
    if init:
        page.add_init_script(init)
    page.goto(w.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    return page, created


def _solo(w: Watched, seed: int = FIVE_FIVE_SEED, init: str | None = None) -> tuple[Any, dict[str, Any]]:
    return _open(w, {"game": "tomb", "seats": [{"name": "Jane"}], "seed": seed}, init)


def _off_screen(page: Any, selector: str) -> list[str]:
    """The visible elements of ``selector`` not wholly inside the screen, described."""
    found: list[str] = page.eval_on_selector_all(selector, """els => els.filter((e) => e.offsetParent).map((e) => {
      const r = e.getBoundingClientRect();
      const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
      const name = e.id || e.dataset.orient || e.dataset.shape || e.dataset.action || e.textContent.trim();
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round);
      return inside ? null : `${name} at ${at[0]},${at[1]} to ${at[2]},${at[3]}`;
    }).filter(Boolean)""")
    return found


def test_a_phone_shows_the_map_and_the_chosen_dies_controls_without_scrolling(touch: Watched) -> None:
    """390×844: with a die and a shape chosen, the whole map, the dice and every control of
    that die (shapes, ±1, the orientations, turn and flip) are on the screen at once; after
    the first tap on a square its Place button is too."""
    page, _ = _solo(touch)
    page.tap("#dice [data-slot='1']")
    page.tap("#tools [data-shape='5b']")
    assert page.locator("#tools [data-orient]").count() == 4
    for part in ("#sheet", "#dice"):
        assert not _off_screen(page, part), f"{part} is not wholly on the screen"
    below = _off_screen(page, "#tools button")
    assert not below, f"the die's controls below the fold: {below}"
    screen(page, "tomb-phone-die-chosen")
    page.tap("#sheet [data-square='J1']")  # the first tap previews: Place and Cancel appear
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
    assert not _off_screen(page, "#sheet")
    assert not _off_screen(page, "#tools button"), f"off screen after a tap: {_off_screen(page, '#tools button')}"
    screen(page, "tomb-phone-tap-armed")
    # The buttons that need no die are still there, below the die's controls.
    page.tap("#dice [data-slot='1']")  # the die put back
    assert page.locator("#end").count() == 1 and page.locator("#undo").count() == 1
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]


def test_a_laptop_keeps_the_map_and_the_dies_controls_on_one_screen(laptop: Watched) -> None:
    page, _ = _solo(laptop)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    assert not _off_screen(page, "#sheet") and not _off_screen(page, "#tools button")
    screen(page, "tomb-laptop-die-chosen")


def test_the_buy_a_value_buttons_show_what_each_value_could_do_before_paying(laptop: Watched) -> None:
    """T4.3: a chosen die costs 3 coins; each of the six buttons shows the places and
    defeats a die of its value would have now: the server preview's `by_value`. Seed 2,
    after a room on the two dice (the greedy bot's first move): coins enough, and values
    that do more than others."""
    page, created = _solo(laptop, 2)
    game_id, token = created["id"], created["seats"][0]["token"]
    room = {"client_id": "a1", "version": 0, "action": "1+2:room.r0@A10"}
    api(laptop.base, f"/api/games/{game_id}/actions", room, token)
    wait_moved(page, 0)
    assert live_view(page)["state"]["sheets"][0]["tracks"]["coins"] >= 3  # enough for a chosen die
    expected = api(laptop.base, f"/api/games/{game_id}/preview?action=buy5", token=token)["by_value"]
    page.wait_for_selector("#buy6 [data-uses]")
    shown = {str(v): page.get_attribute(f"#buy{v} [data-uses]", "data-uses") for v in range(1, 7)}
    assert shown == {v: str(n) for v, n in expected.items()}
    assert len(set(expected.values())) > 1  # a real choice: some values do more than others
    label = page.get_attribute("#buy5", "aria-label") or ""
    assert f"{expected['5']} place" in label and "3 coins" in label, label
    screen(page, "tomb-laptop-buy-a-value-counts")


#: Counts the `then` handlers the ±1 buttons attach (their drawing, tools.js coinButton).
COUNT_THEN = """(() => {
  window.coinThens = 0;
  const then = Promise.prototype.then;
  Promise.prototype.then = function (...args) {
    if ((new Error().stack || "").includes("coinButton")) window.coinThens += 1;
    return then.apply(this, args);
  };
})();"""


def test_a_preview_on_its_way_gets_one_handler_however_often_the_page_is_drawn(laptop: Watched) -> None:
    """The ±1 buttons ask for their previews when the die is chosen; while the answers are
    on their way the page is drawn again (another shape chosen, again and again): each
    preview must get its handlers once, not once more per drawing (a leak that redrew the
    page as many times when the answer came)."""
    page, created = _solo(laptop, 1, init=COUNT_THEN)
    api(laptop.base, f"/api/games/{created['id']}/actions", {"client_id": "a1", "version": 0, "action": "2:3a.f3@A11"},
        created["seats"][0]["token"])
    wait_moved(page, 0)  # 3 coins: die 1 may be turned up or down
    held: list[Any] = []
    page.route("**/api/games/*/preview*", lambda route: held.append(route) if holding else route.continue_())
    holding = True  # the answers wait
    page.click("#dice [data-slot='1']")
    page.wait_for_function("() => window.coinThens > 0")
    first = page.evaluate("() => window.coinThens")
    for _ in range(4):  # put back and chosen again: drawn twice more each time
        page.click("#dice [data-slot='1']")
        page.click("#dice [data-slot='1']")
    assert page.locator("#tools [data-action='1:up'] [data-uses]").count() == 0  # still on their way
    assert page.evaluate("() => window.coinThens") == first, "a handler more for each drawing"
    holding = False
    for route in held:
        route.continue_()
    page.wait_for_selector("#tools [data-action='1:up'] [data-uses]")
    assert page.evaluate("() => window.coinThens") == first


def test_each_pattern_and_id_is_defined_once_in_the_page(laptop: Watched) -> None:
    """Two sheets on the page (yours and the bot's, small) and their patterns: every id
    once in the document, the stone squares filled with the one pattern there is."""
    page, _ = _open(laptop, {"game": "tomb", "seats": [{"name": "Jane"}, {"name": "Sphinx", "bot": "greedy"}],
                             "seed": FIVE_FIVE_SEED})
    assert page.locator("svg.sheet").count() >= 2
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for pattern in ("stone", "bad", "dug"):
        assert page.locator(f"pattern#{pattern}").count() == 1
    assert page.locator("#sheet rect[fill='url(#stone)']").count() > 0


def test_a_placement_changes_the_sheet_in_place(laptop: Watched) -> None:
    """After a tile is drawn the sheet is the same element, its untouched squares the same
    squares: only what the tile changed is redrawn (web.place_tile_ms)."""
    page, _ = _solo(laptop)
    page.evaluate("""() => { window.marked = [document.querySelector('#sheet'),
      document.querySelector("#sheet [data-square='A12']")]; }""")
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    targets = page.locator("#sheet [data-target]").count()
    assert targets > 0
    page.click("#sheet [data-square='J1']")
    wait_moved(page, 0)
    page.wait_for_selector("#sheet [data-wall]", state="attached")
    same = page.evaluate("""() => [document.querySelector('#sheet'),
      document.querySelector("#sheet [data-square='A12']")].map((e, i) => e === window.marked[i])""")
    assert same == [True, True]
    assert page.get_attribute("#sheet [data-square='J1']", "fill") == "#f1dfb4"  # now covered
    # Taken back, the kept sheet is as it was, and its targets light up again.
    page.click("#undo")
    wait_moved(page, 1)
    page.wait_for_selector("#sheet [data-wall]", state="detached")
    assert page.get_attribute("#sheet [data-square='J1']", "fill") == "#fffdf7"
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    assert page.locator("#sheet [data-target]").count() == targets
