"""What games this server plays, from the registry (:mod:`mummy.games`): each game's title,
seat limits, bots and their strengths, the options a new game takes (maps or sites,
modes, variants), its daily set-up and the page that draws it. The start page builds its
form from this answer, so it never repeats (and never forgets) what the server knows.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from mummy.bots.registry import extra_installed
from mummy.games import Game, games
from mummy.server.api.answers import refusals

router = APIRouter()


class SeatLimits(BaseModel):
    min: int = Field(description="the fewest seats of a game")
    max: int = Field(description="the most seats of a game online")


class BotOut(BaseModel):
    name: str
    strength: str = Field(description="how well it plays, in a line")
    extra: str | None = Field(description="the optional extra of the package it needs, if any")
    available: bool = Field(description="whether this server can seat it (its extra is installed)")


class ChoiceOut(BaseModel):
    value: str
    label: str


class OptionOut(BaseModel):
    key: str = Field(description="the field of POST /api/games that takes it")
    label: str
    type: str = Field(description="choice, seat-choice (one choice per seat), flag or seat (a seat's number)")
    choices: list[ChoiceOut]
    default: Any = Field(description="the value when the field is left out (null: the game chooses)")
    help: str
    rule: str | None = Field(description="the rule that defines it")


class PageOut(BaseModel):
    module: str = Field(description="the browser module that draws the game, under /static/js")
    stylesheet: str


class GameOut(BaseModel):
    name: str = Field(description="the game's name in every route (POST /api/games's `game`)")
    title: str
    summary: str
    seats: SeatLimits
    bots: list[BotOut]
    options: list[OptionOut]
    daily: dict[str, Any] = Field(description="the daily challenge's set-up")
    page: PageOut | None
    has: dict[str, bool] = Field(description="the parts the game brings: print, analysis (par, review, "
                                             "hints), content (drawings for the browser)")


class KindsOut(BaseModel):
    games: list[GameOut]


def describe(game: Game) -> GameOut:
    """One game as the start page and the CLI read it."""
    kind = game.part("kind")
    low, high = kind.seats
    return GameOut(
        name=game.name, title=game.title, summary=game.summary, seats=SeatLimits(min=low, max=high),
        bots=[BotOut(name=b.name, strength=b.strength, extra=b.extra,
                     available=b.extra is None or extra_installed(b.extra)) for b in game.bots],
        options=[OptionOut.model_validate(o) for o in kind.options()], daily=kind.daily,
        page=PageOut(module=game.page.module, stylesheet=game.page.stylesheet) if game.page else None,
        has={"print": game.has("printer"), "analysis": game.has("analysis"), "content": game.has("content")})


#: The answer, made once for the games registered (a game registered later makes it anew).
_made: dict[tuple[Game, ...], KindsOut] = {}


@router.get("/api/games/kinds", response_model=KindsOut, tags=["games"], responses=refusals())
def kinds(response: Response) -> KindsOut:
    """Every game this server plays, with what a new game of it takes. It changes only
    when the server does: a browser may keep it for a minute, and the server makes it
    once (not on every request of a client that asks in a loop)."""
    response.headers["Cache-Control"] = "public, max-age=60"
    registered = tuple(games().values())
    if registered not in _made:
        _made.clear()
        _made[registered] = KindsOut(games=[describe(g) for g in registered])
    return _made[registered]
