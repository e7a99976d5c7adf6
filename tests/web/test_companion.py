"""The dice companion in the browser: a table's dice from a seed, offline once loaded,
bought dice per player (T4.6), and a paper sheet's score check (T7)."""

from __future__ import annotations

from typing import Any

from mummy.tomb.rules import bought_die, round_dice
from tests.web.conftest import Watched, shot


def _dice(page: Any) -> str:
    return str(page.get_attribute("#dice", "aria-label"))


def test_a_table_follows_the_seeds_dice_offline(web: Watched) -> None:
    page = web.page()
    page.goto(web.base + "/companion")
    page.wait_for_selector("#app[data-ready=yes]")
    page.fill("#seed", "4242")
    page.select_option("#players", "3")
    page.click("text=Start")
    page.wait_for_selector("#table:not([hidden])")
    a, b = round_dice(4242, 1)
    assert _dice(page) == f"The round's dice: {a} and {b}" and page.inner_text("#round-title") == "Round 1 of 20"
    shot(page, "companion-desktop")
    web.context.set_offline(True)  # a cellar: everything needed came with the page
    page.click("#next")
    a, b = round_dice(4242, 2)
    assert _dice(page) == f"The round's dice: {a} and {b}" and page.inner_text("#round-title") == "Round 2 of 20"
    page.click("[data-player='2']")
    page.click("[data-player='2']")
    assert f"Player 2's bought die #2: {bought_die(4242, 1, 1)}" in page.inner_text("#bought")
    page.click("[data-player='1']")
    assert f"Player 1's bought die #1: {bought_die(4242, 0, 0)}" in page.inner_text("#bought")
    web.context.set_offline(False)
    page.reload()  # where the table was is kept
    page.wait_for_selector("#table:not([hidden])")
    assert page.inner_text("#round-title") == "Round 2 of 20" and "(2 so far)" in page.inner_text("[data-player='2']")


def test_a_paper_sheet_is_checked_on_a_phone(phone: Watched) -> None:
    page = phone.page()
    page.goto(phone.base + "/companion?seed=7&players=1")
    page.wait_for_selector("#table:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    box = page.locator("#next").bounding_box()
    assert box["height"] >= 44 and box["y"] + box["height"] <= 844  # the next round in reach without scrolling
    shot(page, "companion-phone")
    page.click("#check summary")
    for name, value in {"oozes": "6", "skeletons": "6", "zombies": "4", "golems": "4", "mimics": "3",
                        "hits": "18 16 26 20 18", "items": "4", "leftovers": "3", "entrances": "3"}.items():
        page.fill(f"#f-{name}", value)
    page.check("#f-key_track_full")
    page.check("#f-skeleton_key")
    page.fill("#f-total", "240")
    page.click("#check-form button[type=submit]")
    page.wait_for_selector(".score-check")
    text = page.inner_text("#check-result")
    assert "244" in text and "Master of the Undead" in text and "you wrote 240, the count gives 244" in text
    shot(page, "companion-phone-check")
