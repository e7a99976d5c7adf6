"""The end of a game in a real browser (js/results.js, contracts §3), and the page shell's
alerts (js/alerts.js): the results screen of both games checked against the view's
result, a rematch started from it, the personal best and the leaderboard of a solo game,
the turn alert in the tab's title, the remembered sound toggle, and the daily label."""

from __future__ import annotations

import re
import time
from typing import Any

from mummy.tomb.scoring import ACHIEVEMENTS  # T7's, as the engine awards them
from mummy.web.content import tomb_results
from tests.web.conftest import ARTIFACTS, Watched, api, create, live_view, play_greedy_tomb

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
VALLEY = "(from 1 earlier game on Valley in this browser)"


def shot(page: Any, name: str) -> None:
    """The results screen as the player sees it (it is fixed over the page: a whole-page
    picture would show the page under it), then, if it scrolls, its end too."""
    ARTIFACTS.mkdir(exist_ok=True)
    if not name.endswith("phone"):
        page.set_viewport_size({"width": 1366, "height": 768})  # the desktop of the team's screenshots
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    screen = page.locator("#game-results")
    if screen.evaluate("s => s.scrollHeight > s.clientHeight"):
        screen.evaluate("s => { s.scrollTop = s.scrollHeight; }")
        page.screenshot(path=str(ARTIFACTS / f"{name}-end.png"))
        screen.evaluate("s => { s.scrollTop = 0; }")


def _views(base: str, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [api(base, f"/api/games/{game_id}", token=t) for t in tokens]


def _play(base: str, game_id: str, tokens: list[str], *, until: Any = None, biggest: bool = False) -> None:
    """Play the people's seats over HTTP (the page sees every move by its websocket) until
    the game is over or ``until(views)`` holds: each seat's last legal action (in Treasure
    with ``biggest``, the biggest tile on offer, else a roll or a pass); the bots play their own."""
    for n in range(3000):
        views = _views(base, game_id, tokens)
        if views[0]["over"] or (until and until(views)):
            return
        acting = [(i, v) for i, v in enumerate(views) if v.get("legal")]
        if not acting:  # a bot's turn: the server plays it in a moment
            time.sleep(0.02)
            continue
        seat, view = acting[0]
        wanted = [a for a in view["legal"] if a.startswith("take:") or a == "roll"] if biggest else []
        text = (sorted(wanted, key=lambda a: a.startswith("take:")) or view["legal"])[-1]
        api(base, f"/api/games/{game_id}/actions",
            {"client_id": f"t{seat}-{n}", "version": view["version"], "action": text}, token=tokens[seat])
    raise AssertionError("the game did not end")


def _results(page: Any) -> Any:
    """The results screen, once the page has drawn every update up to the end (a page on a
    busy machine may take a while to draw a game's worth of moves played from a script)."""
    page.wait_for_selector("#game-results:not([hidden]) .results-table", timeout=90_000)
    return page.locator("#game-results")


def _table(page: Any) -> dict[str, dict[int, str]]:
    """The results table as line -> seat -> cell text."""
    rows: dict[str, dict[int, str]] = {}
    for row in page.locator("#game-results tbody tr").all():
        line = row.get_attribute("data-line")
        rows[line] = {int(c.get_attribute("data-seat")): c.inner_text() for c in row.locator("td").all()}
    return rows


def _achievements_shown(page: Any, view: dict[str, Any]) -> None:
    """Every achievement of T7 is listed; those earned (by whom, as the result says) in
    full, the others folded with what each needs."""
    names = page.eval_on_selector_all("[data-achievement]", "els => els.map(e => e.dataset.achievement)")
    assert sorted(names) == sorted(ACHIEVEMENTS)
    earned = {n for a in view["result"]["achievements"] for n in a}
    shown = set(page.eval_on_selector_all("ul.earned [data-achievement]", "els => els.map(e => e.dataset.achievement)"))
    assert shown == earned
    for name in earned:
        who = [s["name"] if i != view["you"] else "you" for i, s in enumerate(view["seats"])
               if name in view["result"]["achievements"][i]]
        assert all(w in page.inner_text(f"ul.earned [data-achievement='{name}']") for w in who)
    if not earned:
        assert page.inner_text(".results-achievements p") == "No achievement this game."


def _column_order(page: Any) -> list[int]:
    return [int(s) for s in page.eval_on_selector_all("#game-results thead th[data-seat]",
                                                      "els => els.map(e => e.dataset.seat)")]


def test_a_tomb_game_ends_on_a_ranked_table_of_every_score_line(web: Watched, phone: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}]})
    game_id, token = created["id"], created["seats"][0]["token"]
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    assert page.locator("#game-results").count() == 0  # not while the game goes on
    _play(web.base, game_id, [token])
    screen = _results(page)
    view = api(web.base, f"/api/games/{game_id}", token=token)
    result = view["result"]
    assert screen.get_attribute("role") == "dialog"
    # Ranked: the columns in the order of the places (T7), the lines as the result has them.
    order = _column_order(page)
    assert [result["places"][i] for i in order] == sorted(result["places"])
    table = _table(page)
    for line in result["lines"][0]:
        assert table[line] == {i: str(result["lines"][i][line]) for i in (0, 1)}, line
    assert table["total"] == {i: str(result["scores"][i]) for i in (0, 1)}
    assert sum(result["lines"][0].values()) == result["scores"][0]
    # The lines' labels and order are the content's (the engine's), the same on the
    # results screen and in the sheet's score panel (once the results are folded away).
    words = api(web.base, "/api/content/tomb")["results"]
    assert words == tomb_results()
    labels = page.eval_on_selector_all("#game-results tbody th[scope=row]", "els => els.map(e => e.textContent)")
    assert labels == [label for _, label in words["lines"][:-1]] + [f"{words['lines'][-1][1]} (T7)"]
    assert list(table) == [key for key, _ in words["lines"]]
    panel = page.eval_on_selector_all("#score table.score tr", "els => els.map(e => e.cells[0].textContent)")
    assert panel == [label for _, label in words["lines"]]
    headers = page.locator("#game-results thead th[data-seat]")
    assert headers.nth(order.index(0)).inner_text().startswith(ORDINAL[result["places"][0]])
    winners = [i for i, p in enumerate(result["places"]) if p == 1]
    banner = page.locator(".results-banner")
    assert banner.get_attribute("data-winners") == ",".join(map(str, winners))
    headline = page.inner_text("#results-headline")
    assert view["seats"][winners[0]]["name"] in headline and str(result["scores"][winners[0]]) in headline
    assert page.inner_text(".results-banner .meaning") == f"You finished {ORDINAL[result['places'][0]]} of 2."
    # The achievements of T7, each with whoever earned it.
    _achievements_shown(page, view)
    assert page.locator("#rematch").is_visible() and page.get_attribute("#replay", "href") == f"/replay/{game_id}"
    assert page.get_attribute("#new-game", "href") == "/"
    assert page.locator("#results-solo, .results-solo").count() == 0  # the personal best is for solo games
    shot(page, "results-tomb-desktop")

    # It folds away to show the final sheet, and comes back.
    page.click("#results-close")
    assert page.locator("#game-results").is_hidden() and page.locator("#sheet").is_visible()
    page.click("#results-open")
    assert page.locator("#game-results").is_visible()

    # Opened on a finished game (a phone this time): the results at once.
    small = phone.page()
    small.goto(phone.base + created["seats"][0]["invite"])
    _results(small)
    assert _table(small) == table
    assert small.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    shot(small, "results-tomb-phone")


def _best_after_two(page: Any, first: dict[str, Any], second: dict[str, Any]) -> None:
    """The personal best of a second solo Treasure game on a site: fewer turns is better,
    and only a filled site sets one (R4.3)."""
    page.wait_for_function("() => !document.getElementById('results-best').textContent.includes('looking')")
    best = page.inner_text("#results-best")
    filled = second["reason"] == "full"
    if first["reason"] != "full":
        assert best.startswith("Your first finished game" if filled else "No finished game")
        return
    turns, now = first["turns"][0], second["turns"][0]
    if filled and now < turns:
        assert best == f"A new personal best! Your best before was {turns} turns {VALLEY}."
    elif filled and now == turns:
        assert best == f"Equal to your personal best of {turns} turns {VALLEY}."
    else:
        assert best == f"Your personal best is {turns} turns {VALLEY}."


def test_a_solo_treasure_game_compares_and_rematches_from_the_results(web: Watched, phone: Watched) -> None:
    created = create(web.base, {"game": "treasure", "seats": [{"name": "Nefer"}], "sites": ["valley"]})
    first_id, token = created["id"], created["seats"][0]["token"]
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector(".treasure")
    _play(web.base, first_id, [token], biggest=True)
    _results(page)
    view = live_view(page)
    result, size = view["result"], view["state"]["seats"][0]["squares"]
    table = _table(page)
    assert table["total"] == {0: f"{result['squares'][0]} of {size}"}
    assert table["turns"] == {0: str(result["turns"][0])}
    assert table["site"] == {0: "Valley"}
    assert table["tiles"] == {0: str(len(view["state"]["seats"][0]["tiles"]))}
    full = result["reason"] == "full"
    assert table["filled"] == {0: "✔ filled it" if full else "—"}
    headline = page.inner_text("#results-headline")
    assert headline == (f"Site filled in {result['turns'][0]} turns" if full
                        else f"Unfinished: {result['squares'][0]} of {size} squares covered")
    page.wait_for_function("() => !document.getElementById('results-best').textContent.includes('looking')")
    page.wait_for_function("() => !document.getElementById('results-rank').textContent.includes('looking')")
    best, rank = page.inner_text("#results-best"), page.inner_text("#results-rank")
    if full:
        turns = result["turns"][0]
        assert best == f"Your first finished game on Valley in this browser: {turns} turns is the best to beat."
        board = api(web.base, "/api/leaderboards/treasure?where=valley")["leaderboard"]
        at = [r["id"] for r in board].index(first_id)
        assert rank == f"Rank {at + 1} of {len(board)} on the Valley leaderboard."
    else:
        assert best == "No finished game on Valley in this browser sets a best yet."
        assert rank == "Not on the leaderboard: an unfinished site sets no record (R4.3)."
    assert page.locator(".results-achievements").count() == 0  # Treasure has none
    shot(page, "results-treasure-desktop")

    # Rematch: the same site and player on new dice, opened for this browser's seat.
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + re.escape(first_id) + r")[\w-]+$"))
    page.wait_for_selector(".treasure")
    again = live_view(page)
    assert again["id"] != first_id and not again["over"] and again["you"] == 0
    assert again["config"] == view["config"] and [s["name"] for s in again["seats"]] == ["Nefer"]
    assert page.locator("#game-results").count() == 0
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('mummy.seats'))")
    assert stored[0]["id"] == again["id"] and stored[0]["seat"] == 0
    new_token = stored[0]["token"]

    # The rematch played to its end: its best is compared with the first game's.
    _play(web.base, again["id"], [new_token], biggest=True)
    _results(page)
    _best_after_two(page, result, live_view(page)["result"])

    small = phone.page()
    small.goto(f"{phone.base}/play/{again['id']}#token={new_token}")
    _results(small)
    assert small.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(small, "results-treasure-phone")


def test_a_rematch_is_one_game_for_both_players_screens(web: Watched, phone: Watched) -> None:
    """Ann (a desktop) and Bob (a phone), each in their own browser: Ann starts the
    rematch, Bob's screen turns to "Join the rematch" without a reload, and Bob joins the
    same game in his own seat; neither browser gets the other's token."""
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}, {"name": "Bob"}], "map": "map2"})
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    ann, bob = web.page(), phone.page()
    for page, seat in ((ann, 0), (bob, 1)):
        page.goto(web.base + created["seats"][seat]["invite"])
        page.wait_for_selector("#sheet")
    _play(web.base, game_id, tokens)
    for page in (ann, bob):
        _results(page)
        assert page.inner_text("#rematch") == "Rematch"
    ann.click("#rematch")
    ann.wait_for_url(re.compile(r"/play/(?!" + re.escape(game_id) + r")[\w-]+$"))
    ann.wait_for_selector("#sheet")
    new = live_view(ann)
    assert new["you"] == 0 and new["config"] == {"map": "map2", "mode": "standard"} and not new["over"]
    # Bob's screen is told: his button joins the game Ann started.
    bob.wait_for_function("() => document.getElementById('rematch').textContent === 'Join the rematch'")
    assert bob.get_attribute("#rematch", "data-rematch") == new["id"]
    assert "A rematch has started" in bob.inner_text("#results-note")
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(bob, "results-rematch-join-phone")
    bob.click("#rematch")
    bob.wait_for_url(f"**/play/{new['id']}")
    bob.wait_for_selector("#sheet")
    assert live_view(bob)["you"] == 1 and live_view(bob)["id"] == new["id"]
    # One rematch, each browser holding only its own seat of it.
    assert api(web.base, f"/api/games/{game_id}")["rematch"] == new["id"]
    for page, seat in ((ann, 0), (bob, 1)):
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('mummy.seats'))")
        held = [(s["seat"], s["token"]) for s in stored if s["id"] == new["id"]]
        assert [s for s, _ in held] == [seat]
        assert api(web.base, f"/api/games/{new['id']}", token=held[0][1])["you"] == seat
    # Ann back on the old game's page: the rematch is hers already, a link to it.
    ann.goto(f"{web.base}/play/{game_id}")
    _results(ann)
    assert ann.inner_text("#rematch") == "Play the rematch"
    assert ann.get_attribute("#rematch", "href") == f"/play/{new['id']}"
    shot(ann, "results-rematch-desktop")


def test_a_spectator_gets_no_rematch_button(web: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}]})
    _play(web.base, created["id"], [created["seats"][0]["token"]])
    page = web.page()  # a browser holding no seat of it
    page.goto(f"{web.base}/play/{created['id']}")
    _results(page)
    assert page.locator("#rematch").count() == 0 and page.locator("#new-game").is_visible()
    # Later views of the finished game (a resync, a rematch started) draw nothing twice
    # and add no handler twice: one screen, and its buttons toggle it once a click.
    page.evaluate("() => { for (let i = 0; i < 3; i++) "
                  "window.mummyLive.dispatchEvent(new CustomEvent('view', { detail: window.mummyLive.view })); }")
    assert page.locator("#game-results").count() == 1 and page.locator("#results-open").count() == 1
    page.click("#results-close")
    assert page.locator("#game-results").is_hidden() and page.locator("#results-open").is_visible()
    page.click("#results-open")
    assert page.locator("#game-results").is_visible() and page.locator("#results-open").is_hidden()


def test_the_tab_title_says_whose_turn_and_the_sound_choice_is_remembered(web: Watched, phone: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#sheet")
    page.wait_for_function("() => document.title.startsWith('●')")
    assert page.title() == "● Your turn — The Mummy's Tomb"
    # Sounds are off until turned on, and the choice outlives a reload.
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#sheet")
    assert page.get_attribute("#sound", "aria-pressed") == "true" and "Sound on" in page.inner_text("#sound")
    page.click("#round")  # a first gesture on the page lets it play sounds

    # Ann ends her round: the title is restored while she waits for Bob (T4.4)...
    def ann_waits(views: list[dict[str, Any]]) -> bool:
        return 0 not in views[0]["to_act"]

    _play(web.base, game_id, tokens[:1], until=ann_waits)
    page.wait_for_function("() => !document.title.startsWith('●')")
    assert page.title() == "The Mummy's Tomb — mummy"
    # ...and comes back with the next round once Bob ends his, with the turn's sound.
    _play(web.base, game_id, tokens, until=lambda views: 0 in views[0]["to_act"] and views[0]["state"]["round"] == 2)
    page.wait_for_function("() => document.title.startsWith('●')")
    page.wait_for_function("() => document.getElementById('sound').dataset.lastSound === 'turn'")
    page.click("#sound")  # off again, and remembered
    page.reload()
    page.wait_for_selector("#sheet")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    spectator = phone.page()  # another browser, holding no seat: nobody's turn for a spectator
    spectator.goto(f"{phone.base}/play/{game_id}")
    spectator.wait_for_selector("#sheet")
    assert spectator.title() == "The Mummy's Tomb — mummy"


def test_a_daily_game_is_labelled_and_has_no_rematch(web: Watched) -> None:
    created = api(web.base, "/api/daily/treasure", {"name": "Dee"})
    page = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector(".treasure")
    day = live_view(page)["daily"]
    assert page.inner_text("#daily") == f"Daily challenge {day}"
    _play(web.base, created["id"], [created["seats"][0]["token"]], biggest=True)
    _results(page)
    assert page.locator("#rematch").count() == 0 and page.locator("#replay").count() == 0
    assert "one game a day" in page.inner_text("#results-note")
    assert "The replay opens when the day is over." in page.inner_text("#game-results")
    page.wait_for_function("() => !document.getElementById('results-rank').textContent.includes('looking')")
    rank = page.inner_text("#results-rank")
    if live_view(page)["result"]["reason"] == "full":
        board = api(web.base, f"/api/daily/treasure?day={day}")["leaderboard"]
        ids = [r["id"] for r in board]
        assert rank == (f"Rank {ids.index(created['id']) + 1} of {len(board)} on the daily challenge of {day}."
                        if created["id"] in ids else f"Not on the daily challenge of {day}.")
    else:
        assert rank == "Not on the leaderboard: an unfinished site sets no record (R4.3)."


def test_a_solo_tomb_game_says_its_score_its_personal_best_and_its_rank(web: Watched) -> None:
    page = web.page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    scores = []
    for body in ({"seed": 1}, {}):  # a chosen seed first (known dice: no record), then a secret one
        created = create(web.base, {"game": "tomb", "seats": [{"name": "Jane"}], **body})
        page.goto(web.base + created["seats"][0]["invite"])
        page.wait_for_selector("#sheet")
        if body:
            play_greedy_tomb(web.base, created["id"], created["seats"][0]["token"], 1)
        else:
            _play(web.base, created["id"], [created["seats"][0]["token"]])
        _results(page)
        page.wait_for_function("() => !document.getElementById('results-rank').textContent.includes('looking')")
        page.wait_for_function("() => !document.getElementById('results-best').textContent.includes('looking')")
        scores.append(live_view(page)["result"]["scores"][0])
        assert page.inner_text("#results-headline") == f"{scores[-1]} Fame points"
        assert "Solo, the aim is to beat your own score" in page.inner_text(".results-banner .meaning")
        assert _table(page)["total"] == {0: str(scores[-1])}
        if body:
            assert page.inner_text("#results-rank") == \
                "Not on the leaderboard: this game's seed was chosen, so its dice were known."
            assert page.inner_text("#results-best") == \
                f"Your first finished game on Map 1 in this browser: {scores[-1]} points is the best to beat."
            _achievements_shown(page, live_view(page))
            shot(page, "results-tomb-solo-desktop")
    best, now = scores
    from_ = "(from 1 earlier game on Map 1 in this browser)"
    expected = (f"A new personal best! Your best before was {best} points {from_}." if now > best
                else f"Equal to your personal best of {best} points {from_}." if now == best
                else f"Your personal best is {best} points {from_}.")
    assert page.inner_text("#results-best") == expected
    # The personal best is one request (My games gives each game's result for the seat),
    # not one view per earlier game.
    assert sum("/api/my-games" in url for url in asked) == 2  # one for each results screen
    assert not [url for url in asked if re.search(r"/api/games/(?!kinds$)[\w-]+$", url)]  # (kinds: the games there are)
    board = api(web.base, "/api/leaderboards/tomb?where=map1")["leaderboard"]
    ids = [r["id"] for r in board]
    rank = page.inner_text("#results-rank")
    n = len(board)
    assert rank == (f"Rank {ids.index(created['id']) + 1} of {n} on the Map 1 leaderboard." if created["id"] in ids
                    else f"Not in the top {n} of the Map 1 leaderboard (number {n} has {board[-1]['score']} points).")
    _achievements_shown(page, live_view(page))
