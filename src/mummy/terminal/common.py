"""What both terminal sessions share: saving the record, the bots' log, the input loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class _Session(Protocol):
    finished: bool

    def screen(self) -> str: ...

    def step(self, line: str) -> str: ...


class SessionBase:
    """Saving (on request and when the game ends) and the note of what the bots played."""

    def __init__(self, save_path: str | None, dumps: Callable[[], str]) -> None:
        self.save_path = save_path
        self.finished = False
        self.bot_log: list[str] = []
        self._dumps = dumps

    def bots_played(self) -> str:
        """A line naming the bots' latest actions, once."""
        if not self.bot_log:
            return ""
        text = "Bots played: " + "; ".join(self.bot_log[-12:]) + "\n"
        self.bot_log.clear()
        return text

    def _save(self, path: str) -> str:
        try:
            Path(path).write_text(self._dumps(), encoding="utf-8")
        except OSError as exc:
            return f"Could not save to {path}: {exc.strerror}"
        return f"Saved the game record to {path} (replay it with: mummy replay {path})"

    def _autosave(self, text: str) -> str:
        return text + "\n" + self._save(self.save_path) if self.save_path else text


def loop(session: _Session, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """Show the screen, then read lines until the session finishes; EOF or ^C quits."""
    write(session.screen())
    while not session.finished:
        try:
            line = read("> ")
        except (EOFError, KeyboardInterrupt):
            write(session.step("quit"))
            break
        write(session.step(line))
