"""Integer bitboards to numpy arrays, in one C call per board.

Why: the engines keep squares and edges as Python ``int`` bitboards (``mummy.core.grid``)
and an observation needs each of them as a 0/1 plane. Unpacking the board's bytes with
``numpy.unpackbits`` and then gathering the bits of the squares wanted is one pass in C;
testing bit by bit in Python would cost more than the engine's whole step.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


def unpack(mask: int, nbits: int) -> U8:
    """The low ``nbits`` bits of ``mask`` as an array of 0/1, bit 0 first, plus one
    trailing 0 so that an index of ``nbits`` reads as "no square here" (off the grid)."""
    nbytes = (nbits + 8) // 8
    raw = np.frombuffer(mask.to_bytes(nbytes, "little"), dtype=np.uint8)
    out = np.unpackbits(raw, bitorder="little", count=nbits + 1)
    out[nbits] = 0
    return out
