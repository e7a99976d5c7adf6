"""The Mummy's Tomb page as a player meets it (issue 13): equal dice both choosable, the
Monster Log's gems, no empty message bar, the whole map and the chosen die's controls on
one screen at desktop sizes, pieces drawn with their open sides, tap-to-preview on a phone,
and a warning before a harmful move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from tests.helpers import FIVE_FIVE_SEED
from tests.web.conftest import ARTIFACTS, Touch, Watched, api, create, live_view, page_version, wait_moved, watched

TOMB = KINDS["tomb"]


@pytest.fixture
def laptop(browser: Any, server: str) -> Iterator[Watched]:
    """A watched context at 1366×768, the commonest laptop screen."""
    yield from watched(browser, server, {"width": 1366, "height": 768})


@pytest.fixture
def wide(browser: Any, server: str) -> Iterator[Watched]:
    yield from watched(browser, server, {"width": 1920, "height": 1080})


@pytest.fixture
def touch(browser: Any, server: str) -> Iterator[Watched]:
    """A phone (390×844) with a touch screen: taps, not clicks."""
    yield from watched(Touch(browser), server, {"width": 390, "height": 844})


def screen(page: Any, name: str) -> None:
    """What the screen shows (not the whole page) as ``test-artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _solo(w: Watched, seed: int = FIVE_FIVE_SEED, **config: Any) -> tuple[Any, dict[str, Any]]:
    created = create(w.base, {"game": "tomb", "seats": [{"name": "Jane"}], "seed": seed, **config})
    page = w.page()
    page.goto(w.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    return page, created


def _box(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).bounding_box()
    return box


def _inside(box: dict[str, float], width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def test_equal_dice_are_both_choosable_and_the_clicked_one_is_spent(web: Watched) -> None:
    """5 and 5: the engine lists each action once, at die 1 (T4.2: either die may be used);
    the page offers die 2 the same shapes and spends die 2 when it is the one clicked."""
    page, _ = _solo(web)
    assert [page.get_attribute(f"#dice [data-slot='{s}']", "data-value") for s in (1, 2)] == ["5", "5"]
    page.click("#dice [data-slot='2']")
    assert page.is_enabled("#tools [data-shape='5a']") and page.is_enabled("#tools [data-shape='5b']")
    page.click("#tools [data-shape='5a']")
    page.hover("#sheet [data-square='J1']")
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
    page.click("#sheet [data-square='J1']")
    wait_moved(page, 0)
    row = live_view(page)["state"]["sheets"][0]["dice"]["row"]
    assert [d["used"] for d in row] == [False, True]  # die 2 spent, die 1 still free
    assert page.is_enabled("#dice [data-slot='1']") and page.is_disabled("#dice [data-slot='2']")


def test_the_monster_log_marks_gems_off_with_their_golem(web: Watched) -> None:
    """T5.3: a 4 defeats a golem whose gem is circled; golem and gem are both marked off."""
    seed = 32  # the greedy bot (seed 7) finds a gem, then defeats its golem, by action 57
    page, created = _solo(web, seed)
    game_id, token = created["id"], created["seats"][0]["token"]
    mirror = TOMB.new(seed, {"map": "map1", "mode": "standard"}, ["Jane"])
    bot = make_agent("tomb", "greedy", 7)
    colour, version = None, 0

    def golems() -> dict[str, Any]:
        found: dict[str, Any] = TOMB.view(mirror)["sheets"][0]["tracks"]["monsters"]["golems"]
        return found

    while colour is None or not golems()[colour]["defeated"]:
        text = TOMB.text(mirror, 0, bot.act(mirror, 0))
        TOMB.apply(mirror, 0, text)
        body = {"client_id": f"c{version}", "version": version, "action": text}
        api(web.base, f"/api/games/{game_id}/actions", body, token)
        version += 1
        circled = [c for c, g in golems().items() if g["gem"] and not g["defeated"]]
        if colour is None and circled:
            colour = circled[0]
            page.wait_for_function("v => window.mummyLive.view.version >= v", arg=version)
            assert page.get_attribute(f".monster-log [data-gem='{colour}']", "class") == "mbox gem circled"
    page.wait_for_function("v => window.mummyLive.view.version >= v", arg=version)
    assert page.get_attribute(f".monster-log [data-gem='{colour}']", "class") == "mbox gem defeated"
    assert "marked off" in (page.get_attribute(f".monster-log [data-gem='{colour}']", "title") or "")


def test_a_new_game_shows_no_empty_message_bar(web: Watched) -> None:
    page, _ = _solo(web)
    assert not page.is_visible("#message")  # nothing to say yet: no bare "ℹ" line
    page.click("#sheet [data-square='H2']")  # a click with no die chosen: a hint appears
    assert page.is_visible("#message") and "Choose a die" in page.inner_text("#message")


@pytest.mark.usefixtures("browser")  # named: the browser stays open from one size to the next
@pytest.mark.parametrize("size", ["laptop", "wide"])
def test_one_screen_the_whole_map_and_the_dice_controls_and_nothing_moves(size: str,
                                                                         request: pytest.FixtureRequest) -> None:
    w: Watched = request.getfixturevalue(size)
    page, _ = _solo(w)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    before = _box(page, "#sheet")
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    page.hover("#sheet [data-square='J1']")
    after = _box(page, "#sheet")
    assert after == before, "the map moved when a die was chosen"
    assert _inside(after, width, height), f"the map {after} is not inside the {width}x{height} screen"
    for part in ("#dice", "#tools", "#end", "#tools [data-orient='r3']", "#rotate"):
        assert _inside(_box(page, part), width, height), f"{part} is off screen"
    assert page.evaluate("() => document.scrollingElement.scrollHeight") <= height + 1  # no page scroll
    screen(page, f"tomb-{size}-die-chosen")


def test_pieces_show_their_open_sides_and_the_sheet_explains_its_icons(web: Watched) -> None:
    page, _ = _solo(web)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")
    label = page.get_attribute("#tools [data-orient='r1']", "aria-label") or ""
    assert "corner turned a quarter right" in label and "2 openings" in label, label
    assert page.locator("#tools [data-orient='r1'] svg.piece line.open").count() == 2
    assert page.locator("#tools [data-orient='r1'] svg.piece line.wall").count() == 10  # 12 outer sides, 2 open
    page.hover("#sheet [data-square='J1']")
    assert page.locator("#sheet .preview-wall").count() == 10 and page.locator("#sheet .preview-open").count() == 2
    # Every finding and room on the sheet has a tooltip in words.
    findings = page.locator("#sheet [data-finding], #sheet [data-room]")
    titles = findings.evaluate_all("els => els.map(e => (e.querySelector('title') || {}).textContent || '')")
    assert titles and all(len(t) > 10 for t in titles), titles
    assert "coins" in page.locator("#sheet [data-square='I6'] title").text_content()


def test_a_phone_taps_to_preview_then_taps_again_to_place(touch: Watched) -> None:
    page, _ = _solo(touch)
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    page.tap("#dice [data-slot='1']")
    page.tap("#tools [data-shape='5b']")
    page.tap("#sheet [data-square='J1']")  # the first tap previews
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
    assert page_version(page) == 0 and page.is_visible("#place-here")
    screen(page, "tomb-phone-tap-preview")
    page.tap("#sheet [data-square='J1']")  # the second places
    wait_moved(page, 0)
    assert {"J1", "J2", "J3", "K3", "L3"} == set(live_view(page)["state"]["sheets"][0]["covered"])
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    page.tap("#dice [data-slot='2']")
    small = page.eval_on_selector_all(
        ".tomb-layout button", "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".filter(r => r.height < 44 || r.width < 44).length")
    assert small == 0, "touch targets under 44px"
    assert page.locator(".tomb-layout .kbd:visible").count() == 0  # no keyboard hints on a touch screen
    screen(page, "tomb-phone-placed")


def test_a_coin_that_buys_no_use_is_shown_before_paying_and_asks_first(laptop: Watched) -> None:
    """T4.3: on seed 1, after the first tile, the 4 turned to 5 (or 3) places no tile and
    defeats nothing: the ±1 buttons say how many uses the die would have (the Wand's), and
    paying asks first (the server's preview, warning "no_use"); Esc cancels, Confirm pays."""
    page, created = _solo(laptop, 1)
    api(laptop.base, f"/api/games/{created['id']}/actions", {"client_id": "a1", "version": 0, "action": "2:3a.f3@A11"},
        created["seats"][0]["token"])
    wait_moved(page, 0)
    page.click("#dice [data-slot='1']")
    page.wait_for_selector("#tools [data-action='1:up'] [data-uses]")
    assert page.get_attribute("#tools [data-action='1:up'] [data-uses]", "data-uses") == "8"  # the Wand's 8 edges
    page.click("#tools [data-action='1:up']")
    page.wait_for_selector("#warning[open]")
    assert page.locator("#warning li[data-code='no_use']").count() == 1
    assert page.evaluate("() => document.activeElement.id") == "warn-cancel"  # the safe choice has the focus
    screen(page, "tomb-warning-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#warning", state="detached")
    assert page_version(page) == 1 and page.get_attribute("[data-coins]", "data-coins") == "3"  # nothing paid
    assert "Cancelled" in page.inner_text("#message")
    assert page.get_attribute("#dice [data-slot='1']", "aria-pressed") == "true"  # still chosen
    page.click("#tools [data-action='1:up']")
    page.click("#warn-confirm")
    wait_moved(page, 1)
    assert page.get_attribute("#dice [data-slot='1']", "data-value") == "5"
    assert page.get_attribute("[data-coins]", "data-coins") == "2"


def test_a_failed_preview_is_asked_again_before_the_move(laptop: Watched) -> None:
    """A preview refused on the way (a rate limit, a dropped connection) must not switch the
    question off for that place: the click asks again, and the harmful coin still asks
    first (T4.3) rather than going through unasked ("never a silent waste")."""
    page, created = _solo(laptop, 1)
    api(laptop.base, f"/api/games/{created['id']}/actions", {"client_id": "a1", "version": 0, "action": "2:3a.f3@A11"},
        created["seats"][0]["token"])
    wait_moved(page, 0)
    refused: list[str] = []

    def first_refused(route: Any) -> None:
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=429, content_type="application/json", headers={"retry-after": "1"},
                          body='{"error": {"code": "too_many_requests", "message": "too many previews"}}')
        else:
            route.continue_()

    page.route("**/api/games/*/preview?action=1%3Aup", first_refused)
    page.click("#dice [data-slot='1']")  # the ±1 buttons ask for their previews: the first is refused
    page.click("#tools [data-action='1:up']")
    page.wait_for_selector("#warning[open]")
    assert refused and page.locator("#warning li[data-code='no_use']").count() == 1
    page.keyboard.press("Escape")
    page.wait_for_selector("#warning", state="detached")
    assert page_version(page) == 1  # nothing paid
