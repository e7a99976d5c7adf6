"""The Tomb in a simulation: playing one game, summing many up, and the report's sections."""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from mummy.bots.registry import bot_seed, make_agent
from mummy.sim.charts import bar_chart, esc, histogram, percentile, table
from mummy.sim.columns import Column, seat_item
from mummy.sim.spec import GameSpec
from mummy.tomb.content import is_map, map_spec
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import to_record
from mummy.tomb.scoring import ranking, score

ACHIEVEMENTS = ("Master of the Undead", "Magical Warden", "Treasure Hunter", "The Mapmaker", "Mummy Slayer")
#: The score lines of T7, in the sheet's order (a test checks them against the scoring).
SCORE_LINES = ("oozes_x_skeletons", "zombies", "golems", "mimics", "mummy", "magic_items", "leftovers",
               "entrances", "penalties")
#: A sheet's counts in a line's ``sheets``, and what each counts.
COUNTS = {"oozes": "Oozes defeated", "skeletons": "Skeletons defeated", "zombies": "Zombies defeated",
          "golems": "Golems defeated", "mimics": "Mimics defeated", "mummy_hits": "hits on the Mummy",
          "items": "magic items collected"}
FOUND = {"oozes": "Oozes found", "mimics": "Mimics found", "sarcophagi": "sarcophagi found",
         "golems": "Golems found", "gems": "gems found", "keys": "keys gained", "coins": "coins gained"}


def achievement_column(name: str) -> str:
    """``Master of the Undead`` -> ``ach_master_of_the_undead``."""
    return "ach_" + name.lower().replace(" ", "_")


def earned(achievement: str) -> Callable[[dict[str, Any], int], object]:
    """A seat's column: whether its sheet earned ``achievement``."""
    return lambda line, seat: achievement in line["achievements"][seat]


def tomb_columns() -> tuple[Column, ...]:
    """The Tomb's own columns of the flat table (mummy.sim.table), one row per sheet."""
    cols = [Column("map", "string", "the map: a packaged map (`map1` … `map5`) or a generated map's id "
                   "(`gen-…`)", lambda r, s: r["map"]),
            Column("mode", "string", "the mode: `standard`, `easy` or `kids`", lambda r, s: r["mode"]),
            Column("score", "int64", "the sheet's final total (T7)", lambda r, s: r["scores"][s])]
    cols += [Column(f"line_{k}", "int64", f"the points of the `{k}` score line"
                    + (" (zero or less)" if k == "penalties" else ""),
                    seat_item("breakdown", k)) for k in SCORE_LINES]
    cols += [Column(achievement_column(a), "bool", f"whether the sheet earned {a}", earned(a)) for a in ACHIEVEMENTS]
    cols.append(Column("achievements", "int64", "how many achievements the sheet earned",
                       lambda r, s: len(r["achievements"][s])))
    cols += [Column(k, "int64", meaning, seat_item("sheets", k)) for k, meaning in COUNTS.items()]
    cols += [Column(f"found_{k}", "int64", meaning, seat_item("sheets", "found", k)) for k, meaning in FOUND.items()]
    cols.append(Column("covered", "int64", "squares covered on the sheet", lambda r, s: r["sheets"][s]["covered"]))
    return tuple(cols)


class TombSim:
    """Everyone plays the same dice, so the seats need no rotation."""

    name = "tomb"
    rotate = False
    #: the fields of a ``mummy sim --out`` line of this game (``mummy report`` checks them)
    needs = frozenset({"game", "seed", "bots", "scores", "breakdown", "achievements", "sheets", "map", "mode",
                       "seconds"})

    columns = tomb_columns()

    def problem(self, bots: list[str], sites: list[str]) -> str | None:
        return None  # any number of players (T8.1); --sites is Treasure's

    def unflatten(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """A line's Tomb fields from its sheets' rows of the flat table (all but the record)."""
        return {
            "map": seats[0]["map"], "mode": seats[0]["mode"],
            "scores": [r["score"] for r in seats],
            "breakdown": [{k: r[f"line_{k}"] for k in SCORE_LINES} for r in seats],
            "achievements": [[a for a in ACHIEVEMENTS if r[achievement_column(a)]] for r in seats],
            "sheets": [{**{k: r[k] for k in COUNTS}, "found": {k: r[f"found_{k}"] for k in FOUND},
                        "covered": r["covered"]} for r in seats],
        }

    def play(self, spec: GameSpec) -> dict[str, Any]:
        """Play one game between bots to the end; the line ``mummy sim --out`` writes."""
        players = [PlayerSetup(f"{bot}-{i + 1}", spec.map, spec.mode) for i, bot in enumerate(spec.bots)]
        game = TombGame(spec.seed, players)
        agents = [make_agent(self.name, bot, bot_seed(spec.seed, i)) for i, bot in enumerate(spec.bots)]
        started = time.perf_counter()
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(seat, agents[seat].act(game, seat))
        seconds = time.perf_counter() - started
        scores = [score(s) for s in game.sheets]
        sheets = []
        for s in game.sheets:
            sheets.append({
                "oozes": s.oozes_defeated, "skeletons": s.skel_defeated.bit_count(),
                "zombies": s.zombies_defeated, "golems": s.golems_defeated.bit_count(),
                "mimics": s.mimics_defeated, "mummy_hits": len(s.hits), "items": s.items_found.bit_count(),
                "found": {"oozes": s.oozes_found, "mimics": s.mimics_found, "sarcophagi": s.sarc_found,
                          "golems": s.golems_found.bit_count(), "gems": s.gems_found.bit_count(),
                          "keys": s.keys_gained, "coins": s.coins_gained},
                "covered": s.covered.bit_count(),
            })
        return {
            "game": "tomb", "index": spec.index, "seed": spec.seed, "bots": list(spec.bots),
            "map": spec.map, "mode": spec.mode,
            "scores": [sc.total for sc in scores],
            "breakdown": [sc.lines for sc in scores],
            "achievements": [list(sc.achievements) for sc in scores],
            "places": ranking(scores),
            "sheets": sheets,
            "seconds": round(seconds, 3),
            "record": to_record(game),
        }

    def summarise(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """Each bot's score distribution, achievements and scoring lines."""
        scores: dict[str, list[int]] = defaultdict(list)
        achieved: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(ACHIEVEMENTS, 0))
        line_sums: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        seconds: dict[str, list[float]] = defaultdict(list)
        for row in rows:
            for seat, bot in enumerate(row["bots"]):
                scores[bot].append(row["scores"][seat])
                for name in row["achievements"][seat]:
                    achieved[bot][name] += 1
                for k, v in row["breakdown"][seat].items():
                    line_sums[bot][k].append(v)
            for bot in set(row["bots"]):
                seconds[bot].append(row["seconds"])
        bots = {}
        for bot, values in scores.items():
            n = len(values)
            bots[bot] = {
                "players": n,
                "mean": round(statistics.mean(values), 2),
                "median": statistics.median(values),
                "p10": round(percentile(values, 0.1), 1),
                "p90": round(percentile(values, 0.9), 1),
                "achievements": {a: round(c / n, 3) for a, c in achieved[bot].items()},
                "lines": {k: round(statistics.mean(v), 2) for k, v in line_sums[bot].items()},
                "seconds_per_game": round(statistics.mean(seconds[bot]), 3),
            }
        return {"game": "tomb", "games": len(rows), "bots": bots}

    def sections(self, rows: list[dict[str, Any]]) -> list[str]:
        """The report's HTML sections: one per map and mode played."""
        out = []
        by_map: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            by_map[(r["map"], r["mode"])].append(r)
        for (map_id, mode), group in by_map.items():
            summary = self.summarise(group)
            bots = summary["bots"]
            out.append(f"<h2>{esc(map_id)}, {esc(mode)} mode ({len(group)} games)</h2>")
            out.append(table(["bot", "players", "mean", "median", "p10", "p90", "s per game"],
                              [[b, v["players"], v["mean"], v["median"], v["p10"], v["p90"], v["seconds_per_game"]]
                               for b, v in bots.items()]))
            scores: dict[str, list[float]] = defaultdict(list)
            kinds = ("oozes", "skeletons", "zombies", "golems", "mimics", "mummy_hits", "items")
            defeated: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
            found: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
            for r in group:
                for seat, bot in enumerate(r["bots"]):
                    scores[bot].append(r["scores"][seat])
                    sheet = r["sheets"][seat]
                    for k in kinds:
                        defeated[bot][k].append(sheet[k])
                    for k, v in sheet["found"].items():
                        found[bot][k].append(v)
            charts = [histogram("Final score distribution", scores)]
            line_names = list(next(iter(bots.values()))["lines"])
            charts.append(bar_chart("Mean points per scoring line", line_names,
                                    {b: [v["lines"][k] for k in line_names] for b, v in bots.items()}))
            charts.append(bar_chart("Defeats, items and Mummy hits (mean)", list(kinds),
                                    {b: [sum(defeated[b][k]) / len(defeated[b][k]) for k in kinds] for b in bots}))
            # How often each finding of the map is collected: found / on the map.
            spec = map_spec(map_id) if is_map(map_id) else None
            if spec is not None:
                available = {"oozes": len(spec.oozes), "mimics": len(spec.mimics),
                             "sarcophagi": sum(1 for r in spec.rooms if r.finding == "sarcophagus"),
                             "golems": len(spec.golems), "gems": sum(1 for r in spec.rooms if r.finding == "gem"),
                             "keys": spec.key_track}
                fkinds = list(available)
                charts.append(bar_chart("Share of the map's findings collected", fkinds,
                                        {b: [sum(found[b][k]) / len(found[b][k]) / available[k] for k in fkinds]
                                         for b in bots}, fmt="{:.0%}"))
                coins = {b: sum(found[b]["coins"]) / len(found[b]["coins"]) for b in bots}
                out.append('<p class="note">Coins gained per game (floor and rewards): '
                           + ", ".join(f"{esc(b)} {v:.1f}" for b, v in coins.items()) + ".</p>")
            out.append('<div class="charts">' + "".join(charts) + "</div>")
            out.append("<h3>Achievements (share of sheets)</h3>")
            out.append(table(["bot", *ACHIEVEMENTS],
                              [[b, *(f"{v['achievements'][a]:.1%}" for a in ACHIEVEMENTS)] for b, v in bots.items()]))
        return out

    def format(self, summary: dict[str, Any]) -> list[str]:
        """The summary as plain-text table lines for the terminal."""
        lines = [f"{'bot':<8} {'n':>5} {'mean':>8} {'median':>7} {'p10':>7} {'p90':>7}  achievements"]
        for bot, b in summary["bots"].items():
            ach = ", ".join(f"{k} {v:.0%}" for k, v in b["achievements"].items() if v) or "-"
            lines.append(f"{bot:<8} {b['players']:>5} {b['mean']:>8.1f} {b['median']:>7} {b['p10']:>7} "
                         f"{b['p90']:>7}  {ach}")
        return lines
