"""Terminal play of The Mummy's Tomb: hot-seat for any number of players.

A thin loop over the engine: it shows the active player's sheet, reads one line, and
either runs a command (``legal``, ``help``, ``undo``, ``score``, ``save``, ``quit``) or
parses the line as an action in the notation. Every refusal is printed as the engine's
rule message; nothing raises to the user. Input and output are injected, so the loop is
tested without a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from mummy.bots.base import Agent
from mummy.core.errors import RuleError, quote
from mummy.render.tomb_text import LEGEND, legal_summary, render_sheet
from mummy.terminal.common import SessionBase, loop
from mummy.tomb.actions import fmt, parse
from mummy.tomb.game import TombGame
from mummy.tomb.record import dumps_record, snapshot
from mummy.tomb.scoring import ranking, score

HELP = """\
Type an action in the notation (docs/tomb-notation.md), or a command.
Actions (what you spend, a colon, what you do):
  1:5a.r0@J1      die in slot 1 places shape 5a in orientation r0 with its top-left square on J1
                  (orientations r0-r3 turn clockwise, f0-f3 mirror first; 'legal' lists them all)
  1+2:room.r0@C5  two dice place the 3x3 room
  1:ooze  1:ooze+hammer  2:skeleton  3:zombie  4:golem.red  2:mimic  2:mimic+skey  4:mummy
                  (the number before the colon is the die's slot 1-4, the value must fit)
  open  open+skey        open a sarcophagus with a key / the Skeleton Key
  1:up  1:down           1 coin: turn the die in slot 1 up or down by one
  buy   buy4             2 coins: roll a die / 3 coins: a die of value 4
  3:erase@E4n  3:add@E4n  3:dig.ne@F4     Wand and Shovel functions with a die
  wand:erase@E4n  wand:add@E4n  shovel:dig.ne@F4   the same from an item's use
  1:discard              only for a die with no legal use     end   end the round
Commands: legal [kind], sheet, score, undo, save FILE, json, help, quit
"""


class TombSession(SessionBase):
    """One terminal session over a game; ``step(line)`` returns the text to show."""

    def __init__(self, game: TombGame, save_path: str | None = None,
                 bots: dict[int, Agent] | None = None) -> None:
        super().__init__(save_path, lambda: dumps_record(game))
        self.game = game
        self.bots = bots or {}
        self._bots_move()

    @property
    def active(self) -> int:
        """The first person who still has something to do this round."""
        return next((i for i in self.game.to_act() if i not in self.bots), 0)

    def _bots_move(self) -> None:
        """Bots play their sheets as far as they can: the round's dice are shared, so a
        bot's choices never depend on a person's, and nobody waits for a keypress."""
        g = self.game
        moved = True
        while moved and not g.is_over:
            moved = False
            for seat, bot in self.bots.items():
                while seat in g.to_act():
                    action = bot.act(g, seat)
                    g.apply(seat, action)
                    self.bot_log.append(f"{g.players[seat].name}: {fmt(action, g.maps[seat].grid)}")
                    moved = True

    def screen(self) -> str:
        g = self.game
        if g.is_over:
            return self.final()
        p = self.active
        who = f"[{g.players[p].name}] " if len(g.players) > 1 else ""
        bots = self.bots_played()
        return f"{bots}{render_sheet(g, p)}\n{who}action or command (help, legal):"

    def final(self) -> str:
        g = self.game
        scores = [score(s) for s in g.sheets]
        places = ranking(scores)
        lines = ["Final scores (T7):"]
        for i, (sc, place) in enumerate(zip(scores, places, strict=True)):
            lines.append(f"  #{place} {g.players[i].name}: {sc.total}")
            lines.extend(f"      {k:<18} {v:>4}" for k, v in sc.lines.items())
            if sc.achievements:
                lines.append(f"      achievements: {', '.join(sc.achievements)}")
        return "\n".join(lines)

    def step(self, line: str) -> str:
        """Handle one input line: a command word, or an action in the notation."""
        text = line.strip()
        if not text:
            return self.screen()
        word, _, arg = text.partition(" ")
        command = COMMANDS.get(word.lower())
        return command(self, arg) if command is not None else self._play(text)

    def _quit(self, arg: str) -> str:
        self.finished = True
        return self._autosave("Bye.")

    def _show(self, arg: str) -> str:
        return self.screen()

    def _help(self, arg: str) -> str:
        return HELP + LEGEND

    def _legal(self, arg: str) -> str:
        summary = legal_summary(self.game, self.active)
        if arg:
            summary = "\n".join(x for x in summary.splitlines() if x.startswith(arg.strip()))
        return summary or f"no legal action of kind {quote(arg)}"

    def _score(self, arg: str) -> str:
        sc = score(self.game.sheets[self.active])
        return "\n".join([f"Score if the game ended now: {sc.total}",
                          *(f"  {k:<18} {v:>4}" for k, v in sc.lines.items())])

    def _json(self, arg: str) -> str:
        return json.dumps(snapshot(self.game, self.active), indent=1)

    def _undo_command(self, arg: str) -> str:
        try:
            self.game.undo(self.active)
        except RuleError as exc:
            return f"Cannot undo: {exc.detail}."
        return "Undone.\n" + self.screen()

    def _save_command(self, arg: str) -> str:
        path = arg.strip() or self.save_path
        return self._save(path) if path else "Usage: save FILE"

    def _play(self, text: str) -> str:
        """An action for the active player: applied (checked), then the bots move."""
        g = self.game
        if g.is_over:
            return "The game is over. " + self.final()
        p = self.active
        try:
            action = parse(text, g.maps[p].grid)
            told = len(g.sheets[p].events)
            g.apply(p, action)
        except RuleError as exc:
            return f"Refused: {exc}\n(type 'legal' for what you can do, 'help' for the notation)"
        out = [f"note: {e}" for e in g.sheets[p].events[told:]]
        self._bots_move()
        if g.is_over:
            self.finished = True
            out.append(self.final())
            return self._autosave("\n".join(out))
        out.append(self.screen())
        return "\n".join(out)


#: The command words, and the method of TombSession that answers each (with the rest of
#: the line); anything else is read as an action in the notation.
COMMANDS: Final[dict[str, Callable[[TombSession, str], str]]] = {
    "quit": TombSession._quit, "exit": TombSession._quit, "q": TombSession._quit,
    "help": TombSession._help, "?": TombSession._help, "h": TombSession._help,
    "legal": TombSession._legal, "sheet": TombSession._show, "show": TombSession._show,
    "board": TombSession._show, "score": TombSession._score, "json": TombSession._json,
    "undo": TombSession._undo_command, "save": TombSession._save_command,
}


def run(game: TombGame, read: Callable[[str], str] | None = None,
        write: Callable[[str], None] = print, save_path: str | None = None,
        bots: dict[int, Agent] | None = None) -> TombGame:
    """Play in a terminal until the game ends or the player quits; ``bots`` take seats."""
    read = read or input
    session = TombSession(game, save_path, bots)
    loop(session, read, write)
    return game
