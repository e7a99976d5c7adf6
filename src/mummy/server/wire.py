"""What goes on the wire to a websocket: JSON text, and the messages that carry a view.

A view is encoded once per version and seat (:meth:`LiveGame.view_text`) and put into
each message as it is: a broadcast to a game's spectators, and every resync at a version
already sent, costs no encoding at all. Encoding views was the largest share of a move's
work on the event loop once views carried their legal actions as data, and silent
spectators asking for the state many times a second multiplied it (issue 12).
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def encode(message: Any) -> str:
    """A message as JSON text. orjson, not the standard library: a Tomb view is a few KiB
    of small objects. Text orjson refuses (a lone surrogate) is escaped by the standard
    library rather than failing a broadcast."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, ensure_ascii=True, default=str)


def view_message(kind: str, version: int, view_text: str, extra: dict[str, Any] | None = None) -> str:
    """``{"type": kind, "version": version, "state": VIEW, **extra}`` as text, with the
    view's text (already JSON) put in as it is."""
    tail = f",{encode(extra)[1:-1]}" if extra else ""
    return f'{{"type":{encode(kind)},"version":{version},"state":{view_text}{tail}}}'
