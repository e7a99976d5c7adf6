"""The creator of a game for several people keeps every seat token it made (issue 16's
carry-over). The server gives each person's token to the browser that creates the game,
and to nobody else: the start page keeps its own seat as this browser's, and the others
as seats made for others, so that My games can hand their links out again, or take a seat
back, long after the page with the invitations was left; they are never listed, played or
asked for a rematch as this browser's own.
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Watched, api, seat_field, shot, start_page

SEAT = "() => window.mummyLive && window.mummyLive.view && window.mummyLive.view.you !== undefined"


def _stored(page: Any, key: str) -> list[dict[str, Any]]:
    held: list[dict[str, Any]] = page.evaluate("(key) => JSON.parse(localStorage.getItem(key) || '[]')", key)
    return held


def _token(href: str) -> str:
    return href.split("#token=")[1]


def test_the_creator_keeps_every_seat_it_made_and_my_games_hands_them_out(web: Watched) -> None:
    page = start_page(web)
    page.select_option("#game-kind", "tomb")
    for n, name in enumerate(("Ada", "Bob", "Cy"), start=1):
        if n > 1:
            page.click("#add-seat")
        page.fill(seat_field(n, "seat-name"), name)
    page.click("#create")
    page.wait_for_selector("#invites:not([hidden])")
    shown = page.locator("#invites a.invite-link")
    links = [shown.nth(i).get_attribute("href") or "" for i in range(3)]
    game_id = links[0].split("/play/")[1].split("#")[0]

    # Every token the server gave is kept: Ada's as this browser's seat, the others' apart.
    own = [s for s in _stored(page, "mummy.seats") if s["id"] == game_id]
    made = _stored(page, "mummy.invites")
    assert [(s["seat"], s["token"]) for s in own] == [(0, _token(links[0]))]
    assert sorted((s["seat"], s["name"], s["token"]) for s in made) == [
        (1, "Bob", _token(links[1])), (2, "Cy", _token(links[2]))]
    for seat, link in enumerate(links):  # real seats, each its own
        assert api(web.base, f"/api/games/{game_id}", token=_token(link))["you"] == seat

    # Later, from My games: one entry for the game, Ada's, with the others' links under it.
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    entries = page.locator(f"#my-games li.game-item[data-game-id='{game_id}']")
    entries.first.wait_for()
    assert entries.count() == 1 and entries.first.get_attribute("data-seat") == "0"
    held = entries.first.locator("details.invites-held")
    assert "Bob" in held.inner_text() and "Cy" in held.inner_text()
    held.locator("summary").click()
    again = held.locator("a.invite-link")
    assert [again.nth(i).get_attribute("href") for i in range(again.count())] == links[1:]
    held.locator(".copy").first.click()  # copied, or selected for Ctrl+C where the clipboard is closed
    page.wait_for_selector("details.invites-held li.invite:nth-child(1) .copy-status:not(:empty)")
    shot(page, "start-my-games-made-for-others")

    # The game's address alone opens Ada's seat here, never one made for someone else.
    play = web.page()
    play.goto(f"{web.base}/play/{game_id}")
    play.wait_for_function(SEAT)
    assert play.evaluate("window.mummyLive.view.you") == 0

    play.close()

    # Cy's link, followed here (Cy shares this screen): the seat becomes this browser's own.
    cy = web.page()
    cy.goto(links[2])
    cy.wait_for_function("() => window.mummyLive && window.mummyLive.view && window.mummyLive.view.you === 2"
                         " && !location.hash")
    cy.close()
    assert [s["seat"] for s in _stored(page, "mummy.invites")] == [1]
    page.reload()
    page.wait_for_selector("#app[data-ready=yes]")
    entries.first.wait_for()
    assert sorted(entries.nth(i).get_attribute("data-seat") or "" for i in range(entries.count())) == ["0", "2"]
    assert page.locator("details.invites-held a.invite-link").count() == 1  # Bob's, under Ada's entry only

    # Removing the game from this browser forgets the seats it made in it too.
    for _ in range(2):
        entries.first.locator("button.game-remove").click()
    assert _stored(page, "mummy.invites") == []
