"""The tutorial in a real browser: the rulebook's First Round Example (T9) played to its end
on the game page's own board and controls (the same dice, tool buttons, pictures and words
as a Tomb game), wrong moves explained and not taken; its game kept in the browser, so a
reload resumes it (no new game) and "Start again" makes a fresh one; at a phone's size by
tap, tap; and axe-core over it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mummy.games import KINDS
from mummy.server.coaching.tutorial import example_seed
from tests.web.conftest import Touch, Watched, api, shot, watched

TOMB = KINDS["tomb"]
EXAMPLE = ["1:5a.r0@J1", "2:5b.r3@J4", "3:2a.r0@E6", "buy2", "4:2b.r0@F2", "end"]


@pytest.fixture
def touch_phone(browser: Any, server: str) -> Iterator[Watched]:
    """A phone with a touch screen (taps preview, a second tap places)."""
    yield from watched(Touch(browser), server, {"width": 390, "height": 844})


def _step(page: Any, k: int) -> None:
    page.wait_for_selector(f"#app[data-step='{k}']")


def _version(page: Any) -> int:
    return int(page.evaluate("() => window.mummyTutorial.view.version"))


def _game_id(page: Any) -> str:
    return str(page.evaluate("() => window.mummyTutorial.game.id"))


def _wrong(page: Any, *words: str) -> str:
    text: str = page.inner_text("#coach-wrong")
    for w in words:
        assert w in text, (w, text)
    return text


def _next(page: Any) -> str:
    return str(page.get_attribute("#coach-do", "data-next"))


def _place(page: Any, slot: int, shape: str, orient: str, square: str, k: int, tap: bool = False) -> None:
    """One of the example's tiles, through the game page's own controls: the die, the
    shape, the orientation (each ringed when it is the one to use), then the square."""
    assert _next(page) == "die" and page.locator(f"#dice .next-move[data-slot='{slot}']").count() == 1
    page.click(f"#dice [data-slot='{slot}']")
    assert _next(page) == "shape" and page.locator(f"#tools .next-move[data-shape='{shape}']").count() == 1
    page.click(f"#tools [data-shape='{shape}']")
    if _next(page) == "orient":
        assert page.locator(f"#tools .next-move[data-orient='{orient}']").count() == 1
        page.click(f"#tools [data-orient='{orient}']")
    assert _next(page) == "square"
    assert page.locator(f".example-layer [data-example='{square}']").count() == 1  # the example's place, ringed
    assert page.locator(f"#sheet [data-target='{square}']").count() == 1  # and lit up, as in a game
    target = f"#sheet [data-square='{square}']"
    if tap:
        page.tap(target)  # a first tap previews, as on the game page
        assert _next(page) == "confirm" and page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
        assert page.locator("#place-here.next-move").count() == 1
        page.tap(target)
    else:
        page.hover(target)
        assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
        page.click(target)
    _step(page, k + 1)


def _first_step_with_wrong_moves(page: Any) -> None:
    assert [page.get_attribute(f"#dice [data-slot='{s}']", "data-value") for s in (1, 2)] == ["5", "5"]
    assert page.locator("#dice .next-move").count() == 2  # either 5 will do (equal dice, T4.2)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")  # legal, not the example's: explained, not chosen
    _wrong(page, "T2.2", "cross")
    assert "selected" not in (page.get_attribute("#tools [data-shape='5b']", "class") or "")
    page.click("#tools [data-shape='5a']")
    assert page.inner_text("#coach-wrong") == ""
    page.click("#tools [data-orient='r0']")
    page.click("#sheet [data-square='H2']")  # illegal: the engine refuses it with its rule
    page.wait_for_function("() => document.querySelector('#coach-wrong').textContent.includes('refuses')")
    _wrong(page, "T3.2", "Nothing changed")
    page.click("#sheet [data-square='B10']")  # legal (the left entrance), not the example's: not sent
    _wrong(page, "top entrance")
    assert _version(page) == 0
    shot(page, "learn-tutorial-wrong-desktop")
    page.click("#sheet [data-square='J1']")
    _step(page, 1)


def test_the_tutorial_played_to_its_end(web: Watched) -> None:
    page = web.page()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(web.base + "/tutorial")
    _step(page, 0)
    # The game page's own controls and board, not a copy: its layout, dice, buttons, log.
    for selector in [".tomb-layout", ".tomb-controls #coach", "#dice button.die", "#end", "#buy", "#buy2", "#undo",
                     "#sheet", ".tomb-side [data-fold='tiles']", ".tomb-side [data-fold='monsters']"]:
        assert page.locator(selector).count() >= 1, selector
    assert "T3.2" in page.inner_text("#coach-why")  # the move and why, with its rules, beside the panels
    shot(page, "learn-tutorial-step1-desktop")
    _first_step_with_wrong_moves(page)
    assert "open openings" in page.inner_text("#coach-after")

    assert page.is_disabled("#dice [data-slot='1']")  # used (T4.2), as in any game
    _place(page, 2, "5b", "r3", "J4", 1)
    assert page.get_attribute("[data-coins]", "data-coins") == "3"
    assert page.get_attribute("#dice [data-slot='3']", "data-value") == "2"  # row 5's bonus (T2.4)
    assert "T2.4" in page.inner_text("#coach-after")
    shot(page, "learn-tutorial-step3-desktop")

    assert page.is_disabled("#end") and "T4.4" in (page.get_attribute("#end", "title") or "")  # dice left
    _place(page, 3, "2a", "r0", "E6", 2)
    assert _next(page) == "choose" and page.locator("#buy2.next-move").count() == 1
    page.click("#buy5")  # allowed, not the example's: explained, not bought
    _wrong(page, "T4.3", "fork")
    page.click("#buy")  # a random die: explained, not bought
    _wrong(page, "T4.3")
    assert page.get_attribute("[data-coins]", "data-coins") == "3"
    page.click("#buy2")
    _step(page, 4)
    assert page.get_attribute("[data-coins]", "data-coins") == "0"
    _place(page, 4, "2b", "r0", "F2", 4)
    assert page.locator("#sheet [data-finding='F2'].collected").count() == 1
    assert page.locator("#sheet [data-finding='G3'].collected").count() == 1
    shot(page, "learn-tutorial-step6-desktop")
    assert _next(page) == "end" and page.locator("#end.next-move").count() == 1
    page.click("#end")
    page.wait_for_selector("#app[data-ready='done']")
    shot(page, "learn-tutorial-end-desktop")

    # The game was a real one, and goes on as the player's own from round 2.
    t = page.evaluate("() => window.mummyTutorial.game")
    view = api(web.base, f"/api/games/{t['id']}", token=t["token"])
    mirror = TOMB.new(example_seed(), {"map": "map1", "mode": "standard"}, ["You"])
    for text in EXAMPLE:
        TOMB.apply(mirror, 0, text)
    assert view["state"]["sheets"][0]["covered"] == TOMB.view(mirror)["sheets"][0]["covered"]
    assert view["state"]["sheets"][0]["tracks"] == TOMB.view(mirror)["sheets"][0]["tracks"]
    page.click("#play-on")
    page.wait_for_selector("#sheet")
    page.wait_for_function("() => window.mummyLive && window.mummyLive.view")
    view = page.evaluate("() => window.mummyLive.view")
    assert view["state"]["round"] == 2
    assert view["state"]["sheets"][0]["dice"]["row"][0]["value"] == 5  # the bonus 5 carried (T2.5)


def test_a_reload_resumes_the_tutorial_and_start_again_makes_a_new_one(web: Watched) -> None:
    """The tutorial's game is kept in the browser: a reload finds it where it was, without
    creating a game; "Start again" is the only way to a fresh one."""
    page = web.page()
    created: list[str] = []
    page.on("request", lambda r: created.append(r.url) if r.method == "POST" and r.url.endswith("/api/games") else None)
    page.goto(web.base + "/tutorial")
    _step(page, 0)
    assert len(created) == 1
    first = _game_id(page)
    _place(page, 1, "5a", "r0", "J1", 0)

    page.reload()
    _step(page, 1)
    assert len(created) == 1  # no new game
    assert _game_id(page) == first and _version(page) == 1
    assert page.locator("#sheet [data-square='J1']").count() == 1
    assert "open openings" in page.inner_text("#coach-after")  # what the last step did, told again
    page.goto(web.base + "/tutorial")  # coming back later resumes too
    _step(page, 1)
    assert len(created) == 1 and _game_id(page) == first

    page.click("#restart")
    _step(page, 0)
    page.wait_for_function("id => window.mummyTutorial.game && window.mummyTutorial.game.id !== id", arg=first)
    assert len(created) == 2 and _version(page) == 0
    # The old game is left as it was (it is an ordinary game): one move, round 1.
    assert api(web.base, f"/api/games/{first}")["version"] == 1


def test_a_kept_game_that_is_gone_starts_a_new_one(web: Watched) -> None:
    page = web.page()
    page.goto(web.base + "/")
    page.evaluate("s => localStorage.setItem('mummy.tutorial', "
                  "JSON.stringify({id: 'no-such-game', token: 'x', seed: s}))", example_seed())
    page.goto(web.base + "/tutorial")
    _step(page, 0)
    assert _game_id(page) != "no-such-game"
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('mummy.tutorial'))")
    assert kept["id"] == _game_id(page)


def test_the_tutorial_on_a_phone(touch_phone: Watched) -> None:
    page = touch_phone.page()
    page.goto(touch_phone.base + "/tutorial")
    _step(page, 0)
    shot(page, "learn-tutorial-step1-phone")
    small = page.eval_on_selector_all(
        "#coach button, #dice button, #tools button, .tomb-global button",
        "els => els.filter(e => { const r = e.getBoundingClientRect();"
        " return e.offsetParent !== null && (r.width < 44 || r.height < 44); }).map(e => e.outerHTML.slice(0, 60))")
    assert small == []  # touch targets of 44 px at least
    _place(page, 1, "5a", "r0", "J1", 0, tap=True)
    _place(page, 2, "5b", "r3", "J4", 1, tap=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "learn-tutorial-step3-phone")
    _place(page, 3, "2a", "r0", "E6", 2, tap=True)
    page.tap("#buy2")
    _step(page, 4)
    _place(page, 4, "2b", "r0", "F2", 4, tap=True)
    page.tap("#end")
    page.wait_for_selector("#app[data-ready='done']")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "learn-tutorial-end-phone")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation(web: Watched, touch_phone: Watched, size: str) -> None:
    """axe-core over the tutorial with a wrong move's explanation shown (tests/web/test_a11y.py
    scans its first step with the other pages)."""
    from tests.web.test_a11y import scan

    watched_ = web if size == "desktop" else touch_phone
    page = watched_.page()
    page.goto(watched_.base + "/tutorial")
    _step(page, 0)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    _wrong(page, "T2.2")
    assert scan(page, f"learn-tutorial-{size}") == []
