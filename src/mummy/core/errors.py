"""Errors that carry the rule they enforce.

Like python-chess, every refusal is a ``ValueError`` subclass, so callers can catch
one type; the subclasses say *why*: the text was not an action at all
(:class:`InvalidActionError`), or it was an action the rules forbid here
(:class:`IllegalActionError`). Both name a rule id from the rulings (``T3.3``) and,
where there is one, the square or edge at fault.
"""

from __future__ import annotations

ECHO_LIMIT = 40


def quote(text: object, limit: int = ECHO_LIMIT) -> str:
    """``repr`` of what a user sent, cut to ``limit`` characters: an error repeats enough of
    the input to find the fault, never a 100 KB line back at its sender."""
    r = repr(text)
    if len(r) <= limit:
        return r
    return f"{r[:limit]}… ({len(str(text))} characters)"


class MummyError(ValueError):
    """Base of every error the rules engines raise on bad input."""


class RuleError(MummyError):
    """A refusal that names the rule (``T3.3``) and where it breaks (``E4`` or ``E4n``)."""

    def __init__(self, rule: str, message: str, where: str | None = None) -> None:
        self.rule = rule
        self.where = where
        self.detail = message
        at = f" at {where}" if where else ""
        super().__init__(f"{rule}: {message}{at}")


class InvalidActionError(RuleError):
    """The text or JSON is not a well-formed action."""


class IllegalActionError(RuleError):
    """A well-formed action that the rules do not allow in this state."""


class ContentError(MummyError):
    """A content file (map, tiles) is malformed: names the file, the line and the fault."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.detail = message
        super().__init__(f"{file}:{line}: {message}")
