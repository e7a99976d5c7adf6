"""The analysis jobs of coaching (par, a review, a hint), as pure functions of a record,
the drawing of a printable sheet (``sheets``), and the loop of the child process that runs
them (``lanes``).

Each job is given a game's record (seed included: it never leaves the server), the game's
set-up (a custom map is registered again from its text, as a load does) and an *effort*,
the size of the strongest bots' searches: ``"full"`` is theirs (docs/analysis.md),
``"quick"`` a fraction of it for tests and small machines. What it answers is JSON-ready,
and it reports ``progress(done, total)`` as it goes.

The child process (``python -m mummy.server.coaching.coach_jobs``, :func:`child_main`) is started
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
from mummy.analysis.review import ANALYSES, EFFORTS, GameAnalysis
from mummy.core.errors import MummyError
from mummy.games import GameKind, kind_of_record
from mummy.render.narrate import narrator_named
from mummy.render.printing import PRINTS

#: Seconds between two progress messages of a child (a review of a Treasure game reports
#: after every choice).
PROGRESS_EVERY: Final = 0.2


def analysis(kind: GameKind, effort: str) -> GameAnalysis:
    """The game's analysis (``mummy.analysis.review``) at this effort, or a ReviewError
    for a game without one."""
    if kind.name not in ANALYSES:
        raise ReviewError(f"{kind.title} has no analysis: no par, review or hint")
    found: GameAnalysis = ANALYSES[kind.name].at(effort)
    return found


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
    got = analysis(kind, effort).par(record, player, progress)
    out = {k: v for k, v in got.items() if k != "record"}
    out["effort"] = effort
    return out


def review_job(record: Any, config: dict[str, Any], player: int, effort: str, progress: Progress) -> dict[str, Any]:
    """The review of a seat (``analysis.review.review``), with the three biggest
    mistakes' moves told in sentences (``sentences`` in their ``chosen`` and ``best``)."""
    kind = prepared(record, config)
    report: dict[str, Any] = analysis(kind, effort).review(record, player, progress)
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


def hint_job(record: Any, config: dict[str, Any], player: int, effort: str, progress: Progress) -> dict[str, Any]:
    """The strongest bot's choice for the seat now (each game's analysis, ``hint``), with
    its moves in sentences, as a review's."""
    kind = prepared(record, config)
    game = kind.replay_record(record).game
    if kind.is_over(game) or player not in kind.to_act(game):
        raise ReviewError("it is not your turn: there is nothing to hint")
    out = analysis(kind, effort).hint(game, player)
    out["sentences"] = plan_words(kind, record, player, len(record["actions"]), out["actions"])
    out["effort"] = effort
    progress(1, 1)
    return out


def sheet_job(game: str, map_id: str, map_text: str | None, paper: str, seed: int | None, page: int,
              progress: Progress) -> str:
    """A printable sheet as SVG (``server.sheets``, each game's printer): the Tomb's
    player sheet for a map, or a page of Treasure's printout. Drawn in a child too: 15-20
    ms of CPU a sheet, which in a thread of the server held the interpreter lock against
    the event loop."""
    out = str(PRINTS.named(game).sheet(map_id, map_text, paper, seed, page))
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
    """``python -m mummy.server.coaching.coach_jobs JOBS_FD ANSWERS_FD NICE PARENT_PID``: a lane's child."""
    jobs, answers, nice, parent = (int(a) for a in argv[:4])
    child_main(Connection(jobs, writable=False), Connection(answers, readable=False), nice, parent)


__all__ = ["EFFORTS", "JOBS", "analysis", "child_main", "hint_job", "main", "par_job",
           "plan_words", "review_job", "run", "sheet_job"]


if __name__ == "__main__":
    main(sys.argv[1:])
