"""The map editor in the real browser (issue 17, docs/web.md "Editor"): a small map built
with the tools, a T10 fault seen on its square and fixed, the map file saved (downloaded)
and kept as a draft, then played: a round on it with a bot. And the phone (a touch screen
at 390×844), the keyboard, opening a map file, and a game with another person."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mummy.tomb.content import custom_map_id, parse_map
from tests.web.conftest import Touch, Watched, live_view, shot, wait_moved, watched

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
MAP1 = Path(__file__).resolve().parents[2] / "src" / "mummy" / "tomb" / "data" / "map1.txt"


@pytest.fixture
def laptop(browser: Any, server: str) -> Iterator[Watched]:
    yield from watched(browser, server, LAPTOP)


@pytest.fixture
def touch_phone(browser: Any, server: str) -> Iterator[Watched]:
    """A phone with a touch screen: taps, not clicks."""
    yield from watched(Touch(browser), server, PHONE)


def sq(name: str) -> str:
    return f"#editor-sheet [data-square='{name}']"


def open_editor(w: Watched, query: str = "") -> Any:
    page = w.page()
    page.goto(f"{w.base}/editor{query}")
    page.wait_for_selector("#app[data-ready=yes]")
    return page


def checked(page: Any, state: str) -> str:
    """Wait for the check of the map as it is now (ok or fault); the verdict's words."""
    page.wait_for_selector(f"#check[data-state={state}]")
    return str(page.inner_text("#verdict"))


def tool(page: Any, name: str) -> None:
    page.click(f"#tools [data-tool={name}]")
    assert page.get_attribute(f"#tools [data-tool={name}]", "aria-pressed") == "true"


def is_stone(page: Any, name: str) -> bool:
    return bool(page.get_attribute(sq(name), "fill") == "url(#stone)")


def drag(page: Any, start: str, end: str) -> None:
    a = page.locator(sq(start)).bounding_box()
    b = page.locator(sq(end)).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def on_screen(page: Any, selector: str, height: int) -> bool:
    box = page.locator(selector).bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_build_see_a_fault_fix_it_save_and_play_a_round(laptop: Watched, tmp_path: Path) -> None:
    page = open_editor(laptop)
    build_a_small_map(page)
    see_a_fault_on_its_square_and_fix_it(page)
    add_findings_by_mouse_and_keyboard(page)
    text = save_and_find_the_draft_again(page, tmp_path)

    # Play it, with a bot: the game is on this map.
    page.click("#add-bot")
    assert page.input_value(".play-seat:nth-child(2) .play-kind") == "greedy"
    page.fill(".play-seat[data-you=yes] .play-name", "Ada")
    page.click("#play")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#sheet [data-square]")
    view = live_view(page)
    assert [s["map"] for s in view["state"]["sheets"]] == [custom_map_id(text)] * 2
    assert page.get_attribute("#sheet [data-square='C3']", "fill") == "url(#stone)"
    assert page.locator("#sheet [data-entrance]").count() == 2
    play_a_round(page)
    shot(page, "editor-played")


def build_a_small_map(page: Any) -> None:
    """An 8×8 map named tiny-test: stone at C2:D3 (a drag and clicks), entrances A1 N, H8 E."""
    assert "the map has no entrance" in checked(page, "fault")  # an empty map, to begin with
    assert page.get_attribute("#grid", "data-fault") == ""  # a missing line has no square
    page.fill("#map-width", "8")
    page.press("#map-width", "Tab")
    page.fill("#map-height", "8")
    page.press("#map-height", "Tab")
    assert page.get_attribute("#editor-sheet", "data-width") == "8" and page.locator("#editor-sheet .sq").count() == 64
    page.fill("#map-name", "tiny-test")
    page.fill("#map-title-input", "Tiny")

    # Stone: a drag paints C2 and D2 (one edit for Undo), clicks C3 and D3.
    tool(page, "stone")
    drag(page, "C2", "D2")
    assert is_stone(page, "C2") and is_stone(page, "D2")
    page.click("#undo")
    assert not is_stone(page, "C2") and not is_stone(page, "D2")
    drag(page, "C2", "D2")
    page.click(sq("C3"))
    page.click(sq("D3"))
    assert all(is_stone(page, s) for s in ("C2", "D2", "C3", "D3")) and not is_stone(page, "E2")
    tool(page, "entrance")  # on the nearest border
    page.click(sq("A1"))
    page.click(sq("H8"))
    assert page.locator("#editor-sheet [data-entrance]").evaluate_all("els => els.map(e => e.dataset.entrance)") \
        == ["A1n", "H8e"]


def see_a_fault_on_its_square_and_fix_it(page: Any) -> None:
    """A room opening south onto stone: the fault in words, on its square (T10); fixed."""
    tool(page, "room")
    page.select_option("#room-side", "S")
    page.click(sq("C2"))
    verdict = checked(page, "fault")
    assert "room C2 S does not face a free square (T10)" in verdict and "rule T10" in verdict
    assert "C2" in verdict and "room: C2 S sarcophagus" in verdict  # the square and the file's line
    assert page.get_attribute("#grid", "data-fault") == "C2"
    assert page.locator("#editor-sheet .fault-mark[data-fault='C2']").is_visible()
    assert page.locator("#map-text .fault-line").text_content().strip() == "room: C2 S sarcophagus"
    assert page.is_disabled("#play")
    assert on_screen(page, "#editor-sheet", LAPTOP["height"]) and on_screen(page, "#verdict", LAPTOP["height"])
    shot(page, "editor-laptop-fault")

    # Fixed: the same room opening north. The log fits itself (one zombie for a sarcophagus).
    page.select_option("#room-side", "N")
    page.click(sq("C2"))
    assert "Valid" in checked(page, "ok")
    assert page.locator("#editor-sheet .fault-mark").count() == 0 and page.get_attribute("#grid", "data-fault") == ""
    assert page.input_value("#log-zombie") == "2"


def add_findings_by_mouse_and_keyboard(page: Any) -> None:
    """Coins, a key, an ooze (the log gets its ooze and skeleton); the keyboard; Undo."""
    tool(page, "finding")
    page.select_option("#finding-kind", "coins")
    page.fill("#coin-amount", "3")
    page.click(sq("E1"))
    page.select_option("#finding-kind", "key")
    page.click(sq("A4"))
    page.select_option("#finding-kind", "ooze")
    page.click(sq("H1"))
    assert "Valid" in checked(page, "ok")
    assert page.input_value("#log-ooze") == "1" and page.input_value("#log-skeleton") == "1"
    assert page.locator("#counts tr.short").count() == 0

    # The keyboard: the cursor moves by the arrows, Enter uses the tool; Undo takes it back.
    tool(page, "stone")
    page.focus("#grid")  # the cursor where the last click was, H1
    for key in ["ArrowDown"] * 4 + ["ArrowLeft"] * 2:
        page.keyboard.press(key)
    assert page.get_attribute("#editor-sheet [data-cursor]", "data-cursor") == "F5"
    page.keyboard.press("Enter")
    assert is_stone(page, "F5") and page.inner_text("#square-info") == "F5: stone"
    page.click("#undo")
    assert not is_stone(page, "F5")
    page.keyboard.press("Control+z")  # Undo by key too: the ooze goes
    assert page.locator("#editor-sheet [data-finding='H1']").count() == 0
    tool(page, "finding")  # the ooze put back
    page.click(sq("H1"))
    assert "Valid" in checked(page, "ok")
    shot(page, "editor-laptop")


def save_and_find_the_draft_again(page: Any, tmp_path: Path) -> str:
    """The map file downloaded (read by `mummy check-map`'s parser), and the draft kept in
    this browser found again after a reload; returns the file's text."""
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == "tiny-test.txt"
    saved = tmp_path / "tiny-test.txt"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    spec = parse_map(text, str(saved))
    assert (spec.id, spec.title, spec.grid.width, spec.grid.height) == ("tiny-test", "Tiny", 8, 8)
    assert [(spec.grid.square_name(r.square), r.side, r.finding) for r in spec.rooms] == [("C2", "N", "sarcophagus")]
    assert page.text_content("#map-text") == text
    assert "Saved as tiny-test.txt" in page.inner_text("#file-message")

    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    assert page.input_value("#map-name") == "tiny-test" and "Valid" in checked(page, "ok")
    assert page.text_content("#map-text") == text
    return text


def play_a_round(page: Any) -> None:
    """The first round: a tile placed by clicking (when the dice allow one), then the
    first legal action until the round can end, and End round clicked."""
    view = live_view(page)
    place = next((a for a in view["actions"] if a["kind"] == "place" and len(a.get("dice", [])) == 1
                  and a["shape"] != "room"), None)
    if place:
        before = view["version"]
        page.click(f"#dice [data-slot='{place['dice'][0]}']")
        page.click(f"#tools [data-shape='{place['shape']}']")
        page.click(f"#tools [data-orient='{place['orient']}']")
        page.click(f"#sheet [data-square='{place['square']}']")
        wait_moved(page, before)
        assert live_view(page)["state"]["sheets"][0]["tiles"]
    view = live_view(page)
    while "end" not in view["legal"]:
        page.evaluate("t => window.mummyLive.act(t)", view["legal"][0])
        wait_moved(page, view["version"])
        view = live_view(page)
    page.click("#end")
    page.wait_for_function("() => window.mummyLive.view.state.round === 2")
    page.wait_for_selector("#round:has-text('Round 2')")


def test_on_a_phone_the_map_tools_and_check_share_the_screen(touch_phone: Watched) -> None:
    page = open_editor(touch_phone, "?from=map2")
    assert "Valid" in checked(page, "ok")
    assert page.input_value("#map-name") == "map2-edited"  # an edited map is a new map
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for part in ("#editor-sheet", "#tools", "#check"):
        assert on_screen(page, part, PHONE["height"]), part
    box = page.locator("#editor-sheet").bounding_box()
    assert box["width"] >= PHONE["width"] - 20  # the map across the screen
    shot(page, "editor-phone")

    # A tap with the stone tool on a finding's square: the finding on stone is the fault.
    finding = page.locator("#editor-sheet [data-finding]").first.get_attribute("data-finding")
    page.tap(sq(finding))
    verdict = checked(page, "fault")
    assert f"{finding} is on stone" in verdict and page.get_attribute("#grid", "data-fault") == finding
    assert on_screen(page, "#verdict", PHONE["height"])
    shot(page, "editor-phone-fault")
    page.tap(sq(finding))  # tapped again: free, and valid
    assert "Valid" in checked(page, "ok")
    for name in ("#tools [data-tool]", "#download", "#play"):  # big enough for a finger
        heights = page.locator(name).evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
        assert min(heights) >= 40, (name, heights)


def test_a_map_file_opens_and_a_game_with_another_person_gives_links(laptop: Watched) -> None:
    page = open_editor(laptop)
    bad = MAP1.read_text(encoding="utf-8").replace("room: C3 N sarcophagus", "room: C3 S sarcophagus")
    page.set_input_files("#open-file", files=[{"name": "bad.txt", "mimeType": "text/plain", "buffer": bad.encode()}])
    page.wait_for_selector("#file-message.error")
    line = bad.splitlines().index("room: C3 S sarcophagus") + 1
    assert f"bad.txt is not a valid map (T10): line {line}: room C3 S does not face a free square" in \
        page.inner_text("#file-message")
    page.set_input_files("#open-file", files=[{"name": "mine.txt", "mimeType": "text/plain",
                                                "buffer": MAP1.read_bytes()}])
    page.wait_for_selector("#file-message:has-text('Opened mine.txt')")
    assert page.input_value("#map-name") == "map1" and page.input_value("#map-title-input") == "Map 1"
    assert "Valid" in checked(page, "ok") and page.locator("#editor-sheet [data-room]").count() == 8
    page.select_option("#start-from", "")
    page.click("#start")  # an empty map; Undo brings Map 1 back
    assert page.locator("#editor-sheet [data-room]").count() == 0
    assert "the map has no entrance" in checked(page, "fault")
    page.click("#undo")
    assert page.locator("#editor-sheet [data-room]").count() == 8 and "Valid" in checked(page, "ok")

    played = custom_map_id(page.text_content("#map-text"))
    page.click("#add-person")
    page.fill(".play-seat:nth-child(2) .play-name", "Bea")
    page.click("#play")
    page.wait_for_selector("#invites:not([hidden])")
    assert page.locator("#invite-list li").count() == 2
    assert page.inner_text("#play-link").startswith("Play as")
    href = page.get_attribute("#play-link", "href")
    page.click("#play-link")
    page.wait_for_selector("#sheet [data-square]")
    assert href.split("#")[0] in page.url
    assert live_view(page)["state"]["sheets"][1]["map"] == played
