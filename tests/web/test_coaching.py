"""Coaching in a real browser (issue 14; docs/analysis.md §6, docs/web.md "Coaching"): the
results screen of a solo game shows par once the server has it ("143, par 161 on these
dice"), as do My games and the day's board by par; the replay's Review view steps through
the biggest mistakes with the better move drawn on the sheet and a chart of what was
lost; the Tomb page's Hint button draws the strongest bot's plan in a practice game.

The server here runs the analysis at the "quick" effort (the analysis tests' small
searches) at normal priority, so that a par takes seconds; screenshots of the results
screen and the Review view at 1366x768 and 390x844 go to ``test-artifacts/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from tests.web.conftest import Watched, api, create, play_greedy_tomb, served, shot, watched
from tests.web.test_a11y import scan

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SEED = 2024


@pytest.fixture(scope="module")
def coaching_server() -> Iterator[str]:
    """``mummy serve`` with the quick analysis at normal priority, on a fresh database."""
    yield from served({"MUMMY_ANALYSIS": "quick", "MUMMY_ANALYSIS_NICE": "0"})


@pytest.fixture
def desk(browser: Any, coaching_server: str) -> Iterator[Watched]:
    yield from watched(browser, coaching_server, DESKTOP)


@pytest.fixture
def phone(browser: Any, coaching_server: str) -> Iterator[Watched]:
    yield from watched(browser, coaching_server, PHONE)


def greedy_game(base: str, seed: int = SEED) -> tuple[str, str]:
    """A solo Tomb game on map1 on a chosen seed, played to its end over HTTP by the greedy
    bot on a mirror of it (a real game, with mistakes for a review to find)."""
    created = create(base, {"game": "tomb", "seats": [{"name": "Jane"}], "seed": seed})
    game_id, token = created["id"], created["seats"][0]["token"]
    play_greedy_tomb(base, game_id, token, seed)
    return game_id, token


def hold(page: Any, base: str, game_id: str, token: str) -> None:
    """This browser holds the game's seat (as after playing it here)."""
    page.goto(base + "/rules")
    page.evaluate("([id, token]) => localStorage.setItem('mummy.seats', JSON.stringify([{id, token, game: 'tomb', "
                  "seat: 0, name: 'Jane'}]))", [game_id, token])


def par_of(base: str, game_id: str) -> dict[str, Any]:
    page_par: dict[str, Any] = api(base, f"/api/games/{game_id}/par")
    return page_par


def test_the_results_screen_shows_par_as_it_comes(desk: Watched, phone: Watched) -> None:
    created = create(desk.base, {"game": "tomb", "seats": [{"name": "Jane"}], "seed": SEED + 1})
    page = desk.page()
    page.goto(desk.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    game_id, token = created["id"], created["seats"][0]["token"]
    tomb, bot = KINDS["tomb"], make_agent("tomb", "greedy", 7)
    mirror = tomb.new(SEED + 1, {"map": "map1", "mode": "standard"}, ["Jane"])
    version = 0
    while not mirror.is_over:  # the page watches the game end over its websocket
        text = tomb.text(mirror, 0, bot.act(mirror, 0))
        tomb.apply(mirror, 0, text)
        api(desk.base, f"/api/games/{game_id}/actions", {"client_id": f"g{version}", "version": version,
                                                           "action": text}, token=token)
        version += 1
    page.wait_for_selector("#game-results #results-par", timeout=90_000)
    if page.get_attribute("#results-par", "data-status") != "done":  # the bot is still playing these dice
        assert page.inner_text("#results-par").startswith("Par: being computed")
        shot(page, "coaching-results-par-pending")
    page.wait_for_selector("#results-par[data-status='done']", timeout=120_000)
    par = par_of(desk.base, game_id)["par"]
    score = api(desk.base, f"/api/games/{game_id}")["result"]["scores"][0]
    line = page.inner_text("#results-par")
    assert line.startswith(f"{score}, par {par['par']} on these dice: ")
    assert f"the {par['bot']} bot" in line and par["result"] == score - par["par"]
    assert ("behind" in line) == (par["result"] < 0)
    shot(page, "coaching-results-par")
    assert not scan(page, "coaching-results-par")
    # A phone opens the finished game: par is in its view at once.
    small = phone.page()
    hold(small, phone.base, game_id, token)
    small.goto(f"{phone.base}/play/{game_id}")
    small.wait_for_selector("#results-par[data-status='done']", timeout=60_000)
    assert small.inner_text("#results-par") == line
    shot(small, "coaching-results-par-phone")
    # My games on the start page: par and the result against it.
    small.goto(phone.base + "/")
    mark = small.wait_for_selector(f"li.game-item[data-game-id='{game_id}'] .par-mark")
    assert mark.inner_text() == f"par {par['par']}: " + (f"+{par['result']}" if par["result"] > 0 else
                                                          f"−{-par['result']}" if par["result"] < 0 else "0")


def test_the_review_steps_through_the_biggest_mistakes(desk: Watched, phone: Watched) -> None:
    game_id, token = greedy_game(desk.base, SEED + 2)
    page = desk.page()
    hold(page, desk.base, game_id, token)
    page.goto(f"{desk.base}/replay/{game_id}")
    page.wait_for_selector("#app[data-ready='yes']")
    page.click("#review-open")
    page.wait_for_selector("#review[data-state='done']", timeout=180_000)
    review = api(desk.base, f"/api/games/{game_id}/review?player=0")["review"]
    mistakes = [review["decisions"][i] for i in review["mistakes"]]
    assert mistakes, "a greedy game has mistakes"
    buttons = page.locator("#review-mistakes button.mistake")
    assert buttons.count() == len(mistakes) <= 3
    assert page.locator("#review-chart rect.bar").count() == 21
    assert page.locator("#review-chart rect.bar.mistake").count() == len({d["group"] for d in mistakes})
    for n, d in enumerate(mistakes):  # step through them with Next
        if n:
            page.click("#review-next")
        page.wait_for_function("s => window.mummyReplay.shown === s && document.querySelector("
                               "'#replay-board svg.sheet g.hint-layer g.plan-better')", arg=d["step"])
        assert page.get_attribute("#review", "data-mistake") == str(n)
        assert page.inner_text("#review-detail h3").startswith(f"{n + 1}. Round {d['round']}")
        drawn = page.locator("#replay-board g.plan-better .plan-step").count()
        places = sum(1 for a in d["best"]["json"] if a["kind"] in ("place", "dig", "erase", "add"))
        assert drawn == places
        if n == 0:
            shot(page, "coaching-review")
            assert not scan(page, "coaching-review")
    page.click("#review button[data-look='chosen']")  # the player's own move, on the same sheet
    page.wait_for_selector("#replay-board g.plan-chosen")
    assert page.locator("#review-prev").is_enabled()
    page.click("#review-prev")
    page.wait_for_function("s => window.mummyReplay.shown === s", arg=mistakes[-2]["step"] if len(mistakes) > 1
                           else mistakes[0]["step"])
    # On a phone: the same, the review already known to the server (answered at once).
    small = phone.page()
    small.goto(f"{phone.base}/replay/{game_id}")
    small.wait_for_selector("#app[data-ready='yes']")
    small.click("#review-open")
    small.wait_for_selector("#replay-board g.plan-better", timeout=60_000)
    small.evaluate("() => document.querySelector('#review').scrollIntoView()")
    shot(small, "coaching-review-phone")
    small.evaluate("() => document.querySelector('#review-more').scrollIntoView()")
    shot(small, "coaching-review-phone-words")
    assert small.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_hint_button_draws_the_bots_plan_in_a_practice_game(desk: Watched) -> None:
    created = create(desk.base, {"game": "tomb", "seats": [{"name": "Jane"}], "seed": SEED + 3})  # chosen: practice
    page = desk.page()
    page.goto(desk.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    page.click("#hint")
    page.wait_for_selector("#hint-panel li")
    plan = page.locator("#sheet g.hint-layer g.plan-better")
    assert plan.count() == 1 and int(plan.get_attribute("data-steps") or 0) >= 1
    view = api(desk.base, f"/api/games/{created['id']}", token=created["seats"][0]["token"])
    assert view["config"]["hints"] == 1
    first = page.get_attribute("#hint-panel li", "data-action")
    assert first in view["legal"]
    assert re.search(r"Hint \(1 taken\)", page.inner_text("#hint"))
    shot(page, "coaching-hint")
    # Played to its end: the results screen and My games say hints were taken.
    token = created["seats"][0]["token"]
    n = 0
    while not view["over"]:
        view = api(desk.base, f"/api/games/{created['id']}/actions",
                   {"client_id": f"h{n}", "version": view["version"], "action": view["legal"][0]}, token)["state"]
        n += 1
    page.wait_for_selector("#game-results #results-hints", timeout=90_000)
    assert "1 hint taken" in page.inner_text("#results-hints")
    assert "hints were taken" in page.inner_text("#results-rank")
    page.goto(desk.base + "/")
    page.wait_for_selector(f"li.game-item[data-game-id='{created['id']}'] .badge.hints")
    # A game on a secret seed asks first: a hint would take it off the boards.
    ranked = create(desk.base, {"game": "tomb", "seats": [{"name": "Jane"}]})
    page.goto(desk.base + ranked["seats"][0]["invite"])
    page.wait_for_selector("#sheet [data-square]")
    page.click("#hint")
    page.wait_for_selector("dialog#warning[open]")
    assert "practice game" in page.inner_text("dialog#warning")
    page.click("#warn-cancel")
    assert page.locator("#hint-panel").count() == 0
    assert "hints" not in api(desk.base, f"/api/games/{ranked['id']}", token=ranked["seats"][0]["token"])["config"]


def test_the_days_board_ranks_against_par(desk: Watched) -> None:
    created = api(desk.base, "/api/daily/tomb", {"name": "Dana"})
    game_id, token = created["id"], created["seats"][0]["token"]
    view = api(desk.base, f"/api/games/{game_id}", token=token)
    n = 0
    while not view["over"]:
        view = api(desk.base, f"/api/games/{game_id}/actions",
                   {"client_id": f"d{n}", "version": view["version"], "action": view["legal"][0]}, token)["state"]
        n += 1
    page = desk.page()
    page.goto(desk.base + "/")
    page.wait_for_selector("#daily-tomb-rank button[data-rank='par']")
    for _ in range(120):
        if par_of(desk.base, game_id)["status"] == "done":
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(5200)  # the server keeps a board by par five seconds
    page.click("#daily-tomb-rank button[data-rank='par']")
    row = page.wait_for_selector(f"#daily-tomb-board table.by-par tr[data-game-id='{game_id}']")
    par = par_of(desk.base, game_id)["par"]
    assert row.get_attribute("data-result") == str(par["result"])
    assert page.get_attribute("#daily-tomb-rank button[data-rank='par']", "aria-pressed") == "true"


def test_a_treasure_hint_shows_the_best_choice_on_the_page(desk: Watched) -> None:
    created = create(desk.base, {"game": "treasure", "seats": [{"name": "Jane"}], "seed": SEED + 4})
    page = desk.page()
    page.goto(desk.base + created["seats"][0]["invite"])
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    page.wait_for_function("() => window.mummyLive.view.state.rolls === 1")
    page.click("#hint")
    page.wait_for_function("() => (document.querySelector('#message') || {}).textContent"
                           "?.startsWith('Hint (the exact bot)')")
    view = api(desk.base, f"/api/games/{created['id']}", token=created["seats"][0]["token"])
    assert view["config"]["hints"] == 1
    if page.locator("[data-testid='ghost']").count():  # a take: the tile shown where it goes, Place ready
        assert page.is_enabled("#place-here")
    shot(page, "coaching-treasure-hint")


def test_a_treasure_review_shows_the_better_take_on_the_site(desk: Watched) -> None:
    created = create(desk.base, {"game": "treasure", "seats": [{"name": "Jane"}], "seed": SEED + 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    treasure = KINDS["treasure"]
    mirror = treasure.new(SEED + 5, {"sites": ["oasis"], "first": 0, "movable": False}, ["Jane"])
    bot = make_agent("treasure", "greedy", 7)
    version = 0
    while not treasure.is_over(mirror):
        text = treasure.text(mirror, 0, bot.act(mirror, 0))
        treasure.apply(mirror, 0, text)
        api(desk.base, f"/api/games/{game_id}/actions", {"client_id": f"t{version}", "version": version,
                                                           "action": text}, token=token)
        version += 1
    page = desk.page()
    page.goto(f"{desk.base}/replay/{game_id}")
    page.wait_for_selector("#app[data-ready='yes']")
    page.click("#review-open")
    page.wait_for_selector("#review[data-state='done']", timeout=120_000)
    review = api(desk.base, f"/api/games/{game_id}/review")["review"]
    assert review["unit"] == "turns" and page.locator("#review-chart rect.bar").count() == len(review["lost_by_group"])
    first = review["decisions"][review["mistakes"][0]]["best"]["json"][0]
    if first["kind"] == "reroll":  # the dice the better move rolls again, marked
        page.wait_for_selector("#replay-board .die.review-reroll.better")
        assert page.locator("#replay-board .die.review-reroll.better").count() == len(first["dice"])
        shot(page, "coaching-review-treasure-reroll")
    takes = [n for n, i in enumerate(review["mistakes"]) if review["decisions"][i]["best"]["json"][0]["kind"] == "take"]
    for n in takes[:1]:
        page.click(f"#review-mistakes button[data-mistake='{n}']")
        d = review["decisions"][review["mistakes"][n]]
        page.wait_for_function("s => window.mummyReplay.shown === s && document.querySelector("
                               "'#replay-board .site-card[data-seat=\"0\"] .review-ghost.better')", arg=d["step"])
    page.wait_for_timeout(200)
    shot(page, "coaching-review-treasure")
    assert not scan(page, "coaching-review-treasure")
