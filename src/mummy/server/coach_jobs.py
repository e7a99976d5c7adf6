"""The analysis jobs of coaching (par, a review, a hint), as pure functions of a record,
the drawing of a printable sheet (``sheets``), and the loop of the child process that runs
them (``lanes``).

Each job is given a game's record (seed included: it never leaves the server), the game's
set-up (a custom map is registered again from its text, as a load does) and an *effort*,
the size of the strongest bots' searches: ``"full"`` is theirs (docs/analysis.md),
``"quick"`` a fraction of it for tests and small machines. What it answers is JSON-ready,
and it reports ``progress(done, total)`` as it goes.

The child process (``python -m mummy.server.coach_jobs``, :func:`child_main`) is started
by a lane with a lower scheduling priority (``os.nice``): an expert's game is 20-60 s of
CPU, and the server's event loop, its bots and its people come first. It reads ``(job,
arguments)`` from one pipe and answers on the other ``("progress", done, total)``
messages, then ``("done", result)`` or ``("error", message)``. It ends when the pipe
closes, or as soon as it sees that the server that started it has gone.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

from mummy.analysis.common import Progress, ReviewError
from mummy.analysis.review import ANALYSES, TombAnalysis, TreasureAnalysis
from mummy.analysis.tomb import DEFAULT as TOMB_DEFAULT
from mummy.analysis.tomb import TombAnalyst, bot_plan
from mummy.analysis.tomb import move as tomb_move
from mummy.analysis.treasure import DEFAULT as TREASURE_DEFAULT
from mummy.analysis.treasure import Options, TreasureAnalyst, best_of
from mummy.analysis.treasure import move as treasure_move
from mummy.analysis.treasure_values import TreasureValues
from mummy.bots.registry import bot_seed
from mummy.bots.tomb_search import Beam
from mummy.core.errors import MummyError
from mummy.games import KINDS, GameKind, kind_of_record
from mummy.render.narrate import narrator_named
from mummy.render.print_tomb import tomb_sheet
from mummy.render.print_treasure import treasure_page
from mummy.tomb.content import map_spec, register_map_text, tile_table
from mummy.treasure.content import piles, sites

#: The strongest bots' search sizes by effort: "full" is theirs; "quick" the analysis
#: tests' small searches (a whole game's par in a second or two, not a minute), the
#: expert's last-round and leftover searches included (at full size they took two thirds
#: of a quick par's time).
EFFORTS: Final[dict[str, tuple[TombAnalyst, TreasureAnalyst]]] = {
    "full": (TOMB_DEFAULT, TREASURE_DEFAULT),
    "quick": (TombAnalyst("expert", Beam(2, 3, 4), Beam(1, 2, 2), 2, last=Beam(30, 50, 8), rest=Beam(4, 8, 4)),
              TreasureAnalyst("exact", exact_free=3)),
}
#: Seconds between two progress messages of a child (a review of a Treasure game reports
#: after every choice).
PROGRESS_EVERY: Final = 0.2


def analyses(effort: str) -> dict[str, Any]:
    """Each game's analysis (``mummy.analysis.review``) at this effort."""
    tomb, treasure = EFFORTS[effort]
    out: dict[str, Any] = {"tomb": TombAnalysis(tomb), "treasure": TreasureAnalysis(treasure)}
    assert set(out) == set(ANALYSES)
    return out


def prepared(record: Any, config: dict[str, Any]) -> GameKind:
    """The record's game kind, with what a load does before a game is rebuilt: a custom
    map's text registered again (``GameKind.new``), so a fresh process knows its map."""
    kind = kind_of_record(record)
    if kind is None:
        raise ReviewError("not a game record")
    kind.new(0, config, ["setup"])
    return kind


def par_job(record: Any, config: dict[str, Any], player: int, effort: str, progress: Progress) -> dict[str, Any]:
    """Par of one seat (``analysis.review.par``) without the bot's game record: the bot's
    score (``par``, None for a Treasure site it could not fill) and who set it."""
    kind = prepared(record, config)
    got = analyses(effort)[kind.name].par(record, player, progress)
    out = {k: v for k, v in got.items() if k != "record"}
    out["effort"] = effort
    return out


def review_job(record: Any, config: dict[str, Any], player: int, effort: str, progress: Progress) -> dict[str, Any]:
    """The review of a seat (``analysis.review.review``), with the three biggest
    mistakes' moves told in sentences (``sentences`` in their ``chosen`` and ``best``)."""
    kind = prepared(record, config)
    report: dict[str, Any] = analyses(effort)[kind.name].review(record, player, progress)
    for index in report["mistakes"]:
        decision = report["decisions"][index]
        for which in ("chosen", "best"):
            decision[which]["sentences"] = plan_words(kind, record, player, decision["first_action"],
                                                      decision[which]["actions"])
    report["effort"] = effort
    return report


def plan_words(kind: GameKind, record: Any, player: int, first: int, actions: list[str]) -> list[str]:
    """A plan's actions in sentences: each previewed by the game's narrator on the game as
    it stood before the decision's first action (nothing is rolled), then played on."""
    before = {k: v for k, v in record.items() if k != "final"}
    before["actions"] = record["actions"][:first]
    game = kind.replay_record(before).game
    narrator = narrator_named(kind.name)
    out = []
    for text in actions:
        try:
            out.append(str(narrator.preview(game, player, text)["sentence"]))
            kind.apply(game, player, text)
        except MummyError:
            break
    return out


def tomb_hint(game: Any, player: int, effort: str) -> dict[str, Any]:
    """The Tomb's hint: the strongest bot's plan up to the end of the round or a bought
    die (seeded as par seeds it), as a review's move (notation, JSON)."""
    analyst = EFFORTS[effort][0]
    plan = bot_plan(analyst.agent(bot_seed(game.seed, player)), game, player)
    return {**tomb_move(plan, 0.0, game.maps[player].grid), "worth": None, "exact": None, "bot": analyst.bot}


def treasure_hint(game: Any, player: int, effort: str) -> dict[str, Any]:
    """Treasure's hint: the choice with the fewest expected turns to fill the site (the
    exact values, docs/analysis.md §4), worth the expected total turns of the game."""
    analyst = EFFORTS[effort][1]
    legal = game.legal_actions(player)
    if len(legal) == 1:  # the roll that starts a turn, or a forced take: nothing to weigh
        return {**treasure_move(legal[0], 0.0, game.grid(player)), "worth": None, "exact": None, "bot": analyst.bot}
    options, analysis = Options(TreasureValues(game.boards[player], analyst.exact_free)).of(game, player)
    action, value = best_of(options)
    turns = game.state.turns[player]
    return {**treasure_move(action, turns + value, game.grid(player)), "exact": analysis.exact, "bot": analyst.bot}


#: Each game's hint, keyed like the other layers' tables (checked against the registry).
HINTERS: Final[dict[str, Callable[[Any, int, str], dict[str, Any]]]] = {"tomb": tomb_hint, "treasure": treasure_hint}
assert set(HINTERS) == set(KINDS), "every game kind has its hint"


def hint_job(record: Any, config: dict[str, Any], player: int, effort: str, progress: Progress) -> dict[str, Any]:
    """The strongest bot's choice for the seat now (each game's :data:`HINTERS`), with its
    moves in sentences, as a review's."""
    kind = prepared(record, config)
    game = kind.replay_record(record).game
    if kind.is_over(game) or player not in kind.to_act(game):
        raise ReviewError("it is not your turn: there is nothing to hint")
    out = HINTERS[kind.name](game, player, effort)
    out["sentences"] = plan_words(kind, record, player, len(record["actions"]), out["actions"])
    out["effort"] = effort
    progress(1, 1)
    return out


def _tomb_sheet(map_id: str, map_text: str | None, paper: str, seed: int | None, page: int) -> str:
    if map_text is not None:
        register_map_text(map_text)  # a custom map, as a load registers it
    return tomb_sheet(map_spec(map_id), tile_table(), paper, seed)


def _treasure_sheet(map_id: str, map_text: str | None, paper: str, seed: int | None, page: int) -> str:
    return treasure_page(sites(), piles(), paper, page)


#: Each game's printable sheet: (map, a custom map's text, paper, seed, page) -> SVG.
SHEETS: Final[dict[str, Callable[[str, str | None, str, int | None, int], str]]] = {
    "tomb": _tomb_sheet, "treasure": _treasure_sheet}
assert set(SHEETS) == set(KINDS), "every game kind has its sheet"


def sheet_job(game: str, map_id: str, map_text: str | None, paper: str, seed: int | None, page: int,
              progress: Progress) -> str:
    """A printable sheet as SVG (``server.sheets``, each game's :data:`SHEETS`): the Tomb's
    player sheet for a map, or a page of Treasure's printout. Drawn in a child too: 15-20
    ms of CPU a sheet, which in a thread of the server held the interpreter lock against
    the event loop (issue 32)."""
    out = SHEETS[game](map_id, map_text, paper, seed, page)
    progress(1, 1)
    return out


#: The jobs a child runs, by name.
JOBS: Final[dict[str, Callable[..., Any]]] = {"par": par_job, "review": review_job, "hint": hint_job,
                                              "sheet": sheet_job}


def run(name: str, args: tuple[Any, ...], progress: Progress) -> tuple[str, Any]:
    """One job: ``("done", result)``, or ``("error", message)`` for a record it cannot
    analyse (``ReviewError``, a rule's refusal)."""
    try:
        return "done", JOBS[name](*args, progress)
    except (ReviewError, MummyError, ValueError) as exc:
        return "error", str(exc)


def child_main(jobs: Any, answers: Any, nice: int, parent: int) -> None:
    """A lane's child process: jobs from one pipe, one at a time, at a lower priority;
    progress and answers down the other."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:  # the server is gone: nobody waits for this
            raise SystemExit(0)
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or done >= total:
            last[0] = now
            answers.send(("progress", done, total))

    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        name, args = job
        try:
            answers.send(run(name, args, progress))
        except Exception as exc:  # a bug: the lane says the job failed; the child goes on
            answers.send(("error", f"the analysis failed: {type(exc).__name__}: {exc}"))


def main(argv: list[str]) -> None:
    """``python -m mummy.server.coach_jobs JOBS_FD ANSWERS_FD NICE PARENT_PID``: a lane's child."""
    jobs, answers, nice, parent = (int(a) for a in argv[:4])
    child_main(Connection(jobs, writable=False), Connection(answers, readable=False), nice, parent)


__all__ = ["EFFORTS", "HINTERS", "JOBS", "SHEETS", "analyses", "child_main", "hint_job", "main", "par_job",
           "plan_words", "review_job", "run", "sheet_job"]


if __name__ == "__main__":
    main(sys.argv[1:])
