"""The other players' moves in the Tomb, seen step by step in the real browser
(js/tomb/steps.js): a greedy bot's round arrives at once, and the page shows its log entries
one after the other, each sentence in the message line and its squares sliding in on the
bot's sheet; a click shows the rest at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, Watched, create, live_view, shot, wait_moved, watched

# Every change of the step shown, as the page marks it on the message line: (version, text).
RECORD = """() => {
  const m = document.getElementById("message");
  window.stepsSeen = [];
  new MutationObserver(() => {
    const v = m.dataset.step;
    const seen = window.stepsSeen;
    if (v && (!seen.length || seen[seen.length - 1][0] !== Number(v))) seen.push([Number(v), m.textContent]);
  }).observe(m, { attributes: true, attributeFilter: ["data-step"] });
}"""


@pytest.fixture
def desk(browser: Any, server: str) -> Iterator[Watched]:
    """A watched browser context at 1366×768, the desktop size of the issue."""
    yield from watched(browser, server, {"width": 1366, "height": 768})


def _game_with_a_bot(web: Watched) -> Any:
    """Jane against a greedy bot (seat 1), on Map 1: the bot has played its first round."""
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Jane"}, {"name": "Sphinx", "bot": "greedy"}],
                                "seed": 14})  # the bot places a tile in rounds 2 and 3
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    page.wait_for_selector("[data-other='1'] svg.sheet", state="attached")  # folded on a phone
    return page


def _play_round_but_the_end(page: Any) -> None:
    """Jane uses her dice (the first legal action each time) until ending the round is legal."""
    while "end" not in (view := live_view(page))["legal"]:
        page.evaluate("t => window.mummyLive.act(t)", view["legal"][0])
        wait_moved(page, view["version"])


def _end_round(page: Any) -> int:
    """Jane ends her round (the bot then plays the next one at once); the version after it."""
    view = live_view(page)
    page.evaluate("t => window.mummyLive.act(t)", "end")
    wait_moved(page, view["version"])
    return int(view["version"]) + 1


def _bot_done(page: Any, rnd: int) -> None:
    """Wait until the bot has played round ``rnd`` through (its sheet waits for Jane)."""
    page.wait_for_function("r => { const v = window.mummyLive.view; return v.state.round === r"
                           " && v.state.sheets[1].phase === 'waiting'; }", arg=rnd)


# What the page shows at one moment of a step: the step (on the message line), the log
# entry lit and the last one listed, and the squares drawn covered on the bot's sheet.
SNAPSHOT = """() => {
  const sheet = document.querySelector("[data-other='1'] svg.sheet");
  const blank = ["#fffdf7", "url(#stone)"];
  const covered = [...sheet.querySelectorAll(".sq")].filter((r) => !blank.includes(r.getAttribute("fill")));
  const lit = document.querySelector(".game-log .log-step");
  const entries = document.querySelectorAll(".game-log .log-entry");
  return { step: document.getElementById("message").dataset.step, lit: lit && lit.dataset.version,
           last: entries.length ? entries[entries.length - 1].dataset.version : null, covered: covered.length };
}"""


def told(entry: dict[str, Any]) -> str:
    """An entry as the message line tells it: its sentence, with the player's name first."""
    words = str(entry["sentence"])
    return words if words.startswith(entry["name"]) else f"{entry['name']}: {words}"


def _bot_entries(page: Any, after: int) -> list[dict[str, Any]]:
    return [e for e in live_view(page)["log"] if e["seat"] == 1 and e["version"] > after]


def _shown_tiles(page: Any) -> int:
    """The tiles (not Shovel squares) drawn on the bot's small sheet."""
    return int(page.locator("[data-other='1'] svg.sheet .tile-n").count())


def test_the_bots_round_is_shown_one_step_at_a_time_then_a_click_shows_the_rest(desk: Watched) -> None:
    page = _game_with_a_bot(desk)
    _play_round_but_the_end(page)
    page.evaluate(RECORD)
    ended = _end_round(page)  # round 2 begins, and the bot plays it at once
    page.wait_for_selector("[data-other='1'] .sq.fresh", state="attached")  # a step that covers squares: they slide in
    during = page.evaluate(SNAPSHOT)
    shot(page, "tomb-steps-desktop")
    page.locator("[data-other='1']").screenshot(path=str(ARTIFACTS / "tomb-steps-desktop-sheet.png"))
    _bot_done(page, 2)
    entries = _bot_entries(page, ended)
    assert len(entries) >= 3, entries  # enough steps to see them go by
    # While a step is shown: its entry lit and last in the log, and the squares of the
    # bot's later steps not yet on its sheet.
    assert during["lit"] == during["step"] == during["last"], during
    later = sum(len(e["squares"]) for e in entries if e["version"] > int(during["step"]))
    covered = len(live_view(page)["state"]["sheets"][1]["covered"])
    assert during["covered"] == covered - later, (during, later)
    tiles = sum(1 for t in live_view(page)["state"]["sheets"][1]["tiles"] if t["shape"] != "dig")
    page.wait_for_function("() => !document.querySelector('.tomb-layout[data-steps]')", timeout=20_000)
    seen = page.evaluate("() => window.stepsSeen")
    assert [v for v, _ in seen] == [e["version"] for e in entries]  # each of the bot's moves, in order
    assert [t for _, t in seen] == [told(e) for e in entries]  # told in its sentence
    assert _shown_tiles(page) == tiles  # all of them on the sheet at the end
    assert page.locator(".game-log .log-step").count() == 0

    # Next round: a click during the steps shows the rest at once.
    _play_round_but_the_end(page)
    page.evaluate(RECORD)
    ended = _end_round(page)
    page.wait_for_selector(".tomb-layout[data-steps]")
    _bot_done(page, 3)
    assert page.get_attribute(".tomb-layout", "data-steps") is not None, "the steps ended before the click"
    page.click("#round")
    page.wait_for_function("() => !document.querySelector('.tomb-layout[data-steps]')", timeout=1_000)
    view = live_view(page)
    assert len(page.evaluate("() => window.stepsSeen")) < len(_bot_entries(page, ended))  # cut short
    assert _shown_tiles(page) == sum(1 for t in view["state"]["sheets"][1]["tiles"] if t["shape"] != "dig")
    assert page.locator(".game-log .log-entry").last.get_attribute("data-version") == str(view["version"])


def test_a_step_on_a_phone_tells_the_move_above_the_map(phone: Watched) -> None:
    page = _game_with_a_bot(phone)
    page.click("[data-other='1'] > summary")  # on a phone the other sheets start folded
    _play_round_but_the_end(page)
    page.evaluate(RECORD)
    ended = _end_round(page)
    page.wait_for_selector(".tomb-layout[data-steps]")
    text = page.inner_text("#message")
    assert text in [told(e) for e in live_view(page)["log"] if e["seat"] == 1 and e["version"] > ended]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    shot(page, "tomb-steps-phone")
