"""What text the server takes from a client, and how a name is shown to others.

Two faults seen from outside: a NUL in a name or a client id was taken by
SQLite and made PostgreSQL fail (``503 database not answering``), and a name may carry
the Unicode controls that reverse the text after them (a "bidi override"), so that
``Ann‮ sinned`` reads otherwise on everyone else's screen. Both are refused or removed
here, the same on every database:

* a **control character** (C0, DEL, C1: ``U+0000``-``U+001F``, ``U+007F``-``U+009F``) is
  refused with the field's name; a map's text may hold line ends and tabs;
* **bidirectional controls** (embeddings, overrides, isolates: ``U+202A``-``U+202E``,
  ``U+2066``-``U+2069``) are removed from a name before it is stored and shown.
"""

from __future__ import annotations

import re
from typing import Final

#: Control characters, for one-line text.
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Control characters but line ends and tabs, for a file's text (a map).
_CONTROL_IN_FILE: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: The controls that change the direction of the text after them.
_BIDI: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")


def control_fault(text: str, multiline: bool = False) -> str | None:
    """What is wrong with ``text`` as a client's text, or None: its first control
    character, by code point and position."""
    found = (_CONTROL_IN_FILE if multiline else _CONTROL).search(text)
    if found is None:
        return None
    return f"no control characters (U+{ord(found.group()):04X} at character {found.start() + 1})"


def shown_name(name: str) -> str:
    """A name as stored and shown to others: without bidirectional controls, trimmed."""
    return _BIDI.sub("", name).strip()


__all__ = ["control_fault", "shown_name"]
