"""Learning the game in a real browser: the rules page (every rule by its id, a search, the
legend drawn by the game's drawing code), the game page's link to it, and the tutorial,
the rulebook's First Round Example (T9), played to its end by clicking, wrong moves
explained and not taken."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mummy.games import KINDS
from mummy.server.tutorial import example_seed
from tests.web.conftest import ARTIFACTS, Watched, api, create, shot

TOMB = KINDS["tomb"]

STATIC = Path(__file__).resolve().parents[2] / "src" / "mummy" / "web" / "static"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules"


@pytest.mark.parametrize("game", ["tomb", "treasure"])
def test_the_packaged_rules_are_the_projects_rulings(game: str) -> None:
    """The package carries its own copy of the rulings (it never reads ../shared); the copy
    must not drift from them."""
    if not SHARED.is_dir():
        pytest.skip("the shared rulings are not beside this checkout")
    assert (STATIC / "rules" / f"{game}.md").read_bytes() == (SHARED / f"{game}.md").read_bytes()


@pytest.mark.parametrize("game", ["tomb", "treasure"])
def test_every_packaged_rule_is_the_one_the_docs_give(game: str) -> None:
    """Without ../shared (a clean clone): the packaged copy's numbered rules are, word for
    word, the rulings' appendix of docs/*-rules.md (which test_docs checks against the
    rulings where they are at hand), and none is missing on either side."""
    rule = re.compile(r"^- ([TR]\d+\.\d+) ")
    packaged = [line for line in (STATIC / "rules" / f"{game}.md").read_text().splitlines() if rule.match(line)]
    documented = (Path(__file__).resolve().parents[2] / "docs" / f"{game}-rules.md").read_text()
    appendix = documented[documented.index("## Appendix"):]
    listed = [line for line in appendix.splitlines() if rule.match(line)]
    assert packaged and packaged == listed


def _screen(page: Any, name: str) -> None:
    """A screenshot of what the window shows (these pages are long: the whole page says
    less than the screen a person sees)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _rule_ids(game: str) -> list[str]:
    text = (STATIC / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return re.findall(r"^- ([TR]\d+\.\d+) ", text, re.M)


def _shown(page: Any, selector: str) -> int:
    return int(page.eval_on_selector_all(selector, "els => els.filter(e => e.offsetParent !== null).length"))


def test_rules_by_id_searchable_with_a_legend(web: Watched) -> None:
    page = web.page()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(web.base + "/rules#T3.3")
    page.wait_for_selector("#app[data-ready='yes']")
    ids = _rule_ids("tomb") + _rule_ids("treasure")
    assert len(ids) == 51  # T1.1 … T8.3 and R1.1 … R5.1
    on_page = page.eval_on_selector_all("li.rule", "els => els.map(e => e.id)")
    assert on_page == ids  # every numbered rule, in order, under its own id
    target = page.locator("[id='T3.3']")
    assert "is-target" in (target.get_attribute("class") or "")
    assert "No wall of the tile lies on an edge" in target.inner_text()
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < 768  # scrolled to, below the sticky search bar
    _screen(page, "learn-rules-desktop")

    # A rule named in the text links to it.
    page.click("[id='T4.2'] a.rule-ref[href='#T6.4']")
    page.wait_for_function("() => location.hash === '#T6.4'")
    assert "is-target" in (page.get_attribute("[id='T6.4']", "class") or "")

    page.fill("#rules-search", "T5.3")
    assert _shown(page, "li.rule") == 1 and page.inner_text("#rules-count") == "1 rule found"
    page.fill("#rules-search", "skeleton key")
    found = page.eval_on_selector_all("li.rule", "els => els.filter(e => !e.hidden).map(e => e.id)")
    assert {"T4.3", "T6.5"} <= set(found) and "T1.1" not in found
    page.fill("#rules-search", "")
    assert _shown(page, "li.rule") == len(ids)

    # The legend: the game's own drawings (draw.js, symbols.js), each with its meaning.
    page.goto(web.base + "/rules#tomb-legend")
    page.wait_for_selector("#app[data-ready='yes']")
    for key, drawn in [("coins", ".icon-coins"), ("mimic", ".icon-mimic"), ("golem", ".icon-golem"),
                       ("sarcophagus", ".icon-sarcophagus"), ("gem", ".icon-gem"), ("items", ".icon-item"),
                       ("opening", "[data-opening]"), ("entrance-connected", "[data-entrance][data-state='connected']"),
                       ("collected", ".collected"), ("tile", "[data-wall]"), ("die", ".die-face")]:
        item = page.locator(f"[data-legend='{key}']")
        assert item.locator(drawn).count() >= 1, key
        assert len(item.inner_text()) > 20, key  # a name and a meaning
    assert page.locator(".legend-treasure [data-legend^='sym-'] svg").count() == 6  # S A E P C J (R1.1)
    _screen(page, "learn-legend-desktop")


def test_rules_and_legend_at_a_phones_width(phone: Watched) -> None:
    page = phone.page()
    page.goto(phone.base + "/rules#T2.1")
    page.wait_for_selector("#app[data-ready='yes']")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    _screen(page, "learn-rules-phone")
    page.goto(phone.base + "/rules#tomb-legend")
    page.wait_for_selector("#app[data-ready='yes']")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    _screen(page, "learn-legend-phone")


def test_the_game_page_links_to_the_rules_keeping_its_place(web: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}]})
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    link = page.locator("header #rules-link")
    assert link.get_attribute("href") == "/rules" and link.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_selector("#app[data-ready='yes']")
    assert rules.locator("[id='R3.3']").count() == 1
    assert "/play/" in page.url  # the game stays where it was
    start = web.page()
    start.goto(web.base + "/")
    assert start.get_attribute("#learn-link", "href") == "/tutorial"


def _step(page: Any, k: int) -> None:
    page.wait_for_selector(f"#app[data-step='{k}']")


def _version(page: Any) -> int:
    return int(page.evaluate("() => window.mummyTutorial.view.version"))


def _wrong(page: Any, *words: str) -> str:
    text: str = page.inner_text("#coach-wrong")
    for w in words:
        assert w in text, (w, text)
    return text


def _place(page: Any, slot: int, shape: str, orient: str, square: str, k: int) -> None:
    page.click(f"#dice [data-slot='{slot}']")
    page.click(f"#tools [data-shape='{shape}']")
    page.click(f"[data-orient='{orient}']")
    assert page.get_attribute("#coach-do", "data-next") == "square"
    assert page.locator(f"#sheet [data-example='{square}']").count() == 1  # the example's place, marked
    page.hover(f"#sheet [data-square='{square}']")
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"
    page.click(f"#sheet [data-square='{square}']")
    _step(page, k + 1)


def _first_step_with_wrong_moves(page: Any) -> None:
    assert [page.get_attribute(f"#dice [data-slot='{s}']", "data-value") for s in (1, 2)] == ["5", "5"]
    assert page.get_attribute("#coach-do", "data-next") == "die"
    assert page.locator("#dice .next-move[data-slot='1']").count() == 1  # the control to use is marked
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")  # legal, not the example's: explained, not chosen
    _wrong(page, "T2.2", "cross")
    assert page.get_attribute("#tools [data-shape='5b']", "aria-pressed") == "false"
    page.click("#tools [data-shape='5a']")
    page.click("[data-orient='r0']")
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
    assert "T3.2" in page.inner_text("#coach")
    shot(page, "learn-tutorial-step1-desktop")
    _first_step_with_wrong_moves(page)
    assert "open openings" in page.inner_text("#coach-after")

    page.click("#dice [data-slot='1']")  # used already (T4.2)
    _wrong(page, "used already", "T4.2")
    _place(page, 2, "5b", "r3", "J4", 1)
    assert page.get_attribute("[data-coins]", "data-coins") == "3"
    assert page.get_attribute("#dice [data-slot='3']", "data-value") == "2"  # row 5's bonus (T2.4)
    assert "T2.4" in page.inner_text("#coach-after")
    shot(page, "learn-tutorial-step3-desktop")

    page.click("#end-round")  # dice left: not yet (T4.4)
    _wrong(page, "T4.4")
    _place(page, 3, "2a", "r0", "E6", 2)
    page.click("[data-choose='5']")
    _wrong(page, "T4.3", "fork")
    page.click("[data-choose='2']")
    _step(page, 4)
    assert page.get_attribute("[data-coins]", "data-coins") == "0"
    _place(page, 4, "2b", "r0", "F2", 4)
    assert page.locator("#sheet [data-finding='F2'].collected").count() == 1
    assert page.locator("#sheet [data-finding='G3'].collected").count() == 1
    shot(page, "learn-tutorial-step6-desktop")
    page.click("#end-round")
    page.wait_for_selector("#app[data-ready='done']")
    shot(page, "learn-tutorial-end-desktop")

    # The game was a real one, and goes on as the player's own from round 2.
    t = page.evaluate("() => window.mummyTutorial.game")
    view = api(web.base, f"/api/games/{t['id']}", token=t["token"])
    mirror = TOMB.new(example_seed(), {"map": "map1", "mode": "standard"}, ["You"])
    for text in ["1:5a.r0@J1", "2:5b.r3@J4", "3:2a.r0@E6", "buy2", "4:2b.r0@F2", "end"]:
        TOMB.apply(mirror, 0, text)
    assert view["state"]["sheets"][0]["covered"] == TOMB.view(mirror)["sheets"][0]["covered"]
    assert view["state"]["sheets"][0]["tracks"] == TOMB.view(mirror)["sheets"][0]["tracks"]
    page.click("#play-on")
    page.wait_for_selector("#sheet")
    page.wait_for_function("() => window.mummyLive && window.mummyLive.view")
    view = page.evaluate("() => window.mummyLive.view")
    assert view["state"]["round"] == 2
    assert view["state"]["sheets"][0]["dice"]["row"][0]["value"] == 5  # the bonus 5 carried (T2.5)


def test_the_tutorial_on_a_phone(phone: Watched) -> None:
    page = phone.page()
    page.goto(phone.base + "/tutorial")
    _step(page, 0)
    shot(page, "learn-tutorial-step1-phone")
    small = page.eval_on_selector_all(
        ".tutorial-tools button", "els => els.filter(e => { const r = e.getBoundingClientRect();"
        " return r.width < 44 || r.height < 44; }).map(e => e.outerHTML.slice(0, 60))")
    assert small == []  # touch targets of 44 px at least
    _place(page, 1, "5a", "r0", "J1", 0)  # tapping works at this size too
    _place(page, 2, "5b", "r3", "J4", 1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "learn-tutorial-step3-phone")
    _place(page, 3, "2a", "r0", "E6", 2)
    page.click("[data-choose='2']")
    _step(page, 4)
    _place(page, 4, "2b", "r0", "F2", 4)
    page.click("#end-round")
    page.wait_for_selector("#app[data-ready='done']")
    shot(page, "learn-tutorial-end-phone")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation(web: Watched, phone: Watched, size: str) -> None:
    """axe-core over the rules page (legend included) and the tutorial, its first step
    and its end (tests/web/test_a11y.py scans the other pages the same way)."""
    from tests.web.test_a11y import scan

    watched = web if size == "desktop" else phone
    page = watched.page()
    page.goto(watched.base + "/rules#T3.3")
    page.wait_for_selector("#app[data-ready='yes']")
    assert scan(page, f"learn-rules-{size}") == []
    page.goto(watched.base + "/tutorial")
    _step(page, 0)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5b']")  # a wrong move's explanation shown too
    assert scan(page, f"learn-tutorial-{size}") == []
