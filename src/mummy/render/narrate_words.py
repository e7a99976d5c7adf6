"""The words the narrators share: a sentence with its chance line, counts in words, lists
joined as people write them, and a warning as the preview sends it."""

from __future__ import annotations

from typing import Any, NamedTuple


class Dice(NamedTuple):
    """A Treasure roll's dice as data (R3.1): the five faces showing after it, in the
    symbols' order as the engine keeps them, and for each face whether it was held (kept
    from before a reroll) rather than rolled. Equal faces are interchangeable: the held
    ones of a symbol are listed first."""

    faces: tuple[str, ...]
    held: tuple[bool, ...]


class Line(NamedTuple):
    """An action in words: what it did and gained, what chance showed, if anything (the
    round's dice, a bought die, a roll), and the squares it covered on its player's sheet
    or site (the Tomb's tiles and digs, a Treasure tile, by name). A Treasure roll carries
    its ``dice`` and a take its ``tile``: a page shows another player's step from this
    data, never by reading the sentence or the notation."""

    sentence: str
    chance: str | None = None
    squares: tuple[str, ...] = ()
    dice: Dice | None = None
    tile: str | None = None


#: What a preview's ``uses_after`` says when the answer depends on a roll not yet made.
UNKNOWN = -1


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 coin``, ``3 coins`` (``many`` for an irregular plural)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def a_or_n(n: int, word: str, many: str | None = None) -> str:
    """``a key``, ``an ooze``, ``2 keys``: one thing with its article, more with a number."""
    if n == 1:
        return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
    return plural(n, word, many)


def joined(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def said(head: str, gains: list[str]) -> str:
    """The sentence: what was done, then what it gained after a colon."""
    return f"{head}: {joined(gains)}" if gains else head


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def warning(code: str, rule: str, message: str) -> dict[str, Any]:
    """A preview's warning (contracts §2): a code the page can act on, the rule that makes
    the loss permanent, and in words what is lost."""
    return {"code": code, "rule": rule, "message": message}
