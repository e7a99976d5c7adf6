"""Learning the game in a real browser: the rules page (every rule by its id, a search, the
legend drawn by the game's drawing code) and the game page's link to it. The tutorial has
its own tests (tests/web/test_tutorial.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, Watched, create

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


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation(web: Watched, phone: Watched, size: str) -> None:
    """axe-core over the rules page (legend included); tests/web/test_tutorial.py scans the
    tutorial, tests/web/test_a11y.py the other pages the same way."""
    from tests.web.test_a11y import scan

    watched = web if size == "desktop" else phone
    page = watched.page()
    page.goto(watched.base + "/rules#T3.3")
    page.wait_for_selector("#app[data-ready='yes']")
    assert scan(page, f"learn-rules-{size}") == []
