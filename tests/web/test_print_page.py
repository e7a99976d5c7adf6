"""Printing from the browser (issue 17): the sheets as the CLI draws them, on the paper
chosen by the print stylesheet (named pages), as Chromium prints them to PDF."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.web.conftest import Watched, create, shot

pypdf = pytest.importorskip("pypdf", reason="reading the printed PDF back needs pypdf (the dev extra)")


def _pdf(page: Any) -> Any:
    return pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True)))


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.3, 841.9)), ("letter", (612.0, 792.0))])
def test_the_tomb_sheet_prints_on_its_paper(web: Watched, paper: str, size: tuple[float, float]) -> None:
    page = web.page()
    page.goto(f"{web.base}/print?game=tomb&map=map2&paper={paper}&seed=77")
    page.wait_for_selector("#app[data-ready=yes] .page img")
    assert page.evaluate("() => document.querySelector('.page img').naturalWidth") > 0
    assert page.input_value("#map") == "map2" and page.input_value("#seed") == "77"
    shot(page, f"print-tomb-{paper}")
    reader = _pdf(page)
    assert len(reader.pages) == 1  # the sheet on one page, the choices not printed
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - size[0]) < 1.5 and abs(float(box.height) - size[1]) < 1.5


def test_choosing_treasure_gives_its_pages_and_keeps_the_address(web: Watched) -> None:
    page = web.page()
    page.goto(f"{web.base}/print?game=tomb")
    page.wait_for_selector("#app[data-ready=yes] .page img")
    page.select_option("#game", "treasure")
    page.wait_for_function("() => document.querySelectorAll('.page img').length > 1")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.page img')].every((i) => i.complete && i.naturalWidth)"
    )
    assert "game=treasure" in page.url and page.locator("#map-label").is_hidden()
    n = page.locator(".page").count()
    assert len(_pdf(page).pages) == n


def test_a_bad_seed_is_said_in_words(web: Watched) -> None:
    page = web.page()
    page.goto(f"{web.base}/print?game=tomb&seed=-3")
    page.wait_for_selector("#message:not([hidden])")
    assert "seed" in page.inner_text("#message")


def test_a_tomb_games_print_link_opens_its_maps_sheet(web: Watched) -> None:
    """The game page's Print link (desktop; a phone's header leaves it to the start page)
    names the game and the map of the player's sheet, never the seed (a secret until the
    game is over)."""
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}], "map": "map3"})
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    link = page.locator("#print-link")
    assert link.is_visible() and link.get_attribute("href") == "/print?game=tomb&map=map3"
    page.goto(web.base + "/print?game=tomb&map=map3")
    page.wait_for_selector("#app[data-ready=yes] .page img")
    assert page.input_value("#map") == "map3" and page.input_value("#seed") == ""
