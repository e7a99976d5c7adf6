"""The start page (/) and the replay page (/replay/{id}) in a real browser."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.web.conftest import Watched, api, create, live_view, play_to_end, seat_field, shot, start_page

#: A predicate, as a function: a bare expression would be eval'd in the page, which our CSP forbids.
LIVE_VIEW = "() => window.mummyLive && window.mummyLive.view"
SEAT_1 = "() => window.mummyLive && window.mummyLive.view && window.mummyLive.view.you === 1"


def test_new_games_through_the_form_and_my_games(web: Watched) -> None:
    page = start_page(web)
    assert page.locator("#tomb-map option").all_inner_texts()[:2] == ["Map 1", "Map 2 (advanced)"]
    shot(page, "start-page")
    tomb_id = _new_tomb_through_the_form(page)
    page = start_page(web)
    treasure_id, hrefs = _new_treasure_through_the_form(web, page)
    _my_games_list_both(web, page, tomb_id, treasure_id, hrefs)


def _new_tomb_through_the_form(page: Any) -> str:
    """The Tomb: one person and a greedy bot; a single person goes straight to the game."""
    page.select_option("#game-kind", "tomb")
    page.fill(seat_field(1, "seat-name"), "Ada")
    page.click("#add-seat")
    page.select_option(seat_field(2, "seat-kind"), "greedy")
    assert page.input_value(seat_field(2, "seat-name"))  # a bot gets a name to go by
    page.select_option("#tomb-mode", "easy")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/[^/#]+$"))
    page.wait_for_function(LIVE_VIEW)
    view = live_view(page)
    tomb_id = view["id"]
    assert view["you"] == 0 and view["game"] == "tomb" and view["config"]["mode"] == "easy"
    assert [s["bot"] for s in view["seats"]] == [None, "greedy"] and view["seats"][0]["name"] == "Ada"
    return str(tomb_id)


def _new_treasure_through_the_form(web: Watched, page: Any) -> tuple[str, list[str]]:
    """Treasure: two people; the invitations are shown, and Bob's opens Bob's seat."""
    page.select_option("#game-kind", "treasure")
    assert page.is_visible("#treasure-options") and not page.is_visible("#tomb-options")
    page.fill(seat_field(1, "seat-name"), "Ada")
    page.click("#add-seat")
    page.fill(seat_field(2, "seat-name"), "Bob")
    page.select_option(seat_field(2, "seat-sites"), "temple")
    page.check("#treasure-movable")
    page.select_option("#treasure-first", "1")
    page.click("#create")
    page.wait_for_selector("#invites:not([hidden])")
    links = page.locator("#invites a.invite-link")
    assert links.count() == 2
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(2)]
    assert all(h.startswith(web.base + "/play/") and "#token=" in h for h in hrefs)
    assert page.locator("#invites .copy").count() == 2
    page.locator("#invites .copy").nth(1).click()  # copied, or selected for Ctrl+C where the clipboard is closed
    page.wait_for_selector("#invites li.invite:nth-child(2) .copy-status:not(:empty)")
    assert (page.get_attribute("#play-link", "href") or "") == hrefs[0].removeprefix(web.base)
    shot(page, "start-invites")
    treasure_id = hrefs[1].split("/play/")[1].split("#")[0]
    config = api(web.base, f"/api/games/{treasure_id}")["config"]
    assert config["sites"] == ["oasis", "temple"] and config["movable"] is True and config["first"] == 1

    bob = web.page()
    bob.goto(hrefs[1])
    bob.wait_for_function(SEAT_1)
    assert bob.evaluate("window.mummyLive.view.seats[1].name") == "Bob"
    bob.close()
    return treasure_id, hrefs


def _my_games_list_both(web: Watched, page: Any, tomb_id: str, treasure_id: str, hrefs: list[str]) -> None:
    """My games (same browser): the Tomb game, and both Treasure seats (Bob's link was opened here)."""
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    mine = page.locator("#my-games li.game-item")
    listed = {(mine.nth(i).get_attribute("data-game-id"), mine.nth(i).get_attribute("data-seat"))
              for i in range(mine.count())}
    assert {(tomb_id, "0"), (treasure_id, "0"), (treasure_id, "1")} <= listed
    bob_item = page.locator(f"#my-games li.game-item[data-game-id='{treasure_id}'][data-seat='1']")
    assert "Bob" in bob_item.inner_text() and "in progress" in bob_item.inner_text()
    assert bob_item.locator("a.resume-link").get_attribute("href") == hrefs[1].removeprefix(web.base)


def test_start_page_errors_keep_what_was_typed_and_join_by_link(web: Watched) -> None:
    page = start_page(web)
    page.fill(seat_field(1, "seat-name"), "Ada")
    page.select_option(seat_field(1, "seat-kind"), "strong")
    page.click("#create")
    assert "person" in page.inner_text("#create-message")  # at least one person
    page.select_option(seat_field(1, "seat-kind"), "")
    page.fill("#seed", "12x")
    page.click("#create")
    assert "seed" in page.inner_text("#create-message")

    # An error from the server is shown with its message; the form keeps its values.
    page.route("**/api/games", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body=json.dumps({"error": {"code": "bad_request", "message": "unknown map 'map9'; maps: map1, map2"}})))
    page.fill("#seed", "42")
    page.click("#create")
    page.wait_for_selector("#create-message.error")
    assert "unknown map 'map9'" in page.inner_text("#create-message")
    assert page.input_value(seat_field(1, "seat-name")) == "Ada" and page.input_value("#seed") == "42"
    page.unroute("**/api/games")

    # Join: rubbish is refused in place; a pasted invitation link opens its seat.
    page.fill("#join-link", "not a link at all")
    page.click("#join-go")
    assert page.inner_text("#join-message")
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"name": "Ben"}], "seed": 5})
    page.fill("#join-link", web.base + created["seats"][1]["invite"])
    page.press("#join-link", "Enter")
    page.wait_for_function(SEAT_1)
    assert page.evaluate("window.mummyLive.view.id") == created["id"]


def test_daily_challenge_and_best_scores(web: Watched) -> None:
    # Finished games for the boards: a daily Tomb game, and a solo Tomb on a secret seed on map 2.
    daily_id, _ = play_to_end(web.base, {"name": "Dora"}, daily="tomb")
    best_id, _ = play_to_end(web.base, {"game": "tomb", "seats": [{"name": "Bea"}], "map": "map2"})

    page = start_page(web)
    daily = page.inner_text("#daily-tomb-board")
    assert "Dora" in daily and "Today" in daily
    assert page.locator(f"#daily-tomb-board tr[data-game-id='{daily_id}']").count() == 1
    assert page.locator("#daily-treasure-board").inner_text().strip()  # rendered (maybe "no finished games yet")
    page.select_option("#best-tomb-map", "map2")
    page.wait_for_selector(f"#best-tomb-board[data-where=map2] tr[data-game-id='{best_id}']")
    assert "Bea" in page.inner_text("#best-tomb-board")
    page.select_option("#best-treasure-site", "valley")
    page.wait_for_selector("#best-treasure-board[data-where=valley]")

    page.fill("#daily-name", "Dee")
    page.click("#daily-tomb-play")
    page.wait_for_url(re.compile(r"/play/[^/#]+$"))
    page.wait_for_function(LIVE_VIEW)
    view = live_view(page)
    assert view["you"] == 0 and view["seats"][0]["name"] == "Dee" and view["config"]["map"] == "map1"


def _replay(web: Watched, game_id: str, step: int | None = None) -> Any:
    page = web.page()
    page.goto(f"{web.base}/replay/{game_id}" + ("" if step is None else f"?step={step}"))
    page.wait_for_selector("#app[data-ready=yes]")
    return page


def _at(page: Any, step: int) -> None:
    page.wait_for_selector(f"#app[data-shown='{step}']")


def _check_replay(page: Any, record: dict[str, Any], name: str) -> None:
    actions = [a["action"] for a in record["actions"]]
    steps = len(actions)  # legal[0] never undoes, so every log entry is in the record
    _at(page, 0)
    assert page.inner_text("#replay-step") == f"step 0 of {steps}"
    assert page.inner_text("#replay-action-text") == ""
    page.click("#replay-next")
    _at(page, 1)
    assert page.inner_text("#replay-step") == f"step 1 of {steps}"
    assert page.inner_text("#replay-action-text") == actions[0] and name in page.inner_text("#replay-action-seat")
    page.keyboard.press("ArrowRight")
    _at(page, 2)
    page.keyboard.press("ArrowRight")
    _at(page, 3)
    assert page.inner_text("#replay-action-text") == actions[2]
    page.keyboard.press("ArrowLeft")
    _at(page, 2)
    assert page.inner_text("#replay-action-text") == actions[1]
    assert page.url.endswith("?step=2")
    page.click("#replay-prev")
    _at(page, 1)
    assert page.is_hidden("#replay-result")
    page.keyboard.press("End")
    _at(page, steps)
    assert page.inner_text("#replay-step") == f"step {steps} of {steps}"
    assert page.inner_text("#replay-action-text") == actions[-1]
    assert page.is_visible("#replay-result") and name in page.inner_text("#replay-result")
    assert page.is_disabled("#replay-next") and page.is_disabled("#replay-last")
    page.keyboard.press("Home")
    _at(page, 0)
    # Space plays (one step every 0.7 s) and pauses.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press(" ")
    assert page.get_attribute("#replay-play", "aria-pressed") == "true"
    _at(page, 2)
    page.keyboard.press(" ")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    # The slider, and a step given in the address.
    page.fill("#replay-slider", str(steps // 2))
    _at(page, steps // 2)
    page.goto(page.url.split("?")[0] + "?step=5")
    page.wait_for_selector("#app[data-ready=yes]")
    _at(page, 5)
    assert page.inner_text("#replay-action-text") == actions[4]
    # The board was drawn by the game's module (tomb.js / treasure.js), without an error.
    assert page.locator("#replay-board .render-error").count() == 0, page.inner_text("#replay-board")
    assert page.locator("#replay-board *").count() > 0


def _replayed_to_the_end(web: Watched, body: dict[str, Any], name: str) -> tuple[Any, dict[str, Any]]:
    """Finish a game, open its replay, check every step, and go to the last one."""
    game_id, _ = play_to_end(web.base, body)
    record = api(web.base, f"/api/games/{game_id}/record")
    page = _replay(web, game_id)
    _check_replay(page, record, name)
    page.keyboard.press("End")
    _at(page, len(record["actions"]))
    return page, record


def test_replay_of_a_treasure_game(web: Watched) -> None:
    running = create(web.base, {"game": "treasure", "seats": [{"name": "Run"}], "seed": 1})
    page = web.page()
    page.goto(f"{web.base}/replay/{running['id']}")
    page.wait_for_selector(".error-page")
    assert "over" in page.inner_text(".error-page")  # 409: not over yet

    page, record = _replayed_to_the_end(web, {"game": "treasure", "seats": [{"name": "Sol"}], "seed": 3}, "Sol")
    assert f"{record['final']['squares'][0]} squares covered" in page.inner_text("#replay-result")
    shot(page, "replay-treasure")


def test_replay_of_a_tomb_game(web: Watched) -> None:
    page, record = _replayed_to_the_end(web, {"game": "tomb", "seats": [{"name": "Tut"}], "seed": 3}, "Tut")
    assert f"{record['final'][0]} points" in page.inner_text("#replay-result")
    shot(page, "replay-tomb")


def test_my_games_links_a_finished_game_to_its_replay(web: Watched) -> None:
    game_id, token = play_to_end(web.base, {"game": "treasure", "seats": [{"name": "Fin"}], "seed": 7})
    page = start_page(web)
    page.evaluate("""async ([id, token]) => {
        const { seats } = await import('/static/js/api.js');
        seats.add({ id, token, game: 'treasure', seat: 0, name: 'Fin' });
    }""", [game_id, token])
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    item = page.locator(f"#my-games li.game-item[data-game-id='{game_id}']")
    assert "over" in item.inner_text()
    item.locator("a.replay-link").click()
    page.wait_for_url(f"**/replay/{game_id}")
    page.wait_for_selector("#app[data-ready=yes]")
    assert page.inner_text("#replay-step").startswith("step 0 of ")


def test_start_page_on_a_phone(phone: Watched) -> None:
    page = start_page(phone)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 2
    shot(page, "start-page-phone")
    page.select_option("#game-kind", "treasure")
    page.fill(seat_field(1, "seat-name"), "Ada")
    page.click("#add-seat")
    page.fill(seat_field(2, "seat-name"), "Bob")
    page.click("#create")
    page.wait_for_selector("#invites:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 2
    shot(page, "start-invites-phone")
    # Keyboard: Tab reaches the controls, and the focused one is outlined.
    page.focus("#game-kind")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.id")
    assert focused and page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"

    # The replay page fits a phone too.
    game_id, _ = play_to_end(phone.base, {"game": "treasure", "seats": [{"name": "Sol"}], "seed": 3})
    page = _replay(phone, game_id, step=12)
    _at(page, 12)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 2
    shot(page, "replay-phone")


# -- the daily challenge and My games (issue 13) ---------------------------------------------------


def _daily_from_the_start_page(page: Any, game: str) -> str:
    """Click today's challenge of ``game``; the id of the game the page goes to."""
    page.click(f"#daily-{game}-play")
    page.wait_for_url(re.compile(r"/play/[^/#]+#token="))
    page.wait_for_function(LIVE_VIEW)
    return str(live_view(page)["id"])


def test_todays_challenge_a_second_time_resumes_todays_game(web: Watched) -> None:
    page = start_page(web)
    assert page.inner_text("#daily-tomb-play") == "Play today's Tomb challenge"
    page.fill("#daily-name", "Ria")
    first = _daily_from_the_start_page(page, "tomb")
    assert live_view(page)["daily"]  # a daily game
    page = start_page(web)
    item = page.locator(f"#my-games li.game-item[data-game-id='{first}']")
    assert "Daily challenge" in item.locator(".badge.daily").inner_text()  # labelled as daily
    assert item.get_attribute("data-daily") == page.get_attribute("#daily-tomb-board", "data-day")
    assert page.inner_text("#daily-tomb-play") == "Resume today's Tomb challenge"
    assert page.inner_text("#daily-treasure-play") == "Play today's Treasure challenge"
    assert _daily_from_the_start_page(page, "tomb") == first  # not another game
    # A second tab that did not know (its page loaded before the game was made) resumes it too.
    other = web.page()
    other.goto(web.base + "/")
    other.wait_for_selector("#app[data-ready=yes]")
    other.evaluate("() => { document.getElementById('daily-tomb-play').dataset.resumes = ''; }")
    assert _daily_from_the_start_page(other, "tomb") == first
    held = page.evaluate("() => JSON.parse(localStorage.getItem('mummy.seats'))")
    assert [s["id"] for s in held].count(first) == 1  # one seat, not one per click

    page = start_page(web)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.locator("#my-games").scroll_into_view_if_needed()
    shot(page, "start-daily-my-games-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")  # no sideways scroll
    shot(page, "start-daily-my-games-phone")


def test_my_games_removes_a_game_from_this_browser(web: Watched) -> None:
    idle = create(web.base, {"game": "tomb", "seats": [{"name": "Ida"}]})  # nobody moves in it
    played = create(web.base, {"game": "tomb", "seats": [{"name": "Pat"}]})
    game_id, token = played["id"], played["seats"][0]["token"]
    view = api(web.base, f"/api/games/{game_id}", token=token)
    api(web.base, f"/api/games/{game_id}/actions", {"client_id": "p1", "version": 0, "action": view["legal"][0]}, token)
    page = start_page(web)
    page.evaluate("(held) => localStorage.setItem('mummy.seats', JSON.stringify(held))",
                  [{"id": c["id"], "token": c["seats"][0]["token"], "game": "tomb", "seat": 0, "name": n}
                   for c, n in ((idle, "Ida"), (played, "Pat"))])
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    idle_item = page.locator(f"#my-games li.game-item[data-game-id='{idle['id']}']")
    assert "no move yet" in idle_item.inner_text()
    idle_item.locator("button.game-remove").click()  # no move: gone at once
    assert idle_item.count() == 0
    played_item = page.locator(f"#my-games li.game-item[data-game-id='{game_id}']")
    remove = played_item.locator("button.game-remove")
    remove.click()  # a game with moves asks once more: its seat cannot be found again without the link
    assert remove.get_attribute("data-confirm") == "yes" and "Click again" in remove.inner_text()
    shot(page, "start-my-games-remove-confirm")
    remove.click()
    assert played_item.count() == 0
    page.wait_for_selector("#my-games-list p.empty")  # the last one gone: the list says so
    assert page.evaluate("() => JSON.parse(localStorage.getItem('mummy.seats'))") == []
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    assert page.locator("#my-games li.game-item").count() == 0
