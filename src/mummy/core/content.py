"""Reading the line-oriented content files of both games (maps, tiles, sites)."""

from __future__ import annotations


def numbered_lines(text: str, lone_hash_is_comment: bool = True) -> list[tuple[int, str]]:
    """Numbered non-blank lines, without comments, stripped.

    A comment is a line whose first non-space characters are ``# ``, or a lone ``#`` when
    ``lone_hash_is_comment`` (a Treasure site may have a row of one square: ``#``). A ``#``
    anywhere else is content (stone in a map's grid, a square in a drawing).
    """
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("# ") or (lone_hash_is_comment and stripped == "#"):
            continue
        out.append((number, stripped))
    return out
