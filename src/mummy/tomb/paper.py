"""A paper sheet's final count, checked (T7): for players who play on paper at a table.

A paper player counts their marks (defeats, items, the Mummy's boxes, connected
entrances, what is left open) and types them in; :func:`check_tally` gives the score
lines and the total as the engine scores them, the achievements earned, and every
count that no sheet of that map could show, each naming its rule. It also takes the
lines and total the player wrote, and says where the arithmetic differs. The lines and
the achievements are the engine's own (:func:`mummy.tomb.scoring.tally_score`), so a
paper game and an online one are scored alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mummy.tomb.content import ITEMS, MapSpec
from mummy.tomb.rules import HIT_MULTIPLIERS, ROUNDS, hit_worth
from mummy.tomb.scoring import LINES, Score, Tally, tally_score


@dataclass(frozen=True)
class PaperCheck:
    """The engine's score of a typed tally, and what did not add up."""

    score: Score
    faults: tuple[str, ...] = ()  # counts no sheet of the map could show, with their rule
    differences: tuple[str, ...] = ()  # where the player's own lines or total differ

    @property
    def ok(self) -> bool:
        return not self.faults and not self.differences


def hit_round(k: int, points: int) -> int | None:
    """The round in which the k-th hit (1-based) on the Mummy scores ``points``, or None
    if no round does: the box records (21 − round) × m (T5.6)."""
    m = HIT_MULTIPLIERS[k - 1]
    worth, rest = divmod(points, m)
    rounds = [r for r in range(1, ROUNDS + 1) if hit_worth(r) == worth]
    return rounds[0] if not rest and rounds else None


def _limits(tally: Tally, spec: MapSpec) -> list[str]:
    most = {
        "oozes": (tally.oozes, len(spec.oozes), "T5.3"), "skeletons": (tally.skeletons, len(spec.oozes), "T5.3"),
        "zombies": (tally.zombies, len(spec.log["zombie"]), "T5.3"), "golems": (tally.golems, len(spec.golems), "T5.3"),
        "mimics": (tally.mimics, len(spec.mimics), "T5.3"), "magic items": (tally.items, len(ITEMS), "T6"),
        "connected entrances": (tally.entrances, len(spec.entrances), "T1.6"),
    }
    faults = [f"{what}: {n} is more than the map's {top} ({rule})" for what, (n, top, rule) in most.items() if n > top]
    faults += [f"{what}: {n} cannot be negative" for what, (n, _, _) in most.items() if n < 0]
    if tally.skeletons > tally.oozes:
        faults.append(f"skeletons: {tally.skeletons} defeated, but only {tally.oozes} oozes: a skeleton is "
                      "circled when its ooze is defeated (T5.3)")
    if min(tally.leftovers, tally.open_openings, tally.open_entrances, tally.open_rooms) < 0:
        faults.append("leftovers and open openings, entrances and rooms cannot be negative")
    return faults


def _hits(hits: tuple[int, ...], defeats: int) -> list[str]:
    if len(hits) > len(HIT_MULTIPLIERS):
        return [f"{len(hits)} hits on the Mummy: it has {len(HIT_MULTIPLIERS)} boxes (T5.6)"]
    faults = []
    rounds = []
    for k, points in enumerate(hits, start=1):
        r = hit_round(k, points)
        if r is None:
            m = HIT_MULTIPLIERS[k - 1]
            faults.append(f"Mummy box {k}: {points} is not (21 − round) × {m} for any round (T5.6)")
        else:
            rounds.append(r)
    if rounds != sorted(rounds):
        faults.append("the Mummy's boxes fill left to right, so their rounds cannot go back: "
                      f"these points mean rounds {', '.join(map(str, rounds))} (T5.6)")
    if len(hits) * 3 > defeats:
        faults.append(f"{len(hits)} hits need {len(hits) * 3} defeats to unlock their boxes, "
                      f"the tally has {defeats} (T5.6)")
    return faults


def check_tally(tally: Tally, spec: MapSpec, *, lines: dict[str, int] | None = None,
                total: int | None = None) -> PaperCheck:
    """Score ``tally`` on ``spec``'s map; ``lines`` and ``total`` are what the player wrote."""
    defeats = tally.oozes + tally.skeletons + tally.zombies + tally.golems + tally.mimics
    faults = _limits(tally, spec) + _hits(tally.hits, defeats)
    got = tally_score(tally, spec)
    differences = []
    for name, value in (lines or {}).items():
        if name not in LINES:
            faults.append(f"unknown score line {name!r}; lines: {', '.join(LINES)}")
        elif value != got.lines[name]:
            differences.append(f"{name}: you wrote {value}, the count gives {got.lines[name]} (T7)")
    if total is not None and total != got.total:
        written = sum((lines or {}).values()) if lines else None
        why = f" (your lines add up to {written})" if written is not None and written != total else ""
        differences.append(f"total: you wrote {total}, the count gives {got.total}{why} (T7)")
    return PaperCheck(got, tuple(faults), tuple(differences))


@dataclass(frozen=True)
class TallyForm:
    """The questions a paper player answers, in the order of their sheet, with a hint each
    (shared by the terminal's and the browser's score check)."""

    fields: tuple[tuple[str, str], ...] = field(default=(
        ("oozes", "oozes defeated (marked off on the Monster Log)"),
        ("skeletons", "skeletons defeated"),
        ("zombies", "zombies defeated"),
        ("golems", "golems defeated (each with its gem)"),
        ("mimics", "mimics defeated"),
        ("hits", "the points in the Mummy's boxes, left to right (e.g. 15 10 14)"),
        ("items", "magic items collected"),
        ("leftovers", "leftovers: circled undefeated monsters, unopened sarcophagi, gems not marked off, keys"),
        ("entrances", "entrances connected"),
        ("open_openings", "openings left open"),
        ("open_entrances", "entrances left open"),
        ("open_rooms", "rooms left open"),
        ("key_track_full", "all 6 key slots filled at some point (y/n)"),
        ("skeleton_key", "the Skeleton Key collected (y/n)"),
    ))


__all__ = ["PaperCheck", "TallyForm", "check_tally", "hit_round"]
