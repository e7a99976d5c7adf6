"""The Mummy's Tomb in a real browser: the rulebook's first round on Map 1 by clicking
(T9), undo, the rest of the game chosen by a bot, two players on the same dice, and bad
clicks refused with the engine's rule."""

from __future__ import annotations

from typing import Any

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from tests.helpers import FIVE_FIVE_SEED
from tests.web.conftest import Watched, api, create, live_view, page_version, shot, wait_moved

TOMB = KINDS["tomb"]


def _open(page: Any, base: str, invite: str) -> None:
    page.goto(base + invite)
    page.wait_for_selector("#sheet")


def _solo(web: Watched, name: str = "Jane") -> tuple[Any, dict[str, Any]]:
    """A solo Tomb game on Map 1 whose first roll is 5 and 5, open in a page."""
    created = create(web.base, {"game": "tomb", "seats": [{"name": name}], "seed": FIVE_FIVE_SEED})
    page = web.page()
    _open(page, web.base, created["seats"][0]["invite"])
    return page, created


def _place(page: Any, slot: int, shape: str, orient: str, square: str, *, keys: str = "") -> None:
    """Choose die ``slot``, shape, orientation (by its button, or by keys R/F), click the square."""
    before = page_version(page)
    page.click(f"#dice [data-slot='{slot}']")
    page.click(f"#tools [data-shape='{shape}']")
    if keys:
        for key in keys:
            page.keyboard.press(key)
    else:
        page.click(f"#tools [data-orient='{orient}']")
    assert page.get_attribute(f"#tools [data-orient='{orient}']", "aria-pressed") == "true"
    page.hover(f"#sheet [data-square='{square}']")
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "legal"  # the preview says yes
    page.click(f"#sheet [data-square='{square}']")
    wait_moved(page, before)


def _covered(page: Any) -> set[str]:
    sheet = page.evaluate("window.mummyLive.view.state.sheets[window.mummyLive.view.you]")
    return set(sheet["covered"])


def test_first_round_by_clicking_undo_then_a_bot_plays_to_the_end(web: Watched) -> None:
    page, created = _solo(web)
    game_id, token = created["id"], created["seats"][0]["token"]
    assert [page.get_attribute(f"#dice [data-slot='{s}']", "data-value") for s in (1, 2)] == ["5", "5"]
    shot(page, "tomb-round1-start")

    # The rulebook's First Round Example (T9), every choice made by clicking.
    _place(page, 1, "5a", "r0", "J1")
    assert _covered(page) == {"J1", "I2", "J2", "K2", "J3"}
    assert {page.get_attribute(f"#sheet [data-opening='{e}']", "data-opening") for e in ("I2w", "L2w", "J4n")} \
        == {"I2w", "L2w", "J4n"}
    _place(page, 2, "5b", "r3", "J4", keys="RRR")  # three quarter turns by keyboard
    assert page.get_attribute("[data-coins]", "data-coins") == "3"  # the 3 coins of I6
    assert page.get_attribute("#dice [data-slot='3']", "data-value") == "2"  # row 5 paid: a bonus 2 (T2.4)
    _place(page, 3, "2a", "r0", "E6")
    before = page_version(page)
    page.click("#buy2")  # three coins choose a 2 (T4.2)
    wait_moved(page, before)
    assert page.get_attribute("[data-coins]", "data-coins") == "0"
    _place(page, 4, "2b", "r0", "F2")
    assert "F2" in _covered(page)
    assert page.locator("#sheet [data-finding='F2'].collected").count() == 1  # the mimic is found
    assert page.locator("[data-item='shovel'].found").count() == 1
    assert page.locator(".monster-log [data-monster='mimic'] .mbox.circled").count() == 1
    marked = set(
        page.eval_on_selector_all(".tile-table td.marked", "els => els.map(e => e.dataset.shape)"))
    assert marked == {"2a", "2b", "5a", "5b"}
    shot(page, "tomb-round1-played")

    # Undo the fork, then place it again: undo goes back to the last roll (T4.6).
    before = page_version(page)
    page.click("#undo")
    wait_moved(page, before)
    assert "F2" not in _covered(page) and page.locator("#sheet [data-finding='F2'].collected").count() == 0
    _place(page, 4, "2b", "r0", "F2")
    before = page_version(page)
    page.click("#end")
    wait_moved(page, before)
    assert page.inner_text("#round") == "Round 2 of 20"
    assert page.get_attribute("#dice [data-slot='1']", "data-value") == "5"  # the bonus 5 carried (T2.5)

    # The rest of the game: a bot chooses, the page sends (a mirror of the game chooses).
    mirror = TOMB.new(FIVE_FIVE_SEED, {"map": "map1", "mode": "standard"}, ["Jane"])
    for text in ["1:5a.r0@J1", "2:5b.r3@J4", "3:2a.r0@E6", "buy2", "4:2b.r0@F2", "end"]:
        TOMB.apply(mirror, 0, text)
    bot = make_agent("tomb", "greedy", 7)
    while not mirror.is_over:
        text = TOMB.text(mirror, 0, bot.act(mirror, 0))
        TOMB.apply(mirror, 0, text)
        before = page_version(page)
        page.evaluate("t => window.mummyLive.act(t)", text)
        wait_moved(page, before)
    page.wait_for_selector("#results")
    view = api(web.base, f"/api/games/{game_id}", token=token)
    assert view["over"]
    total = view["result"]["scores"][0]
    assert f"Jane: {total} points" in page.inner_text("#results")
    assert page.inner_text("#score [data-total]") == str(total)
    shot(page, "tomb-final")


def test_bad_clicks_are_refused_with_the_rule_and_nothing_changes(web: Watched) -> None:
    page, _ = _solo(web)
    page.click("#dice [data-slot='1']")
    page.click("#tools [data-shape='5a']")
    page.hover("#sheet [data-square='H2']")
    assert page.get_attribute("#sheet [data-preview]", "data-preview") == "illegal"
    page.click("#sheet [data-square='H2']")  # the first tile must open on an entrance
    page.wait_for_selector(".message.error")
    assert "T3.2" in page.inner_text(".message.error")
    assert page_version(page) == 0 and _covered(page) == set()
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.click("#sheet [data-square='H2']")  # no die chosen: a hint, no request
    assert "Choose a die" in page.inner_text(".message")
    assert page.is_disabled("#end") and page.is_disabled("#buy")  # not allowed now
    shot(page, "tomb-refused")


def _play_until_end(page: Any) -> None:
    """Send the first legal action until ending the round is allowed."""
    view = live_view(page)
    while "end" not in view["legal"]:
        page.evaluate("t => window.mummyLive.act(t)", view["legal"][0])
        wait_moved(page, view["version"])
        view = live_view(page)


def test_two_players_share_the_dice_and_see_each_other(web: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": FIVE_FIVE_SEED})
    ann, bob = web.page(), web.page()
    _open(ann, web.base, created["seats"][0]["invite"])
    _open(bob, web.base, created["seats"][1]["invite"])
    dice = [[p.get_attribute(f"#dice [data-slot='{s}']", "data-value") for s in (1, 2)] for p in (ann, bob)]
    assert dice[0] == dice[1] == ["5", "5"]  # one roll for everybody (T4.1)
    _place(ann, 1, "5a", "r0", "J1")
    bob.wait_for_function("() => window.mummyLive.view.state.sheets[0].covered['J1'] === 1")
    assert bob.locator("[data-other='0'] svg.sheet [data-wall]").count() > 0  # Ann's sheet, read only
    _place(bob, 1, "5b", "r1", "C10")  # Bob starts elsewhere: the corner on the bottom entrance
    assert "C12" in _covered(bob) and "J1" not in _covered(bob)
    _play_until_end(ann)
    before = page_version(ann)
    ann.click("#end")
    wait_moved(ann, before)
    bob.wait_for_selector("#players [data-player='0'] [data-phase='waiting']")
    assert ann.inner_text("#round") == "Round 1 of 20"  # Bob is still playing
    shot(bob, "tomb-two-players")
    _play_until_end(bob)
    bob.click("#end")
    ann.wait_for_function("() => window.mummyLive.view.state.round === 2")
    bob.wait_for_function("() => window.mummyLive.view.state.round === 2")
    assert ann.inner_text("#round") == bob.inner_text("#round") == "Round 2 of 20"
    rolled = [p.eval_on_selector_all("#dice [data-source='roll']", "els => els.map(e => e.dataset.value)")
              for p in (ann, bob)]
    assert rolled[0] == rolled[1] == [str(v) for v in bob.evaluate("window.mummyLive.view.state.dice")]


def test_the_sheet_fits_a_phone_and_a_spectator_cannot_act(phone: Watched, web: Watched) -> None:
    page, created = _solo(phone)
    _place(page, 1, "5a", "r0", "J1")  # tapping works at this size too
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 392, f"the page is {width}px wide on a 390px screen"
    shot(page, "tomb-phone")
    view = web.page()  # another browser (its own context, watched too), holding no seat
    view.goto(f"{web.base}/play/{created['id']}")
    view.wait_for_selector("#sheet [data-wall]", state="attached")  # Jane's tile, seen by a spectator
    assert view.locator("#dice button:enabled").count() == 0 and view.locator("#end").count() == 0
    assert "watching" in view.inner_text("#title")


def _click_action(page: Any, text: str) -> None:
    """Enter one action of the notation the way a player would: by clicking."""
    source, _, verb = text.partition(":")
    if not verb:  # buy, buyN, open, open+skey, end
        page.click(f"[data-action='{text}']")
        return
    if source in ("wand", "shovel"):
        page.click(f"[data-source='{source}']")
    else:
        page.click(f"#dice [data-slot='{source.split('+')[0]}']")
    if verb.startswith("dig."):
        sides, _, square = verb[4:].partition("@")
        page.click(f"#tools [data-dig='{sides}']")
        page.click(f"#sheet [data-square='{square}']")
    elif verb.startswith(("erase@", "add@")):
        tool, _, edge = verb.partition("@")
        page.click(f"#tools [data-tool='{tool}']")
        page.locator(f"#sheet [data-edge='{edge}']").dispatch_event("click")  # a line: no area to aim at
    elif "@" in verb:
        shape_orient, _, square = verb.partition("@")
        shape, _, orient = shape_orient.partition(".")
        if shape == "room":
            page.click(f"#tools [data-shape='room'][data-slots='{source}']")
        else:
            page.click(f"#tools [data-shape='{shape}']")
        page.click(f"#tools [data-orient='{orient}']")
        page.click(f"#sheet [data-square='{square}']")
    elif verb.split("+")[0] in ("ooze", "skeleton", "zombie", "mimic", "mummy") or verb.startswith("golem."):
        page.click(f".monster-log [data-action='{text}']")  # lit up in the Monster Log for this die
    else:  # up, down, discard
        page.click(f"#tools [data-action='{text}']")


def _confirm_if_warned(page: Any, before: int) -> list[str]:
    """Wait for the action to land; if the page asks first (a warning), confirm it.
    Returns the warning codes that were confirmed."""
    page.wait_for_function("v => window.mummyLive.view.version > v || !!document.querySelector('dialog[open]')",
                           arg=before)
    if page_version(page) > before:
        return []
    codes: list[str] = page.eval_on_selector_all("#warning li", "els => els.map(e => e.dataset.code)")
    page.click("#warn-confirm")
    wait_moved(page, before)
    return codes


def test_a_whole_game_entered_by_clicking_on_map2(web: Watched) -> None:
    """Every action a strong bot chooses, entered through the page's buttons and the sheet
    (Map 2), the page's sheet equal to the engine's after each one."""
    seed = 4243  # its bot uses every kind of action below (4242 did until T6.3 took the first-tile dig)
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Kim"}], "map": "map2", "seed": seed})
    page = web.page()
    _open(page, web.base, created["seats"][0]["invite"])
    mirror = TOMB.new(seed, {"map": "map2", "mode": "standard"}, ["Kim"])
    bot = make_agent("tomb", "strong", 3)  # it uses nearly every kind of action
    kinds: set[str] = set()
    warned: list[str] = []  # the warnings the page asked to confirm (the bot knows what it does)
    while not mirror.is_over:
        text = TOMB.text(mirror, 0, bot.act(mirror, 0))
        TOMB.apply(mirror, 0, text)
        before = page_version(page)
        _click_action(page, text)
        warned.extend(_confirm_if_warned(page, before))
        assert page.evaluate("() => window.mummyLive.view.state.sheets[0].covered") == \
            TOMB.view(mirror)["sheets"][0]["covered"]
        kinds.add(text.partition(":")[2].split("@")[0].split(".")[0] or text.rstrip("123456"))
    page.wait_for_selector("#results")
    print("warnings confirmed:", warned)
    # Tiles, the Wand (both ways), the Shovel, buying, coins on dice, keys and items on monsters:
    assert {"end", "erase", "add", "dig", "buy", "up", "down", "open+skey", "ooze+hammer", "golem",
            "mimic+skey", "mummy"} <= kinds, kinds
    shot(page, "tomb-map2-final")


def test_an_action_sent_as_the_connection_drops_is_applied_once(web: Watched) -> None:
    page, created = _solo(web)
    # Send, and cut the connection before the answer can arrive: the page reconnects and
    # sends the same client id again; the server applies it once and answers both times.
    result = page.evaluate("""async () => {
        const live = window.mummyLive;
        const answer = live.act("1:5a.r0@J1");
        live.socket.close();
        return await answer;
    }""")
    assert result["action"] == "1:5a.r0@J1" and result["version"] == 1
    page.wait_for_selector("#status[data-state=open]")
    view = api(web.base, f"/api/games/{created['id']}", token=created["seats"][0]["token"])
    assert view["version"] == 1  # once, not twice
    _place(page, 2, "5b", "r3", "J4")  # and the page goes on as before


def test_keyboard_enter_on_a_button_is_the_button_and_a_wrong_link_does_not_stick(web: Watched) -> None:
    page, created = _solo(web, "<img src=x onerror=alert(1)>")
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#players")  # a name is text, never markup
    page.keyboard.press("1")
    page.click("#tools [data-shape='5b']")
    page.keyboard.press("ArrowDown")  # the keyboard cursor is on the sheet
    page.focus("#tools [data-orient='r1']")
    page.keyboard.press("Enter")  # chooses the orientation: places nothing
    assert page.get_attribute("#tools [data-orient='r1']", "aria-pressed") == "true"
    assert page_version(page) == 0
    # A link with a wrong token says so, and does not replace the seat this browser holds.
    page.goto(f"{web.base}/")  # leave the page (a new fragment alone would not reload it)
    page.goto(f"{web.base}/play/{created['id']}#token=not-a-token")
    page.wait_for_selector(".error-page")
    page.goto(f"{web.base}/")
    page.goto(f"{web.base}/play/{created['id']}")
    page.wait_for_selector("#sheet")
    assert page.evaluate("() => window.mummyLive.view.you") == 0


def test_a_burst_of_actions_from_a_script_keeps_the_connection(web: Watched) -> None:
    """The page paces what it sends below the server's flood limit (20 a second)."""
    page, _ = _solo(web)
    outcomes = page.evaluate("""async () => {
        const live = window.mummyLive;
        const tries = Array.from({length: 30}, () => live.act("1:5a.r0@J1"));
        return (await Promise.allSettled(tries)).map((r) => r.status === "fulfilled" ? "ok" : r.reason.error.code);
    }""")
    assert outcomes.count("ok") == 1 and "disconnected" not in outcomes, outcomes  # one applied, the rest stale
    assert page.get_attribute("#status", "data-state") == "open"
