"""Seeded, stateless dice streams.

Why stateless: a game must be its seed plus its actions (T4.6), undo must not disturb
the dice, and every player on one seed must meet the same luck. So a die is a pure
function of ``(seed, stream, index)``: BLAKE2b of those, reduced to a face. Nothing
here keeps state between calls, and no global random state is touched.
"""

from __future__ import annotations

import hashlib
import secrets


def draw(seed: int, stream: str, index: int, sides: int = 6) -> int:
    """The ``index``-th value in ``stream`` for ``seed``: an integer in ``1..sides``."""
    digest = hashlib.blake2b(f"{seed}/{stream}/{index}".encode(), digest_size=16).digest()
    # 128 bits modulo a small number: the bias is below 2**-120.
    return int.from_bytes(digest, "big") % sides + 1


def new_seed() -> int:
    """A fresh random seed for a game that was given none (63 bits, fits JSON and SQL)."""
    return secrets.randbits(63)


def parse_seed(text: str | int) -> int:
    """Accept an int or a decimal string; a seed is a non-negative integer."""
    value = int(text)
    if value < 0:
        raise ValueError("a seed is a non-negative integer")
    return value
