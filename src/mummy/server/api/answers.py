"""The wire schemas of the HTTP answers (pydantic): what each route sends back, and the one
shape of every error.

``schemas`` says what a request may hold; this module says what the answer holds, so that
``/openapi.json`` documents every answer and a client can be generated from it. The
models describe the dicts the service builds (``service``, ``live``, ``coaching``,
``web.content``...); they are not a second source of them.

Every model allows fields it does not name (``extra="allow"``): a field added to an
answer reaches the clients before it reaches its model, never dropped by the route. The
stable top-level fields are typed; what differs between the games (a view's ``state``, a
record, a result) is an object whose shape the games' own formats describe
(docs/tomb-formats.md, docs/treasure-formats.md). Numbers that may be whole or not are
``int | float``: a ``float`` field would write a whole number as ``3.0``.

The routes that validate their answer through these models declare
``response_model_exclude_unset=True``, so that a key the service leaves out (a
spectator's ``legal``) stays out rather than coming back as ``null``. The hot ones (a
view, an action) only name their model and send JSON they have encoded themselves.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    """An answer's object: the fields named are typed, any other is kept as it is."""

    model_config = ConfigDict(extra="allow")


#: Whole or fractional (worths, losses, a bot's par in turns).
Number = int | float

# -- errors -------------------------------------------------------------------------------------


class Error(Answer):
    """What went wrong, in one shape for every error of the server (HTTP and websocket)."""

    code: str = Field(description="for programs: bad_request, unauthorized, forbidden, not_found, stale, "
                                  "illegal, over, not_over, conflict, too_many_requests, busy, unavailable, "
                                  "internal, ... (docs/server.md §3.8)")
    message: str = Field(description="for people: what was refused and why")
    rule: str | None = Field(description="the rule that refused (T3.2, R2.3; notation, undo), else null")
    where: str | None = Field(default=None, description="the square the rule names, when it names one")
    version: int | None = Field(default=None, description="the game's version, for a refused action")


class ErrorAnswer(Answer):
    """Every error answer: ``{"error": {...}}``, and FastAPI's ``detail`` where it has one."""

    error: Error
    detail: list[dict[str, Any]] | str | None = Field(
        default=None, description="kept for clients that read FastAPI's own: a request that fits no schema "
                                  "(422) lists its fields at fault; a path or method the server lacks says so")


class NotReady(ErrorAnswer):
    """``/api/ready`` when the database does not answer."""

    ok: Literal[False]


#: What each error status means across the routes (a route's own words where it has them).
_REASONS: Final[dict[int, str]] = {
    401: "no seat token (`unauthorized`)",
    403: "a token that holds no seat here (`forbidden`), or a game it may not see",
    404: "no such game, map or page (`not_found`)",
    409: "the game's state does not allow it now (`over`, `not_over`, `conflict`, ...)",
    422: "refused: `bad_request` (with FastAPI's `detail` for a request that fits no schema) or a rule's "
         "refusal with its `rule`",
    429: "over a rate limit (`too_many_requests`, with `Retry-After`)",
    503: "busy or the database away (`busy`, `unavailable`): retry (`Retry-After`)",
}
DEFAULT_REASON: Final = ("any other error, in the same shape: 408, 413 or 431 past the request's bounds, 429 "
                         "past a rate limit, 500 `internal` or `database_damaged`, 503 `unavailable`")


def refusals(*statuses: int, model: type[BaseModel] = ErrorAnswer,
             reasons: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """A route's error answers for ``responses=``: each status with ``model`` (the shared
    error shape) and its reason, and ``default`` for every other status, so that a client
    reads any error the same way."""
    said = {**_REASONS, **(reasons or {})}
    out: dict[int | str, dict[str, Any]] = {
        status: {"model": model, "description": said.get(status, "refused")} for status in statuses}
    out["default"] = {"model": ErrorAnswer, "description": DEFAULT_REASON}
    return out


# -- tags ---------------------------------------------------------------------------------------
#: The routes' groups, in the order a reader meets them (``create_app``'s ``openapi_tags``).
TAGS: Final[list[dict[str, str]]] = [
    {"name": "games", "description": "Create a game, see it as a seat or a spectator, a rematch, its record "
                                     "and replay once over, and the games a browser's tokens hold."},
    {"name": "play", "description": "Act in a game, or preview an action first (the websocket does the same, "
                                    "docs/server.md §4)."},
    {"name": "boards", "description": "The daily challenge and the leaderboards."},
    {"name": "coaching", "description": "A finished solo game's par, a finished game's review, a practice "
                                        "game's hint (docs/analysis.md §6)."},
    {"name": "maps", "description": "The map editor: a map's text checked (T10), custom maps stored, a map "
                                    "drawn."},
    {"name": "companion", "description": "Paper play: a seed's dice and a paper sheet's score check."},
    {"name": "print", "description": "Printable sheets, as SVG."},
    {"name": "content", "description": "What the pages draw with: the games' maps, tiles, sites and piles, "
                                       "and the tutorial."},
    {"name": "health", "description": "Liveness and readiness, for load balancers."},
]

# -- games --------------------------------------------------------------------------------------


class SeatMade(Answer):
    """A seat of a game just made: a person's with its token and the link that joins it."""

    seat: int
    name: str
    bot: str | None
    token: str | None = Field(description="the seat's secret (people's seats; null for a bot, or another "
                                           "player's seat of a rematch)")
    invite: str | None = Field(default=None, description="/play/ID#token=TOKEN, for each seat with a token")


class Created(Answer):
    """A new game (``POST /api/games``): its id, public commitment, and seats."""

    id: str
    commitment: str = Field(description="SHA-256 of the seed with a secret nonce, revealed when the game ends")
    seats: list[SeatMade]


class Rematch(Created):
    """The rematch of a finished game: made by the first request, the same game later."""

    rematch_of: str
    new: bool = Field(description="whether this request made it (201) or found it (200)")


class DailyMade(Created):
    """Today's challenge: a new game, or today's game of one of the given tokens."""

    resumed: bool | None = Field(default=None, description="true: today's game of one of the tokens, again")


class Seat(Answer):
    seat: int
    name: str
    bot: str | None


class LogDice(Answer):
    faces: list[str]
    held: list[bool]


class LogEntry(Answer):
    """One of a game's last log entries, in words (docs/server.md §3.9)."""

    version: int
    seat: int
    name: str
    text: str = Field(description="the action's notation")
    sentence: str
    chance: str | None
    squares: list[str]
    dice: LogDice | None
    tile: str | None


class Par(Answer):
    """A finished solo game against the strongest bot on the same dice (docs/analysis.md §2)."""

    par: Number | None
    score: Number | None
    result: Number | None = Field(description="positive when the player did better than the bot")
    better: str = Field(description="higher (points) or lower (turns)")
    unit: str
    bot: str
    effort: str


class Reveal(Answer):
    seed: int
    nonce: str


class GameView(Answer):
    """A game as a seat (with its token) or a spectator sees it (docs/server.md §3.2)."""

    id: str
    game: str
    version: int
    commitment: str
    config: dict[str, Any] = Field(description="the game's set-up")
    seats: list[Seat]
    to_act: list[int]
    over: bool
    you: int | None = Field(description="the token's seat, null for a spectator")
    state: dict[str, Any] = Field(description="the game's public state: the Tomb's round, dice and sheets, or a "
                                              "mummy.treasure.state snapshot")
    log: list[LogEntry]
    legal: list[str] | None = Field(default=None, description="a seat's legal actions now, in notation")
    actions: list[dict[str, Any]] | None = Field(default=None, description="the same as data, each with its text")
    can_undo: bool | None = None
    result: dict[str, Any] | None = Field(default=None, description="once over: the game's own result")
    par: Par | None = None
    reveal: Reveal | None = Field(default=None, description="once the seed may be known")
    daily: str | None = Field(default=None, description="a daily challenge's day")
    rematch: str | None = Field(default=None, description="the id of this game's rematch, once made")


class ActionRefused(ErrorAnswer):
    """A refused action: with ``stale`` and ``illegal``, the seat's view now, to catch up."""

    state: GameView | None = Field(default=None, description="the requesting seat's view (stale, illegal)")


class ActionResult(Answer):
    version: int
    seat: int
    action: str = Field(description="the canonical notation of what was applied")
    over: bool
    repeated: bool | None = Field(default=None, description="true: this client id's action, answered again")


class Acted(Answer):
    """An action's answer: what was applied, and the seat's view after it."""

    result: ActionResult
    state: GameView


class PreviewWarning(Answer):
    code: str
    rule: str
    message: str


class Preview(Answer):
    """What an action would do, before it is made (docs/server.md §3.10)."""

    version: int
    action: str
    sentence: str
    warnings: list[PreviewWarning]
    uses_after: int = Field(description="the seat's legal actions after it; -1 when a roll decides")
    by_value: dict[str, int] | None = Field(default=None, description="the Tomb: what a die of each value "
                                                                       "could do")


class GameRecord(Answer):
    """A finished game's record in its game's format, with the seed's commitment and nonce."""

    format: str
    version: int
    seed: int
    actions: list[Any]
    commitment: str
    nonce: str


class ReplayedAction(Answer):
    seat: int
    action: str


class Replay(Answer):
    """A finished game as it stood after its first ``step`` log entries."""

    id: str
    step: int
    steps: int
    action: ReplayedAction | None = Field(description="the entry that led here (null at step 0)")
    state: dict[str, Any]


class HeldSeat(Answer):
    """A seat that one of the tokens holds; a finished game's with the seat's own result."""

    id: str
    game: str
    seat: int
    name: str
    version: int
    over: bool
    daily: str | None
    players: int | None = None
    place: int | None = None
    where: str | None = None
    result: dict[str, Any] | None = None


class MyGames(Answer):
    games: list[HeldSeat]


# -- boards and coaching -----------------------------------------------------------------------------


class BoardRow(Answer):
    """A board's entry: the Tomb's ``map`` and ``score``, or Treasure's ``site`` and ``turns``."""

    id: str
    name: str | None
    daily: str | None
    finished: str | None
    map: str | None = None
    score: int | None = None
    site: str | None = None
    turns: int | None = None


class DayBoard(Answer):
    day: str
    leaderboard: list[BoardRow]


class Leaderboard(Answer):
    game: str
    where: str | None
    leaderboard: list[BoardRow]


class ParRow(BoardRow):
    par: Number | None
    result: Number | None
    unit: str | None


class DayParBoard(Answer):
    day: str
    game: str
    leaderboard: list[ParRow]


class Progress(Answer):
    """How far a job of coaching is (``status``: done, queued, running, busy, none)."""

    status: str
    done: int | None = None
    total: int | None = None
    ahead: int | None = Field(default=None, description="the jobs before it in its queue")
    message: str | None = None


class ParStatus(Progress):
    par: Par | None = None


class Review(Answer):
    """A seat's review (docs/analysis.md §3, §4); its decisions are the game's own."""

    game: str
    player: int
    bot: str
    unit: str
    better: str
    decisions: list[dict[str, Any]]
    mistakes: list[int]
    mistake_count: int
    lost_by_group: list[dict[str, Any]]
    total_lost: Number
    threshold: Number
    effort: str


class ReviewStatus(Progress):
    review: Review | None = None


class Hint(Answer):
    """The strongest bot's choice for the seat now (docs/analysis.md §6, Hints)."""

    version: int
    seat: int
    hints: int = Field(description="the hints this game's player has taken")
    actions: list[str]
    actions_json: list[dict[str, Any]] = Field(alias="json")
    sentences: list[str]
    worth: Number | None
    exact: bool | None
    bot: str
    effort: str


# -- maps, paper, content, health ---------------------------------------------------------------------


class MapDrawing(Answer):
    """A Tomb map as drawn before play (the shape of ``/api/content/tomb``'s ``maps``)."""

    id: str
    title: str
    width: int
    height: int
    stone: list[str]
    entrances: list[dict[str, Any]]
    rooms: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    log: dict[str, list[int]]
    golem_coins: dict[str, int]
    key_track: int
    coin_track: int


class MapFault(Answer):
    line: int | None
    message: str
    square: str | None


class MapChecked(Answer):
    """``ok`` with the id and the drawing, or the fault with its line and square."""

    ok: bool
    id: str | None = None
    map: MapDrawing | None = None
    fault: MapFault | None = None


class MapStored(Answer):
    id: str
    map: MapDrawing


class Dice(Answer):
    """A seed's dice for a table playing the Tomb on paper (T4.1, T4.6)."""

    seed: int
    rounds: list[list[int]]
    bought: list[list[int]] = Field(description="each player's bought dice, in order")
    buy_cost: int
    form: list[dict[str, str]]
    maps: list[dict[str, str]]
    lines: dict[str, str]


class ScoreCheck(Answer):
    """A paper sheet's counts scored by the engine (T7)."""

    lines: dict[str, int]
    total: int
    achievements: list[str]
    faults: list[str]
    differences: list[str]


class ResultsLegend(Answer):
    rule: str
    lines: list[list[str]]
    units: dict[str, list[str]]
    achievements: list[list[str]]
    achievement_min: int | None


class TombContent(Answer):
    maps: dict[str, MapDrawing]
    shapes: dict[str, Any]
    table: list[list[str]]
    rules: dict[str, Any]
    results: ResultsLegend


class TreasureContent(Answer):
    results: ResultsLegend
    rules: dict[str, Any]
    sites: dict[str, Any]
    piles: list[dict[str, Any]]


class Tutorial(Answer):
    create: dict[str, Any] = Field(description="the body of POST /api/games but the seats")
    steps: list[dict[str, Any]]


class Health(Answer):
    ok: bool
    version: str
    process: int


class Ready(Answer):
    ok: bool
    process: int
