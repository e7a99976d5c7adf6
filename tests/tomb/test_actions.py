"""The action notation and JSON form: round trips and clear refusals."""

from __future__ import annotations

import pytest

from mummy.core.errors import InvalidActionError
from mummy.tomb.actions import Action, fmt, from_json, parse, to_json
from mummy.tomb.board import tomb_map

G = tomb_map("map1").grid

EXAMPLES = [
    "1:5a.r0@J1", "1+2:room.r0@F1", "3:dig.ne@F4", "shovel:dig.w@F4", "wand:erase@E4n",
    "wand:add@L4e", "2:erase@E4n", "2:add@E4n", "1:ooze", "1:ooze+hammer", "2:skeleton",
    "3:zombie", "4:golem.red", "2:mimic", "3:mimic+skey", "4:mummy", "open", "open+skey",
    "1:up", "4:down", "buy", "buy5", "1:discard", "end",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trips(text: str) -> None:
    action = parse(text, G)
    assert fmt(action, G) == text
    assert from_json(to_json(action, G), G) == action


def test_notation_is_case_and_space_tolerant_and_canonicalises_edges() -> None:
    assert parse("  1:5A.R0@j1 ", G) == parse("1:5a.r0@J1", G)
    assert fmt(parse("2:erase@E3s", G), G) == "2:erase@E4n"  # one edge, one name
    assert fmt(parse("3:dig.en@F4", G), G) == "3:dig.ne@F4"


@pytest.mark.parametrize("text", [
    "", "5:5a.r0@J1", "1:5a.r9@J1", "1:5a.r0@Z99", "1:5a@J1", "1:ooze+sword", "1+1:room.r0@A1",
    "wand:dig.n@A1", "shovel:erase@A1n", "1:golem", "1:erase", "buy9", "jump", "1:fly",
    "1+2:up", "3:dig.nesw@F4", "1:erase@E4x",
])
def test_malformed_notation_is_refused_with_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse(text, G)
    assert info.value.rule == "notation"
    assert "docs/tomb-notation.md" in str(info.value)


def test_json_form_names_squares_and_edges() -> None:
    assert to_json(parse("1:5a.r0@J1", G), G) == {
        "kind": "place", "dice": [1], "shape": "5a", "orient": "r0", "square": "J1"}
    assert to_json(parse("4:golem.red", G), G) == {
        "kind": "defeat", "dice": [4], "monster": "golem", "colour": "red"}


@pytest.mark.parametrize("obj", [
    None, [], {"kind": "fly"}, {"kind": "place", "dice": "1"}, {"kind": "end", "extra": 1},
    {"kind": "place", "dice": [1], "shape": "5a", "orient": "r0", "square": 5},
    {"kind": "choose", "value": True}, {"kind": "erase", "dice": [1], "edge": "nowhere"},
    {"kind": "end", "dice": [1]},
])
def test_bad_json_is_refused(obj: object) -> None:
    with pytest.raises(InvalidActionError):
        from_json(obj, G)


def test_actions_are_hashable_values() -> None:
    assert len({parse("1:ooze", G), parse("1:ooze", G), Action("end")}) == 2
