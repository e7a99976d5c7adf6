"""Treasure in a simulation: playing one game, summing many up, and the report's sections."""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from typing import Any

from mummy.bots.registry import bot_seed, make_agent
from mummy.sim.charts import bar_chart, dash, histogram, table
from mummy.sim.columns import Column, game_item
from mummy.sim.spec import GameSpec
from mummy.treasure.content import piles
from mummy.treasure.content import sites as sites_of
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame
from mummy.treasure.record import to_record


def treasure_columns() -> tuple[Column, ...]:
    """Treasure's own columns of the flat table (mummy.sim.table), one row per seat. The
    per-turn ``chances`` of a line have no flat form: they stay in the JSON lines."""
    cols = [
        Column("site", "string", "the seat's site: `oasis`, `valley`, `temple` or `pyramid`",
               lambda r, s: r["sites"][s]),
        Column("movable", "bool", "whether the game used the movable-tiles variant (R5.1)",
               lambda r, s: r["movable"]),
        Column("squares", "int64", "squares the seat covered", lambda r, s: r["squares"][s]),
        Column("turns", "int64", "turns the seat started", lambda r, s: r["turns"][s]),
        Column("reason", "string", "how the game ended: `full` (a site was filled) or `stuck`",
               lambda r, s: r["reason"]),
        Column("winner", "int64", "the seat (from 0) that filled its site, or -1 when none did",
               lambda r, s: r["winner"]),
        Column("filled", "bool", "whether this seat filled its site", lambda r, s: r["winner"] == s),
    ]
    cols += [Column(f"takes_{p}", "int64", f"tiles taken from the {p} pile in the game, by all seats (the same "
                    "on each of the game's rows)", game_item("takes", p)) for p in piles()]
    return tuple(cols)


class TreasureSim:
    """Turns go in seat order, so the bots rotate through the seats: each plays first
    equally often."""

    name = "treasure"
    rotate = True
    needs = frozenset({"game", "seed", "bots", "squares", "places", "turns", "reason", "takes", "chances"})
    columns = treasure_columns()

    def unflatten(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """A line's Treasure fields from its seats' rows of the flat table: all but the
        record and the per-turn ``chances``, which the table does not hold."""
        first = seats[0]
        return {"sites": [r["site"] for r in seats], "movable": first["movable"],
                "squares": [r["squares"] for r in seats], "turns": [r["turns"] for r in seats],
                "reason": first["reason"], "winner": first["winner"],
                "takes": {p: first[f"takes_{p}"] for p in piles()}}

    def problem(self, bots: list[str], sites: list[str]) -> str | None:
        if len(bots) > MAX_PLAYERS:
            return f"Mummy's Treasure seats 1 to {MAX_PLAYERS} bots (R2.1)"
        names = sites_of()
        if any(x not in names for x in sites) or (sites and len(sites) != len(bots)):
            return f"--sites needs one of {', '.join(names)} per seat"
        return None

    def play(self, spec: GameSpec) -> dict[str, Any]:
        """Play one game between bots to the end; the line ``mummy sim --out`` writes,
        with each turn's exact chance of each fitting top tile (for "odds realised")."""
        names = list(sites_of())
        site_of = spec.sites or tuple(names[i % len(names)] for i in range(len(spec.bots)))
        seats = [Seat(f"{bot}-{i + 1}", site_of[i]) for i, bot in enumerate(spec.bots)]
        game = TreasureGame(spec.seed, seats, movable=spec.movable)
        agents = [make_agent(self.name, bot, bot_seed(spec.seed, i)) for i, bot in enumerate(spec.bots)]
        takes: dict[str, int] = {p: 0 for p in game.pile_names}
        chances: list[tuple[str, float, bool]] = []  # (pile, chance at the first roll, taken that turn)
        started = time.perf_counter()
        turn_tops: dict[str, float] = {}
        while not game.is_over:
            seat = game.to_act()[0]
            action = agents[seat].act(game, seat)
            game.apply(seat, action)
            if action.kind == "roll":
                from mummy.treasure.odds import odds_many

                tops = {p: game.top(p) for p in game.pile_names}
                fitting = {p: t for p, t in tops.items() if t is not None and game.can_fit(seat, t)}
                result = odds_many([t.needs for t in fitting.values()], game.state.dice, 2)
                turn_tops = {p: o.decimal for p, o in zip(fitting, result, strict=True)}
            elif action.kind in ("take", "pass"):
                for p, c in turn_tops.items():
                    chances.append((p, c, action.kind == "take" and action.pile == p))
                if action.kind == "take":
                    takes[action.pile] += 1
                turn_tops = {}
        seconds = time.perf_counter() - started
        st = game.state
        return {
            "game": "treasure", "index": spec.index, "seed": spec.seed, "bots": list(spec.bots),
            "sites": list(site_of[: len(spec.bots)]), "movable": spec.movable,
            "squares": game.scores(), "places": game.places(), "turns": list(st.turns),
            "reason": st.reason, "winner": st.winner,
            "takes": takes,
            "chances": [list(c) for c in chances],
            "seconds": round(seconds, 3),
            "record": to_record(game),
        }

    def summarise(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """Win rates and turns (several seats), or finishing rate and turns (solo, R4.3)."""
        solo = all(len(r["bots"]) == 1 for r in rows)
        wins: dict[str, int] = defaultdict(int)
        seats_played: dict[str, int] = defaultdict(int)
        seat_wins: dict[int, int] = defaultdict(int)
        turns: dict[str, list[int]] = defaultdict(list)
        finished: dict[str, int] = defaultdict(int)
        takes: dict[str, int] = defaultdict(int)
        for row in rows:
            places = row["places"]
            sole_winner = places.count(1) == 1
            for seat, bot in enumerate(row["bots"]):
                seats_played[bot] += 1
                turns[bot].append(row["turns"][seat])
                if places[seat] == 1 and sole_winner and not solo:
                    wins[bot] += 1
                    seat_wins[seat] += 1
                if solo and row["reason"] == "full":
                    finished[bot] += 1
            for pile, n in row["takes"].items():
                takes[pile] += n
        bots = {}
        for bot, n in seats_played.items():
            entry: dict[str, Any] = {"seats": n, "mean_turns": round(statistics.mean(turns[bot]), 2)}
            if solo:
                # R4.3: a full site scores its turns; an unfinished one its squares.
                entry["finished_rate"] = round(finished[bot] / n, 3)
                done = [row["turns"][seat] for row in rows for seat, b in enumerate(row["bots"])
                        if b == bot and row["reason"] == "full"]
                stuck = [row["squares"][seat] for row in rows for seat, b in enumerate(row["bots"])
                         if b == bot and row["reason"] != "full"]
                entry["mean_turns_finished"] = round(statistics.mean(done), 2) if done else None
                entry["mean_squares_unfinished"] = round(statistics.mean(stuck), 2) if stuck else None
            else:
                entry["win_rate"] = round(wins[bot] / n, 3)
            bots[bot] = entry
        n_games = len(rows)
        out: dict[str, Any] = {"game": "treasure", "games": n_games, "solo": solo, "bots": bots,
                               "takes": dict(takes)}
        if not solo:
            out["seat_win_rate"] = {str(seat): round(seat_wins[seat] / n_games, 3)
                                    for seat in range(max(len(r["bots"]) for r in rows))}
            out["shared_wins"] = sum(1 for r in rows if r["places"].count(1) > 1)
        return out

    def sections(self, rows: list[dict[str, Any]]) -> list[str]:
        """The report's HTML sections: results, turns, takes by pile, odds realised."""
        summary = self.summarise(rows)
        out = [f"<h2>Results ({len(rows)} games)</h2>"]
        if summary["solo"]:
            out.append(table(["bot", "games", "finished", "mean turns when finished", "mean squares when not"],
                              [[b, v["seats"], f"{v['finished_rate']:.0%}", dash(v["mean_turns_finished"]),
                                dash(v["mean_squares_unfinished"])] for b, v in summary["bots"].items()]))
        else:
            out.append(table(["bot", "seats played", "win rate", "mean turns"],
                              [[b, v["seats"], f"{v['win_rate']:.1%}", v["mean_turns"]]
                               for b, v in summary["bots"].items()]))
        charts = []
        turns: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            for seat, bot in enumerate(r["bots"]):
                turns[bot].append(r["turns"][seat])
        charts.append(histogram("Turns taken", turns))
        piles = list(rows[0]["takes"])
        charts.append(bar_chart("Tiles taken per game, by pile", piles,
                                {"all bots": [sum(r["takes"][p] for r in rows) / len(rows) for p in piles]}))
        if not summary["solo"]:
            seats = list(summary["seat_win_rate"])
            charts.append(bar_chart("Win rate by seat (first-seat advantage)", [f"seat {int(s) + 1}" for s in seats],
                                    {"win rate": [summary["seat_win_rate"][s] for s in seats]}, fmt="{:.1%}"))
        odds = odds_realised(rows)
        if odds:
            charts.append(odds)
        out.append('<div class="charts">' + "".join(charts) + "</div>")
        if all("chances" in r for r in rows):
            out.append('<p class="note">A tile can show and still not be taken: the player may prefer another '
                       "tile, so the taken rate sits below the chance to roll it.</p>")
        else:
            out.append('<p class="note">No odds-realised chart: a table (Parquet or CSV) holds no per-turn '
                       "chances; make the report from the JSON lines for it.</p>")
        return out

    def format(self, summary: dict[str, Any]) -> list[str]:
        """The summary as plain-text table lines for the terminal."""
        if summary["solo"]:
            lines = [f"{'bot':<8} {'games':>6} {'finished':>9} {'turns when finished':>20} "
                     f"{'squares when not':>17}"]
            for bot, b in summary["bots"].items():
                turns_done = "-" if b["mean_turns_finished"] is None else b["mean_turns_finished"]
                squares = "-" if b["mean_squares_unfinished"] is None else b["mean_squares_unfinished"]
                lines.append(f"{bot:<8} {b['seats']:>6} {b['finished_rate']:>9.0%} {turns_done!s:>20} "
                             f"{squares!s:>17}")
            return lines
        lines = [f"{'bot':<8} {'seats':>6} {'win rate':>9} {'mean turns':>11}"]
        for bot, b in summary["bots"].items():
            lines.append(f"{bot:<8} {b['seats']:>6} {b['win_rate']:>9.1%} {b['mean_turns']:>11}")
        seat = ", ".join(f"seat {int(k) + 1} {v:.1%}" for k, v in summary["seat_win_rate"].items())
        lines.append(f"wins by seat: {seat}; shared wins: {summary['shared_wins']}")
        return lines


def odds_realised(rows: list[dict[str, Any]]) -> str:
    """The chance of a fitting top tile at a turn's first roll, binned, against how often
    that tile was then taken; empty when the lines carry no ``chances``."""
    bins = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01)]
    labels, taken_rates, predicted = [], [], []
    for lo, hi in bins:
        inside = [c for r in rows for c in r.get("chances", ()) if lo <= c[1] < hi]
        if inside:
            labels.append(f"{lo:.0%}-{min(hi, 1):.0%} (n={len(inside)})")
            predicted.append(sum(c[1] for c in inside) / len(inside))
            taken_rates.append(sum(1 for c in inside if c[2]) / len(inside))
    if not labels:
        return ""
    return bar_chart("Odds realised: chance to roll a top tile vs. taken", labels,
                     {"exact chance (mean)": predicted, "taken that turn": taken_rates}, fmt="{:.0%}")
