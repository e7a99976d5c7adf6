"""Text drawing of a Treasure game: piles with their top tiles and odds, dice, sites."""

from __future__ import annotations

from mummy.core.grid import column_name
from mummy.treasure.actions import fmt
from mummy.treasure.content import ROLLS
from mummy.treasure.game import TreasureGame
from mummy.treasure.odds import odds_many


def render_piles(game: TreasureGame) -> list[str]:
    st = game.state
    tops = [(p, game.top(p)) for p in game.pile_names]
    needs = [t.needs for _, t in tops if t is not None]
    rolls_left = ROLLS - st.rolls
    chances = {o.needs: o for o in odds_many(needs, st.dice or None, rolls_left if st.dice else None)}
    lines = ["Piles (top tile, what it needs, chance with the best rerolls):"]
    for pile, tile in tops:
        if tile is None:
            lines.append(f"  {pile:<12} empty")
            continue
        o = chances[tile.needs]
        hint = f"  reroll {o.reroll}" if o.reroll else ("  shows now" if st.dice and o.chance == 1 else "")
        lines.append(f"  {pile:<12} {tile.rows}x{tile.cols}  needs {tile.needs:<5} "
                     f"{o.decimal:7.2%}  ({o.chance.numerator}/{o.chance.denominator}){hint}"
                     f"   [{game.pile_left(pile)} left]")
    return lines


def render_site(game: TreasureGame, seat: int) -> list[str]:
    """A site: '.' a free square, a letter per tile (A for the first placed), blank outside."""
    st = game.state
    board = game.boards[seat]
    g = board.grid
    owner: dict[int, str] = {}
    for n, p in enumerate(st.placed[seat]):
        t = game.tiles[p.tile]
        mask = board.placements(t.rows, t.cols)[(p.square, p.orient)]
        label = chr(ord("A") + n % 26)
        for sq in range(mask.bit_length()):
            if mask >> sq & 1:
                owner[sq] = label
    seat_name = game.seats[seat]
    lines = [f"{seat_name.name} - {seat_name.site}: {st.covered[seat].bit_count()}/"
             f"{board.squares.bit_count()} squares, {st.turns[seat]} turns"]
    lines.append("     " + " ".join(column_name(x) for x in range(g.width)))
    for y in range(g.height):
        row = []
        for x in range(g.width):
            sq = g.square(x, y)
            row.append(owner.get(sq, ".") if board.squares >> sq & 1 else " ")
        lines.append(f"  {y + 1:>2} " + " ".join(row))
    return lines


def render_game(game: TreasureGame) -> str:
    st = game.state
    lines = render_piles(game)
    if st.over:
        lines.append(result_text(game))
    else:
        who = game.seats[st.current].name
        dice = st.dice or "(not rolled)"
        lines.append(f"Turn of {who}: roll {st.rolls}/{ROLLS}  dice: {dice}")
    for i in range(len(game.seats)):
        lines.extend(render_site(game, i))
    return "\n".join(lines)


def result_text(game: TreasureGame) -> str:
    st = game.state
    if game.solo:
        if st.reason == "full":
            return f"Site full in {st.turns[0]} turns (R4.3)."
        return f"Unfinished: no tile can fit any more; {game.scores()[0]} squares covered (R4.3)."
    if st.reason == "full":
        return f"{game.seats[st.winner].name} filled the site and wins (R4.1)."
    places = game.places()
    best = [game.seats[i].name for i, p in enumerate(places) if p == 1]
    return f"No tile can be taken any more (R4.2); most squares: {', '.join(best)} {max(game.scores())}."


def legal_summary(game: TreasureGame, seat: int, limit: int = 40) -> str:
    grid = game.grid(seat)
    groups: dict[str, list[str]] = {}
    for a in game.legal_actions(seat):
        key = f"take {a.pile}" if a.kind == "take" else a.kind
        groups.setdefault(key, []).append(fmt(a, grid))
    lines = []
    for key, texts in groups.items():
        more = f" ... (+{len(texts) - limit})" if len(texts) > limit else ""
        lines.append(f"{key} [{len(texts)}]: {' '.join(texts[:limit])}{more}")
    return "\n".join(lines) or "no legal action now (not your turn?)"
