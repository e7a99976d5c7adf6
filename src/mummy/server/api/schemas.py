"""The wire schemas of the HTTP routes (pydantic): what a request's body may hold.

Bodies are read strictly, as the websocket reads its messages: ``"version": true`` or
``"1"`` is no version. The models' names are the OpenAPI schema's component names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from mummy.bots.registry import bots_help
from mummy.games import KINDS, games
from mummy.server.text import control_fault


def _whole_unicode(text: str) -> str:
    """A lone surrogate (``"\\ud800"`` in JSON) is not text: it could be neither stored
    nor sent back, so it is refused here with the field's name, as any bad field is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (no lone surrogate)") from None
    return text


def _without_controls(multiline: bool) -> Callable[[str], str]:
    """A check of whole Unicode text with no control characters (``text.control_fault``:
    a NUL failed PostgreSQL); ``multiline``: a file's line ends and tabs allowed."""

    def check(text: str) -> str:
        fault = control_fault(_whole_unicode(text), multiline=multiline)
        if fault is not None:
            raise ValueError(fault)
        return text

    return check


#: A string field of a request body: whole Unicode text on one line, no control characters.
Text = Annotated[str, AfterValidator(_without_controls(multiline=False))]
#: A file's text in a request body (a map): line ends and tabs allowed.
FileText = Annotated[str, AfterValidator(_without_controls(multiline=True))]
#: Bodies are read strictly (see the module's docstring).
STRICT = ConfigDict(strict=True)
def _registered(name: str) -> str:
    if name not in games():
        raise ValueError(f"unknown game {name!r}; games: {', '.join(games())}")
    return name


#: The games a route takes by name: the registry's (:mod:`mummy.games`), as registered
#: when the schema is read (a game registered later is in it too).
GameName = Annotated[str, Field(max_length=32, json_schema_extra=lambda schema: schema.update(enum=list(games()))),
                     AfterValidator(_registered)]


class SeatIn(BaseModel):
    model_config = STRICT
    name: Text | None = Field(default=None, max_length=40)
    bot: Text | None = Field(default=None, max_length=16, description=f"a bot ({bots_help()}); empty for a person")


class DailyIn(BaseModel):
    model_config = STRICT
    name: Text | None = Field(default=None, max_length=40)
    tokens: list[Annotated[Text, Field(max_length=64)]] = Field(
        default=[], max_length=100, description="this browser's seat tokens: today's game held by one is resumed")


class CreateGame(BaseModel):
    """A new game: the game, its seats, and its options. The options below are the
    packaged games'; a game registered from elsewhere takes its own options as further
    fields (``extra``), each read only if its kind reads it (``GameKind.config_keys``)."""

    model_config = ConfigDict(strict=True, extra="allow")
    game: GameName
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    map: Text = Field(default="map1", max_length=40, description="Tomb map: map1, a generated or a custom map's id")
    map_text: FileText | None = Field(default=None, max_length=20_000,
                                  description="Tomb: a custom map's file (docs/tomb-formats.md); its id is the map")
    mode: Text = Field(default="standard", max_length=16, description="Tomb mode (T8.2)")
    sites: list[Annotated[Text, Field(max_length=16)]] | None = Field(default=None, max_length=4,
                                                                     description="Treasure sites, one per seat")
    movable: bool = Field(default=False, description="Treasure movable-tiles variant (R5.1)")
    first: int = Field(default=0, ge=0, le=3, description="Treasure: the seat that starts (R2.3)")
    seed: int | None = Field(default=None, ge=0, lt=2**63, description="default: a secret random seed")

    def config(self) -> dict[str, Any]:
        """The game's set-up as the service takes it: the fields its kind reads
        (``GameKind.config_keys``), so that no route asks which game it is."""
        given = {**(self.model_extra or {}), **dict(self)}
        return {key: given[key] for key in KINDS[self.game].config_keys if key in given}


class ActIn(BaseModel):
    model_config = STRICT
    client_id: Text = Field(min_length=1, max_length=64)
    version: int = Field(ge=0, lt=2**31)
    action: Text = Field(min_length=1, max_length=64, description="notation, or 'undo'")


class Tokens(BaseModel):
    model_config = STRICT
    tokens: list[Annotated[Text, Field(max_length=64)]] = Field(max_length=100)
