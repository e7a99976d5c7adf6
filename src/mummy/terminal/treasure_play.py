"""Terminal play of Mummy's Treasure: hot seat for 1 to 4 players.

Same loop as the Tomb's: show the game, read a line, run a command or an action, and
answer bad input with the engine's rule message, never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from mummy.bots.base import Agent
from mummy.core.errors import RuleError
from mummy.render.treasure_text import legal_summary, render_game, result_text
from mummy.terminal.common import SessionBase, loop
from mummy.treasure.actions import fmt, parse
from mummy.treasure.game import TreasureGame
from mummy.treasure.record import dumps_record, snapshot

HELP = """\
Actions (docs/treasure-notation.md):
  roll              roll all five dice (the first roll of a turn)
  reroll:SJ         reroll one Scarab and the Jackal (symbols S A E P C J); up to three rolls
  take:scroll@B2.h  take the top scroll and put its top-left square on B2 (h lying, v turned)
  take:scroll       in the movable variant: the game arranges your tiles
  pass              after the third roll, when no tile can be taken
Commands: legal, show, undo, json, save FILE, help, quit
"""


class TreasureSession(SessionBase):
    def __init__(self, game: TreasureGame, save_path: str | None = None,
                 bots: dict[int, Agent] | None = None) -> None:
        super().__init__(save_path, lambda: dumps_record(game))
        self.game = game
        self.bots = bots or {}
        self._bots_move()

    def _bots_move(self) -> None:
        """Bots take their turns until it is a person's turn (or the game ends)."""
        g = self.game
        while not g.is_over and g.state.current in self.bots:
            seat = g.state.current
            action = self.bots[seat].act(g, seat)
            g.apply(seat, action)
            self.bot_log.append(f"{g.seats[seat].name}: {fmt(action, g.grid(seat))}")

    def screen(self) -> str:
        g = self.game
        bots = self.bots_played()
        if g.is_over:
            return bots + render_game(g)
        who = g.seats[g.state.current].name
        return f"{bots}{render_game(g)}\n[{who}] action or command (help, legal):"

    def step(self, line: str) -> str:
        g = self.game
        text = line.strip()
        if not text:
            return self.screen()
        word = text.split()[0].lower()
        seat = g.state.current
        if word in ("quit", "exit", "q"):
            self.finished = True
            return self._autosave("Bye.")
        if word in ("help", "h", "?"):
            return HELP
        if word == "legal":
            return legal_summary(g, seat)
        if word in ("show", "sheet", "board"):
            return self.screen()
        if word == "json":
            return json.dumps(snapshot(g), indent=1)
        if word == "undo":
            if g.history and g.history[-1][0] in self.bots:
                return "Cannot undo: the last move was a bot's."
            try:
                g.undo()
            except RuleError as exc:
                return f"Cannot undo: {exc.detail}."
            self._bots_move()
            return "Undone.\n" + self.screen()
        if word == "save":
            parts = text.split(maxsplit=1)
            path = parts[1] if len(parts) > 1 else self.save_path
            return self._save(path) if path else "Usage: save FILE"
        if g.is_over:
            return "The game is over. " + result_text(g)
        try:
            g.apply(seat, parse(text, g.grid(seat)))
        except RuleError as exc:
            return f"Refused: {exc}\n(type 'legal' for what you can do, 'help' for the notation)"
        self._bots_move()
        if g.is_over:
            self.finished = True
            return self._autosave(render_game(g))
        return self.screen()


def run(game: TreasureGame, read: Callable[[str], str] | None = None,
        write: Callable[[str], None] = print, save_path: str | None = None,
        bots: dict[int, Agent] | None = None) -> TreasureGame:
    """Play in a terminal until the game ends or the players quit; ``bots`` take seats."""
    read = read or input
    session = TreasureSession(game, save_path, bots)
    loop(session, read, write)
    return game
