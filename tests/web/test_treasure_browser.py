"""Mummy's Treasure in a real browser (treasure.js): a whole game against a bot by
clicking, a refused placement that changes nothing, the spectator's and the phone's view,
and the odds as the snapshot gives them."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import Watched, api, create, live_view, page_version, shot, wait_moved


def _open(w: Watched, path: str) -> Any:
    page = w.page()
    page.goto(w.base + path)
    page.wait_for_selector(".treasure")
    return page


def _until_my_turn(page: Any) -> None:
    """Wait for seat 0's turn (or the end): the bot's turns come in updates of their own,
    right after the update with ours (docs/server.md, Bots)."""
    page.wait_for_function("() => { const v = window.mummyLive.view; return v.over || v.to_act.includes(0); }")


def _click_and_wait(page: Any, target: Any) -> None:
    """Click (a selector or a locator) and wait until the game has moved on."""
    version = page_version(page)
    (page.locator(target) if isinstance(target, str) else target).click()
    wait_moved(page, version)


def takes_of(legal: list[str]) -> dict[str, dict[str, set[str]]]:
    """pile -> orientation -> the top-left squares where its top tile may go."""
    out: dict[str, dict[str, set[str]]] = {}
    for text in legal:
        m = re.fullmatch(r"take:([a-z]+)@([A-Z]+\d+)\.([hv])", text)
        if m:
            out.setdefault(m[1], {"h": set(), "v": set()})[m[3]].add(m[2])
    return out


def _place(page: Any, pile: str, legal: list[str]) -> str:
    """Choose the pile, then click a lit square of the site (turning the tile if needed).
    Returns the action the page sends."""
    page.click(f"[data-pile={pile}] button.take")
    page.wait_for_selector(f"[data-pile={pile}].selected")
    lit = page.locator("#my-site .sq.legal")
    if lit.count() == 0:
        page.click("#rotate")
        page.wait_for_selector("#my-site .sq.legal")
    square = lit.first.get_attribute("data-square")
    orient = page.get_attribute("#rotate", "data-orient")
    top = live_view(page)["state"]["piles"]
    tile = next(p["top"] for p in top if p["pile"] == pile)
    text = f"take:{pile}@{square}.{'h' if tile['rows'] == tile['cols'] else orient}"
    assert text in legal
    return text


def test_a_game_against_a_bot_to_the_end_by_clicking(web: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 3})
    page = _open(web, created["seats"][0]["invite"])
    page.wait_for_selector("#roll:enabled")
    assert page.inner_text("#turn").startswith("Your turn")
    shot(page, "treasure-start")
    shots = {"turn": False}
    for _ in range(300):
        _until_my_turn(page)
        view = live_view(page)
        if view["over"]:
            break
        assert view["to_act"] == [0]  # the bot plays its whole turns before ours comes back
        _play_one_step(page, view, shots)
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("#result")
    _the_result_is_shown(page, api(web.base, f"/api/games/{created['id']}"))
    shot(page, "treasure-over")


def _play_one_step(page: Any, view: dict[str, Any], shots: dict[str, bool]) -> None:
    """Roll, take the biggest tile on offer, pass, or hold for the suggested tile and reroll."""
    legal = view["legal"]
    takes = takes_of(legal)
    if "roll" in legal:
        _click_and_wait(page, "#roll")
    elif takes:
        pile = list(takes)[-1]  # the biggest tile on offer
        tiles = len(view["state"]["seats"][0]["tiles"])
        text = _place(page, pile, legal)
        if not shots["turn"]:
            page.hover(f"#my-site [data-square={text.split('@')[1].split('.')[0]}]")
            page.wait_for_selector("#my-site .ghost.ok")
            shot(page, "treasure-turn")
            shots["turn"] = True
        _click_and_wait(page, page.locator(f"#my-site [data-square={text.split('@')[1].split('.')[0]}]"))
        seat = live_view(page)["state"]["seats"][0]
        assert len(seat["tiles"]) == tiles + 1
    elif "pass" in legal:
        _click_and_wait(page, "#pass")
    else:
        # Hold the dice for the biggest tile the odds suggest, and reroll the others.
        suggest = page.locator("[data-pile] button.suggest")
        if suggest.count():
            suggest.last.click()
        action = page.get_attribute("#roll", "data-action")
        assert action in legal, (action, legal)
        _click_and_wait(page, "#roll")


def _the_result_is_shown(page: Any, final: dict[str, Any]) -> None:
    """The headline in one line (the results screen of js/results.js has the table), every
    seat's place, and the final site, as the server has them."""
    assert final["over"]
    result = final["result"]
    winners = [i for i, p in enumerate(result["places"]) if p == 1]
    assert page.get_attribute("#result", "data-winners") == ",".join(map(str, winners))
    headline = page.inner_text("#result .headline")
    names = [s["name"] for s in final["seats"]]
    if result["reason"] == "full":
        assert headline == f"{names[result['winner']]} filled the site and wins (R4.1)."
    else:
        assert "R4.2" in headline
    for seat, place in enumerate(result["places"]):
        row = page.locator(f".seat-list li[data-seat='{seat}']")
        assert row.locator(".place").get_attribute("data-place") == str(place)
        assert f"{result['squares'][seat]}/" in row.inner_text()
    mine = final["state"]["seats"][0]
    assert page.locator("#my-site .sq.covered").count() == len(mine["covered"]) > 0
    covered = page.eval_on_selector_all("#my-site .sq.covered", "els => els.map(e => e.dataset.square)")
    assert sorted(covered) == sorted(mine["covered"])
    assert page.locator("#my-site .tile").count() == len(mine["tiles"])
    # Each tile drawn as its treasure, its id only in the tooltip.
    for tile in mine["tiles"]:
        drawn = page.locator(f"#my-site .tile[data-tile='{tile['tile']}']")
        assert drawn.locator("svg.art").count() == 1 and drawn.inner_text().strip() == ""
        assert tile["tile"] in drawn.get_attribute("title")
    assert page.locator(".treasure button:enabled:not(.game-log button)").count() == 0  # nothing left to do


def test_a_bad_placement_is_refused_with_its_rule_and_nothing_is_lost(web: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 3})
    page = _open(web, created["seats"][0]["invite"])
    _click_and_wait(page, "#roll")
    view = live_view(page)
    takes = takes_of(view["legal"])
    tiles = {p["pile"]: p["top"] for p in view["state"]["piles"]}
    pile = next(p for p in takes if tiles[p]["rows"] * tiles[p]["cols"] > 1)  # seed 3: the chest shows
    page.click(f"[data-pile={pile}] button.take")
    orient = page.get_attribute("#rotate", "data-orient")
    site = api(web.base, "/api/content/treasure")["sites"][view["state"]["seats"][0]["site"]]
    bad = next(sq for sq in reversed(site["squares"]) if sq not in takes[pile][orient])
    version = view["version"]
    page.click(f"#my-site [data-square={bad}]")
    message = page.locator(".message.error")
    message.wait_for()
    assert "R3.3" in message.inner_text() and "would go off the site" in message.inner_text()
    assert page_version(page) == version
    # Nothing lost: the tile is still chosen, the dice are the same, and a good square works.
    assert page.locator(f"[data-pile={pile}].selected").count() == 1
    assert live_view(page)["state"]["dice"] == view["state"]["dice"]
    shot(page, "treasure-refused")
    good = sorted(takes[pile][orient])[0]
    _click_and_wait(page, f"#my-site [data-square={good}]")
    assert page.locator(".message.error").count() == 0
    seat = live_view(page)["state"]["seats"][0]
    assert seat["tiles"][0]["square"] == good
    # The server's refusal is shown with its rule as well (a pass before the turn's roll),
    # once the bot's turn is over: a pass sent at a version the bot's moves have passed
    # is refused as stale instead (CI, 2026-12-07), as it should be.
    _until_my_turn(page)
    version = page_version(page)
    page.evaluate("window.mummyLive.act('pass').catch(() => null)")
    page.wait_for_selector(".message.error")
    assert "R3.1" in page.inner_text(".message")
    assert page_version(page) == version
    assert page.locator("#roll:enabled").count() == 1


def test_spectators_see_everything_read_only_and_a_phone_fits(web: Watched, phone: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 3,
                                "sites": ["valley", "temple"]})
    player = _open(web, created["seats"][0]["invite"])
    _click_and_wait(player, "#roll")
    legal = live_view(player)["legal"]
    text = _place(player, list(takes_of(legal))[-1], legal)
    square = text.split("@")[1].split(".")[0]
    _click_and_wait(player, f"#my-site [data-square={square}]")
    _until_my_turn(player)
    state = api(web.base, f"/api/games/{created['id']}")["state"]

    watcher = _open(phone, f"/play/{created['id']}")
    watcher.wait_for_selector(".site-card[data-seat='1']")
    assert live_view(watcher)["you"] is None
    assert watcher.locator(".treasure button:enabled:not(.game-log button)").count() == 0  # the log copies only
    assert watcher.locator("#my-site, [data-square], #roll, #pass").count() == 0
    for i, seat in enumerate(state["seats"]):
        card = watcher.locator(f".site-card[data-seat='{i}']")
        assert card.locator(".sq.covered").count() == len(seat["covered"])
        assert card.locator(".tile").count() == len(seat["tiles"])
    assert watcher.locator(".site-card.current").get_attribute("data-seat") == str(state["current"])
    assert watcher.locator("[data-pile]").count() == 6
    assert watcher.evaluate("document.scrollingElement.scrollWidth") <= 390 + 2
    shot(watcher, "treasure-phone-spectator")

    # A seat on the phone, placing a tile on the widest site (the valley, 9 squares wide).
    mine = create(phone.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 3,
                               "sites": ["valley", "oasis"]})
    seat = _open(phone, mine["seats"][0]["invite"])
    _click_and_wait(seat, "#roll")
    legal = live_view(seat)["legal"]
    _place(seat, list(takes_of(legal))[-1], legal)
    seat.locator("#my-site .sq.legal").first.hover()
    assert seat.evaluate("document.scrollingElement.scrollWidth") <= 390 + 2
    box = seat.locator("#my-site .site-grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(seat, "treasure-phone-player")


def test_the_odds_are_the_snapshots_and_the_keys_work(web: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 11})
    page = _open(web, created["seats"][0]["invite"])

    def check_odds() -> None:
        for p in live_view(page)["state"]["piles"]:
            odds = page.locator(f"[data-pile={p['pile']}] [data-testid=odds]")
            chance = p["top"]["chance"]
            assert odds.get_attribute("data-fraction") == chance["fraction"]
            # A percentage on screen, the exact fraction on hover (the tooltip).
            text = odds.inner_text()
            assert "/" not in text
            assert odds.get_attribute("title").startswith(f"exactly {chance['fraction']}:")
            pct = float(re.search(r"([\d.]+)%", text)[1])
            assert abs(pct - chance["decimal"] * 100) < 0.051, (text, chance)
            advice = page.locator(f"[data-pile={p['pile']}] [data-testid=advice]")
            assert advice.get_attribute("data-reroll") == chance["reroll"]
            assert page.inner_text(f"[data-pile={p['pile']}] [data-testid=top]") == p["top"]["tile"]
            assert page.inner_text(f"[data-pile={p['pile']}] [data-testid=left]") == f"{p['left']} left"
            needs = page.get_attribute(f"[data-pile={p['pile']}] [data-testid=needs]", "data-needs")
            assert needs == p["top"]["needs"]

    check_odds()  # a fresh turn: the reference chances of R6
    page.keyboard.press("Space")  # the first roll, by key
    wait_moved(page, 0)
    check_odds()
    dice = live_view(page)["state"]["dice"]
    assert "".join(page.locator("[data-die]").evaluate_all("els => els.map(e => e.dataset.letter)")) == dice
    page.keyboard.press("1")
    page.keyboard.press("2")
    assert page.get_attribute("[data-die='0']", "aria-pressed") == "true"
    assert page.get_attribute("[data-die='1']", "aria-pressed") == "true"
    assert page.get_attribute("#roll", "data-action") == f"reroll:{dice[2:]}"
    page.keyboard.press("2")  # released again
    assert page.get_attribute("[data-die='1']", "aria-pressed") == "false"
    assert page.get_attribute("#roll", "data-action") == f"reroll:{dice[1:]}"
    view = live_view(page)
    assert view["state"]["rolls"] == 1 and f"reroll:{dice[1:]}" in view["legal"]
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("r")  # reroll the four dice not held
    wait_moved(page, view["version"])
    after = live_view(page)["state"]
    assert after["rolls"] == 2 and dice[0] in after["dice"]
    held = page.locator("[data-die][aria-pressed=true]")
    assert held.count() == 1 and held.get_attribute("data-letter") == dice[0]  # the held die stays held
    check_odds()

    # The read-only drawing of a snapshot (the replay page's) draws the same table.
    state = api(web.base, f"/api/games/{created['id']}")["state"]
    drawn = page.evaluate("""async (state) => {
        const m = await import("/static/js/treasure.js");
        const content = await (await fetch("/api/content/treasure")).json();
        const div = document.createElement("div");
        document.body.append(div);
        m.renderTreasureState(div, state, content, {names: ["Ann", "Sphinx"]});
        return {buttons: div.querySelectorAll("button").length, piles: div.querySelectorAll("[data-pile]").length,
                sites: div.querySelectorAll(".site-card").length, odds: [...div.querySelectorAll("[data-fraction]")]
                .map(e => e.dataset.fraction), names: div.querySelector(".seat-list").textContent};
    }""", state)
    assert drawn["buttons"] == 0 and drawn["piles"] == 6 and drawn["sites"] == 2
    assert drawn["odds"] == [p["top"]["chance"]["fraction"] for p in state["piles"]]
    assert "Sphinx" in drawn["names"]
