"""``mummy review RECORD`` and ``mummy par RECORD``: how well a recorded game was played.

``mummy review`` prints the game's par (the strongest bot on the same dice, T4.6 / R2.2)
and the player's result against it, the three biggest mistakes with the better move in
words (the game's narrator previews each action of it), and a chart of what was lost by
round (Tomb) or turn (Treasure); a progress bar runs on stderr while it works (tqdm, the
``analysis`` extra, when installed). ``--json`` prints the whole review, par included, as
JSON. ``mummy par`` prints par alone. The record is what ``mummy play --save`` and the
server's record endpoint write (docs/tomb-formats.md, docs/treasure-formats.md). What
the numbers mean: docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

#: The text chart's widest bar, in characters.
BAR: int = 40


def add_parser(sub: Any) -> None:
    """The ``review`` and ``par`` commands."""
    review = sub.add_parser("review", help="par and a review of every decision of a game record")
    review.add_argument("record", help="a game record (JSON), as mummy play --save writes it")
    review.add_argument("--player", type=int, default=0, help="whose decisions (a seat number, default 0)")
    review.add_argument("--json", action="store_true", help="print the whole review as JSON")
    review.add_argument("--quiet", action="store_true", help="no progress bar")
    review.set_defaults(run=run_review)
    par = sub.add_parser("par", help="the strongest bot's result on a record's own dice, and yours against it")
    par.add_argument("record", help="a game record (JSON)")
    par.add_argument("--player", type=int, default=0, help="whose result (a seat number, default 0)")
    par.add_argument("--json", action="store_true", help="print par as JSON, with the bot's game record")
    par.set_defaults(run=run_par)


def read_record(command: str, path: str) -> Any:
    """The record's JSON, or None after saying on stderr why it cannot be read."""
    from mummy.cli_io import UNREADABLE, read_json

    obj = read_json(command, path)
    return None if obj is UNREADABLE else obj


class Bar:
    """tqdm's bar on stderr, made on the first report (the total is known then); nothing
    without tqdm, since a review runs the same without a bar."""

    def __init__(self, what: str, unit: str, quiet: bool) -> None:
        self.what = what
        self.unit = unit
        self.quiet = quiet
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.quiet:
            return
        if self.bar is None:
            try:
                from tqdm import tqdm  # type: ignore[import-untyped]
            except ImportError:
                self.quiet = True
                return
            self.bar = tqdm(total=total, desc=self.what, unit=self.unit, file=sys.stderr, dynamic_ncols=True,
                            leave=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_par(args: argparse.Namespace) -> int:
    from mummy.analysis.common import ReviewError
    from mummy.analysis.review import par

    record = read_record("par", args.record)
    if record is None:
        return 2
    bar = Bar("par", "step", args.json)
    try:
        got = par(record, args.player, bar)
    except ReviewError as exc:
        print(f"mummy par: {exc}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    if args.json:
        print(json.dumps(got))
    else:
        print(par_line(got))
    return 0


def run_review(args: argparse.Namespace) -> int:
    from mummy.analysis.common import ReviewError
    from mummy.analysis.review import analysis_of

    record = read_record("review", args.record)
    if record is None:
        return 2
    bar = Bar("review", "decision", args.quiet or args.json)
    try:
        analysis = analysis_of(record)
        report = analysis.review(record, args.player, bar)
    except ReviewError as exc:
        print(f"mummy review: {exc}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    bar = Bar("par", "step", args.quiet or args.json)
    try:
        report["par"] = analysis.par(record, args.player, bar)
    except ReviewError as exc:  # a race has no par: the review stands without it
        report["par"] = {"error": str(exc)}
    finally:
        bar.close()
    if args.json:
        print(json.dumps(report))
        return 0
    for line in review_lines(record, report):
        print(line)
    return 0


def par_line(p: dict[str, Any]) -> str:
    """"143, par 161 on these dice: 18 behind the expert bot", in the game's own unit."""
    if "error" in p:
        return f"Par: none ({p['error']})."
    unit = "points" if p["better"] == "higher" else "turns"
    if p["par"] is None:
        return f"Par: the {p['bot']} bot did not fill its site on these dice (R4.3)."
    if p["result"] is None:
        return f"Par {p['par']} {unit} on these dice (the {p['bot']} bot); no result: the game is unfinished."
    side = "ahead of" if p["result"] > 0 else "behind" if p["result"] < 0 else "level with"
    return (f"{p['score']}, par {p['par']} on these dice: {abs(p['result'])} {unit} {side} the {p['bot']} bot "
            f"(result {p['result']:+d}).")


def review_lines(record: Any, r: dict[str, Any]) -> list[str]:
    """The review in words: par, the biggest mistakes with the better move, the chart."""
    unit = "points" if r["unit"] == "points" else "expected turns"
    out = [par_line(r["par"]),
           f"Review of player {r['player']}: {len(r['decisions'])} decisions, {r['mistake_count']} "
           f"mistake(s) of {r['threshold']:g} {unit} or more, {r['total_lost']:g} {unit} lost in all "
           f"(the {r['bot']} bot's values; docs/analysis.md)."]
    if r["mistakes"]:
        out.append("The biggest mistakes:")
    for n, index in enumerate(r["mistakes"], start=1):
        d = r["decisions"][index]
        out.append(f"{n}. {where(d)}: {d['lost']:g} {unit} lost.")
        out.append(f"   You played {', '.join(d['chosen']['actions'])} (worth {d['chosen']['worth']:g}).")
        out.append(f"   Better: {', '.join(d['best']['actions'])} (worth {d['best']['worth']:g}).")
        out.extend(f"     {s}" for s in better_words(record, r["player"], d))
    out.append(f"{'Points' if r['unit'] == 'points' else 'Expected turns'} lost by "
               f"{'round' if r['unit'] == 'points' else 'turn'}:")
    out.extend(chart(r["lost_by_group"]))
    return out


def where(d: dict[str, Any]) -> str:
    """When a decision was made, in the game's words."""
    if "turn" in d:
        return f"Turn {d['turn']}, roll {d['roll']} ({d['dice']})"
    return f"Round {d['round']}" if d["phase"] == "play" else "After round 20"


def better_words(record: Any, player: int, d: dict[str, Any]) -> list[str]:
    """The better move's actions in sentences: each previewed by the game's narrator on
    the position the decision started from (no roll is made), then played on."""
    from mummy.core.errors import MummyError
    from mummy.games import kind_of_record
    from mummy.render.narrate import narrator_named

    kind = kind_of_record(record)
    assert kind is not None
    before = {k: v for k, v in record.items() if k != "final"}
    before["actions"] = record["actions"][:d["first_action"]]
    game = kind.replay_record(before).game
    narrator = narrator_named(kind.name)
    out = []
    for text in d["best"]["actions"]:
        try:
            out.append(narrator.preview(game, player, text)["sentence"])
            kind.apply(game, player, text)
        except MummyError:
            break
    return out


def chart(groups: list[dict[str, Any]]) -> list[str]:
    """A horizontal bar per round or turn, the longest BAR characters."""
    top = max((g["lost"] for g in groups), default=0.0)
    width = max((len(g["group"]) for g in groups), default=1)
    out = []
    for g in groups:
        n = round(g["lost"] / top * BAR) if top > 0 else 0
        out.append(f"  {g['group']:>{width}} |{'#' * n}{' ' if n else ''}{g['lost']:g}" if g["lost"]
                   else f"  {g['group']:>{width}} |")
    return out
