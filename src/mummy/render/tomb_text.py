"""Text drawing of a Tomb sheet for the terminal: map, dice row, tracks, Mummy.

A pure function of the game state, kept out of the rules core (as python-chess keeps
``svg.py`` apart). Legend::

    +---+   a wall          ~   an open opening (to an uncovered square)
    |       a wall          E   an entrance not yet reached   r  a room opening
    ###     stone           :::     a covered square (a collected finding keeps its label: :k: :Sh)
    $3 k o m Gr  coins, key, ooze, mimic, golem (colour)   Wd Sh Hm SK  the items
    [S] {R} a room: sarcophagus / gem (colour initial)
"""

from __future__ import annotations

from typing import Final

from mummy.core.grid import column_name, iter_bits
from mummy.tomb.content import ITEMS, TABLE_SHAPES
from mummy.tomb.game import TombGame, round_dice
from mummy.tomb.scoring import score
from mummy.tomb.sheet import Sheet

ITEM_LABEL: Final = {"wand": "Wd", "shovel": "Sh", "hammer": "Hm", "skeleton-key": "SK"}
LEGEND: Final = ("legend: --- | wall   ~ open opening   E entrance   r room opening   ### stone   "
                 "::: covered   $n coins  k key  o ooze  m mimic  Gx golem  Wd Sh Hm SK items  "
                 "[S] sarcophagus  {X} gem")


def _finding_label(sheet: Sheet, sq: int) -> str:
    kind, what = sheet.map.finding_at[sq]
    if kind == "coins":
        return f"${what}"
    if kind == "golem":
        return f"G{str(what)[0]}"
    if kind == "item":
        return ITEM_LABEL[str(what)]
    return {"key": "k", "ooze": "o", "mimic": "m"}[kind]


def _square(sheet: Sheet, sq: int) -> str:
    m = sheet.map
    covered = sheet.covered >> sq & 1
    if m.stone >> sq & 1:
        for room in m.spec.rooms:
            if room.square == sq:
                if room.finding == "sarcophagus":
                    return "[S]"
                return "{" + (room.colour or "?")[0].upper() + "}"
        return "###"
    if sq in m.finding_at:
        label = _finding_label(sheet, sq)
        if covered:
            return f":{label}" if len(label) == 2 else f":{label}:"
        return f" {label}" if len(label) == 2 else f" {label} "
    return ":::" if covered else "   "


def render_map(sheet: Sheet) -> list[str]:
    """The map with walls, openings, entrances and findings."""
    m = sheet.map
    g = m.grid
    walls = sheet.walls
    openings = sheet.open_openings()
    open_edges = sheet.open_edges()
    entrances = m.entrance_edges
    rooms = m.room_edges

    # What each edge shows, first match wins: (mask, across a row, down a column).
    marks = ((walls, "---", "|"), (openings, " ~ ", "~"), (open_edges, "   ", " "),
             (entrances, " E ", "E"), (rooms, " r ", "r"))

    def h(e: int) -> str:
        return next((wide for mask, wide, _ in marks if mask >> e & 1), "   ")

    def v(e: int) -> str:
        return next((narrow for mask, _, narrow in marks if mask >> e & 1), " ")

    lines = ["     " + "".join(f" {column_name(x):<3}" for x in range(g.width))]
    for y in range(g.height + 1):
        row = "    +"
        for x in range(g.width):
            row += h(y * g.stride + x) + "+"
        lines.append(row)
        if y == g.height:
            break
        cells = f" {y + 1:>2} "
        for x in range(g.width):
            sq = g.square(x, y)
            cells += v(g.edge(sq, "W")) + _square(sheet, sq)
        cells += v(g.edge(g.square(g.width - 1, y), "E"))
        lines.append(cells)
    return lines


def render_tracks(game: TombGame, player: int) -> list[str]:
    """Dice row, Tile Table, backpack, Monster Log, Mummy and score lines."""
    s = game.sheets[player]
    spec = s.map.spec
    out = []
    a, b = round_dice(game.seed, game.round)
    dice = "  ".join(
        f"{i + 1}:{d.value}{'x' if d.used else ''}{'' if d.source == 'roll' else '(' + d.source + ')'}"
        for i, d in enumerate(s.row)) or "-"
    extra = f"   next round: {', '.join(map(str, s.next_bonus))}" if s.next_bonus else ""
    out.append(f"Round {game.round}/20  rolled {a} {b}  phase: {s.phase}   dice: {dice}{extra}")
    marks = " ".join(t if s.marks >> i & 1 else "  " for i, t in enumerate(TABLE_SHAPES))
    out.append(f"Tile Table marked: [{marks}]  rows paid: "
               f"{[r + 1 for r in range(6) if s.rows_paid >> r & 1]}  columns paid: "
               f"{[c for i, c in enumerate('ab') if s.cols_paid >> i & 1]}")
    items = "  ".join(f"{name} {s.item_uses[i]}/3" for i, name in enumerate(ITEMS) if s.items_found >> i & 1)
    out.append(f"Backpack: coins {s.coins} (gained {s.coins_gained}/{spec.coin_track})  keys {s.keys} "
               f"(gained {s.keys_gained}/{spec.key_track})  items: {items or '-'}")
    skel = "".join("x" if s.skel_defeated >> i & 1 else ("o" if i < s.oozes_defeated else ".")
                   for i in range(len(spec.oozes)))
    golems = " ".join(
        f"{c}:{'X' if s.golems_defeated >> i & 1 else ('G' if s.golems_found >> i & 1 else '.')}"
        f"{'g' if s.gems_found >> i & 1 else '.'}" for i, c in enumerate(s.map.colours))
    out.append(f"Monster Log (defeated/circled): oozes {s.oozes_defeated}/{s.oozes_found}  "
               f"skeletons [{skel}]  sarcophagi opened {s.sarc_opened}/{s.sarc_found}  "
               f"zombies {s.zombies_defeated}/{s.sarc_opened}  mimics {s.mimics_defeated}/"
               f"{s.mimics_found}  golems {golems}")
    boxes = " ".join(
        f"[{s.hits[k][1]:>2}]" if k < len(s.hits) else ("[  ]" if k < s.alerts // 3 else "[##]")
        for k in range(6))
    out.append(f"Mummy: alerts {s.alerts}/18  boxes {boxes}")
    sc = score(s)
    parts = " ".join(f"{k}={v}" for k, v in sc.lines.items() if v)
    out.append(f"Score now: {sc.total}  ({parts or 'nothing yet'})")
    for event in s.events[-3:]:
        out.append(f"note: {event}")
    return out


def render_sheet(game: TombGame, player: int = 0) -> str:
    """The whole sheet as text."""
    s = game.sheets[player]
    head = f"{game.players[player].name} - {s.map.spec.title} ({s.mode})"
    return "\n".join([head, *render_map(s), *render_tracks(game, player)])


def legal_summary(game: TombGame, player: int, limit: int = 60) -> str:
    """Legal actions in notation, grouped by kind, for the 'legal' command."""
    from mummy.tomb.actions import fmt

    grid = game.maps[player].grid
    groups: dict[str, list[str]] = {}
    for action in game.legal_actions(player):
        key = action.kind if not action.item else f"{action.kind} ({action.item})"
        groups.setdefault(key, []).append(fmt(action, grid))
    lines = []
    for kind, texts in groups.items():
        shown = " ".join(texts[:limit])
        more = f" ... (+{len(texts) - limit})" if len(texts) > limit else ""
        lines.append(f"{kind} [{len(texts)}]: {shown}{more}")
    return "\n".join(lines) or "no legal action (waiting for the other players?)"


__all__ = ["LEGEND", "iter_bits", "legal_summary", "render_map", "render_sheet", "render_tracks"]
