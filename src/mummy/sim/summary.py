"""Summary statistics of a simulation, from its JSON lines (so a file can be re-read)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

ACHIEVEMENTS = ("Master of the Undead", "Magical Warden", "Treasure Hunter", "The Mapmaker", "Mummy Slayer")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation, as numpy's default does."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summarise(lines: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(lines)
    if not rows:
        return {"games": 0}
    if rows[0]["game"] == "tomb":
        return _tomb(rows)
    return _treasure(rows)


def _tomb(rows: list[dict[str, Any]]) -> dict[str, Any]:
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


def _treasure(rows: list[dict[str, Any]]) -> dict[str, Any]:
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


def format_summary(summary: dict[str, Any]) -> str:
    """A plain-text table for the terminal."""
    if not summary.get("games"):
        return "no games"
    lines = [f"{summary['games']} games of {summary['game']}"]
    if summary["game"] == "tomb":
        lines.append(f"{'bot':<8} {'n':>5} {'mean':>8} {'median':>7} {'p10':>7} {'p90':>7}  achievements")
        for bot, b in summary["bots"].items():
            ach = ", ".join(f"{k} {v:.0%}" for k, v in b["achievements"].items() if v) or "-"
            lines.append(f"{bot:<8} {b['players']:>5} {b['mean']:>8.1f} {b['median']:>7} {b['p10']:>7} "
                         f"{b['p90']:>7}  {ach}")
        return "\n".join(lines)
    if summary["solo"]:
        lines.append(f"{'bot':<8} {'games':>6} {'finished':>9} {'turns when finished':>20} "
                     f"{'squares when not':>17}")
        for bot, b in summary["bots"].items():
            turns_done = "-" if b["mean_turns_finished"] is None else b["mean_turns_finished"]
            squares = "-" if b["mean_squares_unfinished"] is None else b["mean_squares_unfinished"]
            lines.append(f"{bot:<8} {b['seats']:>6} {b['finished_rate']:>9.0%} {turns_done!s:>20} {squares!s:>17}")
    else:
        lines.append(f"{'bot':<8} {'seats':>6} {'win rate':>9} {'mean turns':>11}")
        for bot, b in summary["bots"].items():
            lines.append(f"{bot:<8} {b['seats']:>6} {b['win_rate']:>9.1%} {b['mean_turns']:>11}")
        seat = ", ".join(f"seat {int(k) + 1} {v:.1%}" for k, v in summary["seat_win_rate"].items())
        lines.append(f"wins by seat: {seat}; shared wins: {summary['shared_wins']}")
    return "\n".join(lines)
