"""The ``mummy`` command: one entry point with subcommands.

``mummy play tomb|treasure`` plays in the terminal, ``mummy odds`` prints exact Treasure
dice odds, ``mummy replay FILE`` checks a game record of either game,
``mummy maps`` lists the maps (``mummy maps generate`` draws new ones: cli_maps.py),
``mummy check-map FILE`` validates a designer's map, and ``mummy companion tomb`` rolls
the dice for a table of paper players (terminal/companion.py).
Bad input is reported as a message and an exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mummy import __version__, cli_maps, cli_review
from mummy.cli_io import UNREADABLE, read_json
from mummy.core.errors import MummyError, quote
from mummy.core.rng import parse_seed
from mummy.terminal import companion


def _seed(text: str) -> int:
    try:
        return parse_seed(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a non-negative whole number, not {quote(text)}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {quote(text)}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``mummy`` command line: each subcommand's parser names the function that runs it."""
    parser = argparse.ArgumentParser(prog="mummy", description="The Mummy's Tomb and Mummy's Treasure.")
    parser.add_argument("--version", action="version", version=f"mummy {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _play_parsers(sub)
    _odds_parser(sub)
    replay = sub.add_parser("replay", help="replay a game record and say whether it is valid")
    replay.add_argument("file")
    replay.add_argument("--show", action="store_true", help="print the final sheets")
    replay.set_defaults(run=_replay)
    _sim_parser(sub)
    report = sub.add_parser("report", help="an HTML report of a simulation's results (JSON lines, Parquet or CSV)")
    report.add_argument("file")
    report.add_argument("--out", metavar="DIR", default="report")
    report.set_defaults(run=_report)
    _serve_parser(sub)
    verify = sub.add_parser("verify", help="check a finished online game: its seed commitment and every roll")
    verify.add_argument("file")
    verify.set_defaults(run=_verify)
    cli_maps.add_parser(sub, _seed)
    cli_review.add_parser(sub)
    companion.add_parser(sub, _seed, _positive)
    check = sub.add_parser("check-map", help="validate a Tomb map file (T10)")
    check.add_argument("file")
    check.set_defaults(run=_check_map)
    _print_parser(sub)
    return parser


def _play_parsers(sub: Any) -> None:
    """``mummy play GAME``: each game's terminal adds its own options (terminal/kinds.py)."""
    from mummy.terminal.kinds import TERMINALS

    play = sub.add_parser("play", help="play in the terminal")
    play_sub = play.add_subparsers(dest="game", required=True)
    for terminal in TERMINALS.values():
        terminal.add_parser(play_sub, _seed, _positive).set_defaults(run=terminal.start)


def _odds_parser(sub: Any) -> None:
    odds = sub.add_parser("odds", help="exact Treasure dice odds with the best rerolls (R6)")
    odds.add_argument("needs", help="the symbols needed, like SSAA (S A E P C J)")
    odds.add_argument("--dice", default=None,
                      help="the five dice showing, like SSAJP (default: a fresh turn)")
    odds.add_argument("--rolls", type=int, default=None,
                      help="rolls left (default 3 on a fresh turn, 2 with dice showing)")
    odds.set_defaults(run=_odds)


def _sim_parser(sub: Any) -> None:
    from mummy.bots.registry import bots_help
    from mummy.sim.kinds import SIMS
    from mummy.terminal.kinds import map_argument
    from mummy.tomb.sheet import MODES

    sim = sub.add_parser("sim", help="simulate many seeded games between bots")
    sim.add_argument("game", choices=list(SIMS))
    sim.add_argument("--bots", default="strong", help="comma-separated, one per seat, like strong,greedy; "
                     f"bots: {bots_help()}")
    sim.add_argument("--games", type=_positive, default=100)
    sim.add_argument("--seed", type=_seed, default=0, help="game i uses seed SEED+i")
    sim.add_argument("--jobs", type=_positive, default=1, help="processes on this machine")
    sim.add_argument("--ray", metavar="ADDRESS", default=None,
                     help="run on a Ray cluster (ray://HOST:10001, HOST:6379, or 'local')")
    sim.add_argument("--out", metavar="FILE", default=None, help="the results: FILE.parquet or FILE.csv a table "
                     "(one row per seat of each game), any other name one JSON line per game")
    sim.add_argument("--map", default="map1", type=map_argument, help="Tomb map (a packaged map, a "
                     "generated map's id, or a map file)")
    sim.add_argument("--mode", default="standard", choices=list(MODES), help="Tomb mode")
    sim.add_argument("--sites", default="", help="Treasure sites, comma-separated, one per seat (the bots "
                     "rotate through the seats; the sites stay with the seats)")
    sim.add_argument("--movable", action="store_true", help="Treasure movable-tiles variant (R5.1)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_sim)


def _serve_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="the game server (HTTP and websockets)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default="sqlite:///mummy.db", help="SQLAlchemy URL (default: ./mummy.db, SQLite)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="a host name the Host header may carry (repeatable; default: the --host and "
                            "localhost names; '*' for any)")
    serve.add_argument("--games-per-address", metavar="RATE",
                       help="new games one address may create, like 20/minute (docs/server.md, Limits)")
    serve.add_argument("--actions-per-address", metavar="RATE",
                       help="HTTP actions one address may send, like 30/second")
    serve.add_argument("--games-overall", metavar="RATE", help="new games the whole server takes, like 600/minute")
    serve.add_argument("--actions-overall", metavar="RATE", help="HTTP actions the whole server takes")
    serve.add_argument("--previews-per-address", metavar="RATE",
                       help="previews of an action one address may ask for, like 40/second")
    serve.add_argument("--previews-overall", metavar="RATE", help="previews the whole server answers")
    serve.add_argument("--prints-per-address", metavar="RATE",
                       help="printable sheets one address may ask for, like 30/minute")
    serve.add_argument("--prints-overall", metavar="RATE", help="printable sheets the whole server draws")
    serve.add_argument("--sockets-per-address", metavar="RATE",
                       help="websocket connections one address may open, like 60/minute")
    serve.add_argument("--sockets-overall", metavar="RATE", help="websocket connections the whole server takes")
    serve.add_argument("--maps-per-address", type=int, metavar="N",
                       help="new custom maps one address may store a day (default 50)")
    serve.add_argument("--connections-per-address", type=int, metavar="N",
                       help="open connections one address may hold to a process (default 64; the machine's "
                            "own addresses, a proxy's, are not counted)")
    serve.add_argument("--ipv6-prefix", type=int, metavar="BITS",
                       help="IPv6 addresses sharing this prefix are one client for every per-address limit "
                            "(default 64)")
    serve.add_argument("--forwarded-allow-ips", metavar="ADDRESSES",
                       help="the reverse proxies whose X-Forwarded-For names the client, comma separated, or "
                            "'*' (default: $FORWARDED_ALLOW_IPS, else this machine: 127.0.0.1,::1; "
                            "docs/deploy.md §3)")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="server processes sharing the port (PostgreSQL only; docs/deploy.md)")
    serve.add_argument("--log-format", choices=("text", "json"), default=None,
                       help="log lines on standard error: text, or one JSON object per line (default: "
                            "$MUMMY_LOG_FORMAT, else text; docs/deploy.md §7)")
    serve.set_defaults(run=_serve)


def _odds(args: argparse.Namespace) -> int:
    from mummy.treasure.odds import odds

    try:
        o = odds(args.needs, args.dice, args.rolls)
    except ValueError as exc:
        print(f"mummy odds: {exc}", file=sys.stderr)
        return 2
    where = f"with {o.dice} showing and {o.rolls_left} reroll(s) left" if o.dice else \
        f"on a fresh turn with {o.rolls_left} roll(s)"
    print(f"{o.needs} {where}: {o.chance.numerator}/{o.chance.denominator} = {o.decimal:.7f}")
    if o.dice:
        if o.chance == 1 and not o.reroll:
            print("best play: the symbols show now; take the tile")
        elif o.reroll:
            print(f"best reroll: {o.reroll} (keep {_keep(o.dice, o.reroll)})")
        else:
            print("no reroll left")
    return 0


def _keep(dice: str, reroll: str) -> str:
    rest = list(dice)
    for ch in reroll:
        rest.remove(ch)
    return "".join(rest) or "nothing"


def _replay(args: argparse.Namespace) -> int:
    """Replay a record of either game (told apart by its format) and say whether it holds."""
    obj = read_json("replay", args.file)
    if obj is UNREADABLE:
        return 2
    from mummy.games import KINDS, kind_of_record
    from mummy.terminal.kinds import TERMINALS

    kind = kind_of_record(obj)
    if kind is None:
        formats = " or ".join(f"'{k.record_format}'" for k in KINDS.values())
        print(f"mummy replay: invalid record: not a game record ('format' must be {formats})", file=sys.stderr)
        return 1
    result = _replayed(obj, kind.replay_record)
    if result is None:
        return 1
    game = result.game
    terminal = TERMINALS.get(kind.name)  # (a game without a terminal front is not drawn)
    show, state = terminal.describe(game) if terminal else ("", "finished" if kind.is_over(game) else "in progress")
    if args.show:
        print(show)
    if not result.ok:
        print(f"INVALID: {result.error}")
        return 1
    print(f"VALID: {len(game.history)} actions replayed, {state}")
    return 0


def _replayed(obj: object, replay: Any) -> Any:
    """The replay result, or None after reporting a malformed record."""
    from mummy.core.records import RecordError

    try:
        return replay(obj)
    except RecordError as exc:
        print(f"mummy replay: invalid record: {exc}", file=sys.stderr)
        return None


def _sim(args: argparse.Namespace) -> int:
    from mummy.bots.registry import bot_names
    from mummy.sim.kinds import sim_named
    from mummy.sim.runner import run, specs
    from mummy.sim.summary import format_summary, summarise

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in bot_names(args.game)]
    if not bots or unknown:
        print(f"mummy sim: unknown bot(s) {', '.join(unknown) or '(none given)'}; "
              f"bots: {', '.join(bot_names(args.game))}", file=sys.stderr)
        return 2
    site_list = [x.strip() for x in args.sites.split(",") if x.strip()]
    problem = sim_named(args.game).problem(bots, site_list)
    if problem:
        print(f"mummy sim: {problem}", file=sys.stderr)
        return 2
    game_specs = specs(args.game, bots, args.games, args.seed, map_id=args.map, mode=args.mode,
                       sites=site_list, movable=args.movable)
    from mummy.sim.table import open_results

    try:
        out = open_results(args.out, args.game) if args.out else None
    except OSError as exc:
        print(f"mummy sim: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # AnalysisUnavailable: Parquet without pyarrow
        print(f"mummy sim: {exc}", file=sys.stderr)
        return 2
    rows = []
    try:
        for row in run(game_specs, jobs=args.jobs, ray_address=args.ray, progress=not args.quiet):
            rows.append(row)
            if out:
                out.write(row)
    except RuntimeError as exc:
        print(f"mummy sim: {exc}", file=sys.stderr)
        return 2
    finally:
        if out:
            out.close()
    print(format_summary(summarise(rows)))
    if args.out:
        print(f"wrote {len(rows)} games to {args.out} (mummy report {args.out} --out DIR)")
    return 0


def _report(args: argparse.Namespace) -> int:
    from mummy.sim.report import write_report
    from mummy.sim.table import is_table

    rows = _table_lines(args.file) if is_table(args.file) else _json_lines(args.file)
    if rows is None:
        return 2
    if not rows:
        print(f"mummy report: {args.file} holds no games", file=sys.stderr)
        return 2
    try:
        path = write_report(rows, args.out, source=args.file)
    except OSError as exc:
        print(f"mummy report: cannot write to {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # AnalysisUnavailable: the charts without matplotlib
        print(f"mummy report: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


def _table_lines(file: str) -> list[dict[str, Any]] | None:
    """The game lines of a Parquet or CSV table, or None after saying what is wrong."""
    from mummy.sim.table import read_lines

    try:
        return read_lines(file)
    except OSError as exc:
        print(f"mummy report: cannot read {file}: {exc.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"mummy report: {file} is not UTF-8 text", file=sys.stderr)
    except RuntimeError as exc:  # AnalysisUnavailable: Parquet without pyarrow
        print(f"mummy report: {exc}", file=sys.stderr)
    except ValueError as exc:  # NotATable
        print(f"mummy report: {file} is not a table of mummy sim --out: {exc}", file=sys.stderr)
    return None


def _json_lines(file: str) -> list[dict[str, Any]] | None:
    """The lines of a ``mummy sim --out`` JSON lines file, or None after saying what is wrong."""
    try:
        with open(file, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    except OSError as exc:
        print(f"mummy report: cannot read {file}: {exc.strerror}", file=sys.stderr)
        return None
    except UnicodeDecodeError:
        print(f"mummy report: {file} is not UTF-8 text", file=sys.stderr)
        return None
    except json.JSONDecodeError as exc:
        print(f"mummy report: {file} line {exc.lineno}: not JSON ({exc.msg})", file=sys.stderr)
        return None
    from mummy.sim.kinds import SIMS

    needs = {name: sim.needs for name, sim in SIMS.items()}
    for number, row in enumerate(rows, start=1):
        game = row.get("game") if isinstance(row, dict) else None
        missing = needs[game] - set(row) if game in needs else None
        if missing is None or missing:
            print(f"mummy report: {file} line {number} is not a line of mummy sim --out"
                  + (f" (missing {', '.join(sorted(missing))})" if missing else ""), file=sys.stderr)
            return None
    if len({r["game"] for r in rows}) > 1:
        print("mummy report: the file mixes both games", file=sys.stderr)
        return None
    return rows


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (only to say so when the server's dependencies are missing)

        from mummy.server.admission.limits import Limits
        from mummy.server.api import logs
        from mummy.server.app import create_app
        from mummy.server.deploy.supervisor import needs_postgres, run_workers, serve
    except ImportError:
        print("mummy serve: the server's dependencies are missing; they come with the package: pip install mummy",
              file=sys.stderr)
        return 2
    try:
        log_format = logs.configure(args.log_format)  # before the database: its errors are lines too
    except ValueError as exc:  # MUMMY_LOG_FORMAT names no format
        print(f"mummy serve: {exc}", file=sys.stderr)
        return 2
    say = _serve_say(log_format)
    db = _shown_url(args.db)
    if args.workers < 1 or (args.workers > 1 and needs_postgres(args.db)):
        return say(needs_postgres(db) or "--workers is 1 or more", error=True)
    hosts = list(dict.fromkeys(args.allowed_host or [args.host, "localhost", "127.0.0.1"]))
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:
        hosts = ["*"]  # every address of the machine: its names are not known here
    rates = {f"{kind}_{scope}": getattr(args, f"{kind}_{scope}")
             for kind in ("games", "actions", "previews", "prints", "sockets") for scope in ("per_address", "overall")}
    others = {"maps_per_address_per_day": args.maps_per_address, "ipv6_prefix": args.ipv6_prefix,
              "connections_per_address": args.connections_per_address,
              "forwarded_allow_ips": args.forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS")}
    if args.ipv6_prefix is not None and not 1 <= args.ipv6_prefix <= 128:
        return say("--ipv6-prefix is 1 to 128 bits", error=True)
    limits = Limits(**{k: v for k, v in {**rates, **others}.items() if v is not None and v != ""},
                    allowed_hosts=() if "*" in hosts else tuple(hosts))
    try:
        app = create_app(args.db, limits=limits)  # migrates, once for every worker
    except ValueError as exc:  # a rate that is not one
        return say(str(exc), error=True)
    except ImportError as exc:  # e.g. PostgreSQL without its driver
        return say(f"{exc.msg}; for PostgreSQL: pip install 'mummy[postgres]'", error=True)
    except Exception as exc:  # an unreachable or unusable database
        return say(f"cannot use the database {db}: {exc}", error=True)
    checked = "any Host header (--allowed-host NAME to check it)" if not limits.allowed_hosts else \
        "Host: " + ", ".join(limits.allowed_hosts)
    processes = f"; {args.workers} processes" if args.workers > 1 else ""
    say(f"open http://{args.host}:{args.port}/ in a browser to play (database {db}{processes}; "
        f"{checked}; API schema at /openapi.json; Ctrl+C stops)")
    if args.workers == 1:
        serve(app, limits, host=args.host, port=args.port)
        return 0
    app.state.service.engine.dispose()  # the workers make their own
    try:
        run_workers(args.db, limits, args.host, args.port, args.workers, log_format)
    except (OSError, ValueError) as exc:  # the port is taken, or a rate is not one
        return say(str(exc), error=True)
    return 0


def _serve_say(log_format: str) -> Callable[..., int]:
    """How ``mummy serve`` says that it started, or why it cannot: in text, a line of its
    own (on standard output, or on standard error for a refusal), as ever; in JSON, a
    line of the log (logger ``mummy.serve``), so that standard error holds JSON only.
    Answers the exit status: 2 for a refusal."""
    import logging

    def say(message: str, error: bool = False) -> int:
        if log_format == "json":
            logging.getLogger("mummy.serve").log(logging.ERROR if error else logging.INFO, message)
        elif error:
            print(f"mummy serve: {message}", file=sys.stderr)
        else:
            print(f"mummy: {message}", flush=True)
        return 2 if error else 0

    return say


def _shown_url(url: str) -> str:
    """A database URL as it may be printed and logged: its password hidden."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _verify(args: argparse.Namespace) -> int:
    obj = read_json("verify", args.file)
    if obj is UNREADABLE:
        return 2
    if not isinstance(obj, dict):
        print("INVALID: not a game record (a JSON object)")
        return 1
    from mummy.core.records import RecordError
    from mummy.games import commitment, kind_of_record

    kind = kind_of_record(obj)
    if kind is None or not isinstance(obj.get("commitment"), str) or not isinstance(obj.get("nonce"), str):
        print("INVALID: not a finished online game's record (it needs format, seed, nonce and commitment)")
        return 1
    if commitment(kind.name, obj.get("seed"), obj["nonce"]) != obj["commitment"]:
        print(f"INVALID: the seed and nonce do not match the commitment {obj['commitment']} published at the start")
        return 1
    try:
        result = kind.replay_record(obj)
    except RecordError as exc:
        print(f"INVALID: {exc}")
        return 1
    if not result.ok:
        print(f"INVALID: {result.error}")
        return 1
    if not result.game.is_over:
        print("INVALID: the record does not finish the game")
        return 1
    print(f"VALID: the seed matches the commitment, and all {len(result.game.history)} actions replay "
          "with the same rolls and shuffles")
    return 0


def _print_parser(sub: Any) -> None:
    """``mummy print GAME --out FILE.pdf|.svg``: printable sheets for paper play (render/printing.py)."""
    from mummy.render.printing import PRINTS, add_common

    printer = sub.add_parser("print", help="printable sheets for paper play, as PDF or SVG")
    printer_sub = printer.add_subparsers(dest="game", required=True)
    for kind in PRINTS.values():
        parser = kind.add_parser(printer_sub)
        add_common(parser)
        parser.set_defaults(run=_print, printer=kind)


def _print(args: argparse.Namespace) -> int:
    from mummy.render.printing import PrintUnavailable, output_format, write_pages

    try:
        output_format(args.out)
        pages, title = args.printer.pages(args)
    except (ValueError, MummyError) as exc:
        print(f"mummy print: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mummy print: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        written = write_pages(pages, title, args.out)
    except PrintUnavailable as exc:
        print(f"mummy print: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mummy print: cannot write {exc.filename or args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(written)} ({len(pages)} page{'s' if len(pages) > 1 else ''}, {args.paper})")
    return 0


def _check_map(args: argparse.Namespace) -> int:
    from mummy.tomb.content import load_map_file

    try:
        spec = load_map_file(args.file)
    except OSError as exc:
        print(f"mummy check-map: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except MummyError as exc:
        print(f"INVALID: {exc}")
        return 1
    print(f"VALID: {spec.title} ({spec.grid.width}x{spec.grid.height}, {len(spec.rooms)} rooms, "
          f"{len(spec.entrances)} entrances)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
