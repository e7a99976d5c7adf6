"""The log in plain language, checked against the engines on games bots play to the end:
every action gets a sentence, and what the sentence says it gained is what the sheet
gained (coins, keys, items, the engine's own events), what chance showed is the
engine's chance events, and each game's words are its own (Tile Table names, tile sizes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from mummy.render.narrate import LOG_TAIL, NARRATORS, Line, log_entry, narrator_named
from mummy.render.narrate_tomb_words import ITEM_NAMES, shape_name
from mummy.render.narrate_words import a_or_n, plural
from mummy.tomb.actions import BUY, DEFEAT, DIG, END, PLACE, parse
from mummy.tomb.content import ITEMS
from mummy.tomb.game import TombGame
from mummy.tomb.sheet import Sheet
from mummy.treasure.actions import REROLL, ROLL, TAKE
from mummy.treasure.actions import parse as treasure_parse
from mummy.treasure.content import sort_symbols
from mummy.treasure.game import TreasureGame
from tests.helpers import act, dice, game


def played(name: str, seed: int, bots: list[str]) -> Iterator[tuple[Any, int, str, Any, Line]]:
    """A game between bots, step by step: (game after, seat, canonical text, what the
    narrator kept from before, the step's line)."""
    kind, narrator = KINDS[name], NARRATORS[name]
    g = kind.new(seed, kind.validate({}, len(bots)), [f"P{i}" for i in range(len(bots))])
    agents = [make_agent(name, b, seed * 10 + i) for i, b in enumerate(bots)]
    while not kind.is_over(g):
        seat = kind.to_act(g)[0]
        text = kind.text(g, seat, agents[seat].act(g, seat))
        before = narrator.before(g, seat, text)
        canonical, _ = kind.apply(g, seat, text)
        yield g, seat, canonical, before, narrator.narrate(g, seat, canonical, before)


def tomb_gains(prior: Sheet, after: Sheet) -> list[str]:
    """What the sheet's own counters say the action gained, in the words of the log."""
    said = []
    coins = after.coins_gained - prior.coins_gained
    if coins:
        said.append(plural(coins, "coin"))
    keys = after.keys_gained - prior.keys_gained - (after.cols_paid & ~prior.cols_paid).bit_count()
    if keys > 0:
        said.append(a_or_n(keys, "key"))
    said += [f"{ITEM_NAMES[ITEMS[i]]} found" for i in range(len(ITEMS))
             if after.items_found >> i & 1 and not prior.items_found >> i & 1]
    return said + list(after.events[len(prior.events):])


def check_tomb_step(g: TombGame, seat: int, text: str, before: Any, line: Line) -> None:
    prior, after = before.sheet, g.sheets[seat]
    assert line.sentence and "@" not in line.sentence, (text, line)  # words, not notation
    for words in tomb_gains(prior, after):
        assert words in line.sentence, (text, words, line.sentence)
    if after.coins_gained == prior.coins_gained:  # no coins said but a price or the engine's events
        rest = line.sentence
        for words in (*after.events[len(prior.events):], "(1 coin)", "(2 coins)", "(3 coins)"):
            rest = rest.replace(words, "")
        assert "coin" not in rest, (text, line.sentence)
    action = parse(text, g.maps[seat].grid)
    rolled = g.chances[before.chances:]
    if action.kind == END and prior.phase == "play":
        assert f"P{seat} ended round {before.round}" == line.sentence
        assert (line.chance is not None) == (g.round > before.round), line
        if line.chance:  # T4.1: the next round's dice, as the engine rolled them
            assert line.chance == f"Round {g.round}: the dice are " + " and ".join(map(str, rolled[-1].outcome))
            assert rolled[-1].outcome == g.dice
    elif action.kind == BUY:
        value = rolled[-1].outcome[0]
        assert line.sentence.startswith(f"Bought a die: {value} (2 coins)")
        assert line.chance == f"The bought die shows {value}"
    else:
        assert line.chance is None, (text, line)
    if action.kind == PLACE and action.shape != "room":
        assert line.sentence.lower().startswith(shape_name(action.shape))  # the Tile Table's name
    if action.kind == DEFEAT and action.shape == "mummy":
        assert line.sentence.startswith(f"Hit the Mummy in round {g.round}: {after.hits[-1][1]} point")


@pytest.mark.parametrize(("seed", "bots"), [(3, ["greedy", "random"]), (11, ["strong"]),
                                           (5, ["random", "random", "greedy"])])
def test_every_tomb_action_of_a_bot_game_is_narrated_with_what_the_sheet_gained(seed: int, bots: list[str]) -> None:
    steps = 0
    kinds: set[str] = set()
    for g, seat, text, before, line in played("tomb", seed, bots):
        check_tomb_step(g, seat, text, before, line)
        kinds.add(parse(text, g.maps[seat].grid).kind)
        steps += 1
    assert steps > 40 and {PLACE, END} <= kinds


def placed_squares(g: TombGame, seat: int, prior: Sheet, after: Sheet) -> set[str]:
    """The squares of the tiles (and Shovel squares) the sheet gained, read from its
    placements, not from the covered mask the narrator diffs."""
    grid = g.maps[seat].grid
    if after.tiles[:len(prior.tiles)] != prior.tiles:  # an undo took tiles back: nothing new
        return set()
    return {grid.square_name(sq) for pid in after.tiles[len(prior.tiles):]
            for sq in grid.squares() if after.map.placements[pid].squares >> sq & 1}


@pytest.mark.parametrize(("seed", "bots"), [(3, ["greedy", "greedy"]), (11, ["strong"])])
def test_each_tomb_entry_names_the_squares_its_action_covered(seed: int, bots: list[str]) -> None:
    """A page shows another player's step by its squares (docs/server.md §3.9): a tile's or
    a room's squares (T3.1), a Shovel square (T6.3); nothing for any other action."""
    covering = 0
    for g, seat, text, before, line in played("tomb", seed, bots):
        kind = parse(text, g.maps[seat].grid).kind
        squares = placed_squares(g, seat, before.sheet, g.sheets[seat])
        assert set(line.squares) == squares and len(line.squares) == len(squares), (text, line.squares)
        assert bool(squares) == (kind in (PLACE, DIG)), (text, line.squares)
        covering += bool(squares)
    assert covering >= 10


def check_treasure_step(g: TreasureGame, seat: int, text: str, line: Line) -> None:
    action = treasure_parse(text, g.grid(seat))
    assert line.sentence.startswith(f"P{seat} ")
    if action.kind in (ROLL, REROLL):  # R3.1: what came up, then the five dice showing
        came = sort_symbols(str(g.chances[-1].outcome))
        assert line.sentence.endswith(": " + " ".join(came))
        assert line.chance == "The dice show " + " ".join(g.state.dice)
        if action.kind == REROLL:
            assert f"rerolled {plural(len(action.dice), 'die', 'dice')}" in line.sentence
    elif action.kind == TAKE:
        tile = g.tiles[g.state.placed[seat][-1].tile]
        covered, site = g.state.covered[seat].bit_count(), g.boards[seat].squares.bit_count()
        took = f"P{seat} took the {tile.rows}×{tile.cols} {tile.pile}, {covered}/{site} covered"
        assert line.sentence.startswith(took)
        assert line.chance is None
    else:
        assert line.sentence.startswith(f"P{seat} passed") and line.chance is None


def check_treasure_data(g: TreasureGame, seat: int, text: str, before: Any, line: Line) -> None:
    """The entry's data against the engine (docs/server.md §3.9): a roll's faces are the
    dice the engine shows, its rolled faces the engine's roll (its chance event) and its
    held faces the dice kept from before; a take's tile and squares are the placement the
    engine recorded. Nothing for any other action."""
    action = treasure_parse(text, g.grid(seat))
    entry = log_entry(1, seat, f"P{seat}", text, line)
    if action.kind in (ROLL, REROLL):
        dice = entry["dice"]
        assert entry["tile"] is None and entry["squares"] == []
        assert "".join(dice["faces"]) == g.state.dice and len(dice["held"]) == len(dice["faces"]) == 5
        rolled = [f for f, held in zip(dice["faces"], dice["held"], strict=True) if not held]
        kept = [f for f, held in zip(dice["faces"], dice["held"], strict=True) if held]
        chance = g.chances[-1]
        assert chance.seat == seat and chance.label == action.kind
        assert sorted(rolled) == sorted(str(chance.outcome)), (text, dice, chance)  # the engine's roll
        expected_kept = "" if action.kind == ROLL else before.state.dice
        for die in action.dice:
            expected_kept = expected_kept.replace(die, "", 1)
        assert sorted(kept) == sorted(expected_kept), (text, dice)
    elif action.kind == TAKE:
        placed = g.state.placed[seat][-1]
        assert entry["dice"] is None
        assert entry["tile"] == placed.tile and g.tiles[placed.tile].pile == action.pile
        tile = g.tiles[placed.tile]
        assert len(entry["squares"]) == tile.rows * tile.cols
        grid = g.grid(seat)
        mask = sum(1 << grid.parse_square(sq) for sq in entry["squares"])
        assert mask & g.state.covered[seat] == mask  # on the site, covered now
        assert grid.square_name(placed.square) == entry["squares"][0]  # the top-left square first
    else:
        assert entry["dice"] is None and entry["tile"] is None and entry["squares"] == []


@pytest.mark.parametrize(("seed", "bots"), [(2, ["greedy", "random"]), (9, ["strong"]), (4, ["random"] * 3)])
def test_every_treasure_action_of_a_bot_game_is_narrated(seed: int, bots: list[str]) -> None:
    last = None
    for g, seat, text, before, line in played("treasure", seed, bots):
        check_treasure_step(g, seat, text, line)
        check_treasure_data(g, seat, text, before, line)
        last = (g, line)
    assert last is not None
    g, line = last
    if g.state.reason == "full":  # R4.1
        assert line.sentence.endswith("the site is full, " + f"P{g.state.winner} wins (R4.1)")
    else:
        assert "the game is over (R4.2)" in line.sentence


def test_a_placement_says_its_shape_coins_and_circled_monsters_in_words() -> None:
    g = game()
    dice(g, 1, 1)
    before = NARRATORS["tomb"].before(g, 0, "1:1a.r0@A11")
    act(g, "1:1a.r0@A11")
    line = NARRATORS["tomb"].narrate(g, 0, "1:1a.r0@A11", before)
    assert line == Line("Stub at A11: 3 coins and the way in at A11", None, ("A11", "B11"))  # T5.1: the $3 on A11/B11


def test_an_undo_says_what_it_took_back() -> None:
    g = game()
    dice(g, 1, 1)
    act(g, "1:1a.r0@A11")
    narrator = NARRATORS["tomb"]
    before = narrator.before(g, 0, "undo")
    g.undo(0)
    assert narrator.narrate(g, 0, "undo", before).sentence == "player 1 took back: Stub at A11"


def test_the_table_has_a_narrator_for_every_game_and_an_entry_has_the_contract_fields() -> None:
    assert set(NARRATORS) == set(KINDS) and LOG_TAIL == 12
    with pytest.raises(ValueError, match="unknown game"):
        narrator_named("chess")
    entry = log_entry(3, 1, "Ann", "1:1a.r0@A11", Line("Stub at A11: 3 coins", None, ("A11", "B11")))
    assert entry == {"version": 3, "seat": 1, "name": "Ann", "text": "1:1a.r0@A11", "sentence": "Stub at A11: 3 coins",
                     "chance": None, "squares": ["A11", "B11"], "dice": None, "tile": None}


def test_a_treasure_reroll_entry_carries_its_faces_and_which_were_held() -> None:
    """Hold S and E of S S A E P and reroll the rest: the entry says the five faces and
    which of them stayed, so a page shows the roll without reading its sentence."""
    g = TreasureGame(7, 1)
    narrator = NARRATORS["treasure"]
    g.apply(0, treasure_parse("roll", g.grid(0)))
    shown = g.state.dice
    rerolled = sort_symbols(shown[1:4])  # keep the first and the last die
    text = f"reroll:{rerolled}"
    before = narrator.before(g, 0, text)
    g.apply(0, treasure_parse(text, g.grid(0)))
    entry = log_entry(2, 0, "Ann", text, narrator.narrate(g, 0, text, before))
    came = str(g.chances[-1].outcome)
    assert entry["dice"]["faces"] == list(g.state.dice) == list(sort_symbols(shown[0] + shown[4] + came))
    held = [f for f, h in zip(entry["dice"]["faces"], entry["dice"]["held"], strict=True) if h]
    assert sorted(held) == sorted(shown[0] + shown[4]) and entry["tile"] is None and entry["squares"] == []
