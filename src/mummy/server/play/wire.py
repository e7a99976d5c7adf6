"""What goes on the wire to a websocket: JSON text, and the messages that carry a view.

A view is encoded once per version and seat (:meth:`LiveGame.view_text`) and put into
each message as it is: a broadcast to a game's spectators, and every resync at a version
already sent, costs no encoding at all. Encoding views was the largest share of a move's
work on the event loop once views carried their legal actions as data, and silent
spectators asking for the state many times a second multiplied it.
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


# -- lean updates: what changed, as a JSON Patch ---------------------------------------------
# After an action, a client is sent what changed in its view, not the whole view: a JSON
# Patch (RFC 6902: "add", "remove" and "replace" operations at JSON Pointer paths, RFC 6901)
# from the view it has (``base``, a version) to the new one. A Tomb view is 7-25 KB, and an
# action changes one sheet's few tracks and adds a line to the log: a patch of about 1 KB.
# The patch is made here rather than by a library's generic diff (jsonpatch.make_patch):
# the views of two versions share the parts no action touched (the same objects), which an
# identity test skips at once, and a part equal in value is skipped by one comparison made
# in C; only what differs is walked. The log's tail (its last entries) moves by one entry
# an action: that is a "remove" of the first and an "add" at the end, not twelve replaces.

#: How far a list may have moved along (entries dropped at its start) to be patched as a
#: shift rather than replaced: the log's tail moves by one entry an action, a few at most.
MAX_SHIFT = 4


def pointer(path: str, key: str | int) -> str:
    """``path`` with one more reference token (RFC 6901: ``~`` and ``/`` escaped)."""
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def diff(old: Any, new: Any, path: str = "", out: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The JSON Patch that turns ``old`` into ``new`` (both JSON-ready: dicts, lists and
    scalars). A value is never changed here, and the patch shares ``new``'s parts."""
    ops: list[dict[str, Any]] = [] if out is None else out
    if old is new:
        return ops
    if type(old) is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif isinstance(new, dict):
        if old != new:
            for key in old:
                if key not in new:
                    ops.append({"op": "remove", "path": pointer(path, key)})
            for key, value in new.items():
                if key in old:
                    diff(old[key], value, pointer(path, key), ops)
                else:
                    ops.append({"op": "add", "path": pointer(path, key), "value": value})
    elif isinstance(new, list):
        if old != new:
            _list_diff(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})
    return ops


def _list_diff(old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]]) -> None:
    """A list: shifted (its first entries removed, new ones added at the end) when it moved
    along by up to :data:`MAX_SHIFT`, as the log's tail does, or only grew; else element
    by element when its length stays; else replaced whole."""
    for shift in range(0 if len(new) > len(old) else 1, min(MAX_SHIFT, len(old)) + 1):
        kept = len(old) - shift
        if (kept or not shift) and kept <= len(new) and _same(old, shift, new, kept):
            ops.extend({"op": "remove", "path": pointer(path, 0)} for _ in range(shift))
            ops.extend({"op": "add", "path": f"{path}/-", "value": value} for value in new[kept:])
            return
    if len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            diff(a, b, pointer(path, i), ops)
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _same(old: list[Any], start: int, new: list[Any], count: int) -> bool:
    """Whether ``old[start:start + count]`` is ``new[:count]`` (the same objects, or equal)."""
    return all(a is b or (type(a) is type(b) and a == b) for a, b in zip(old[start:start + count], new[:count],
                                                                          strict=True))


def patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """``doc`` with the JSON Patch applied (the client's side, in Python: the tests and the
    benchmark's players read updates as the browser does). ``doc`` is not changed: the
    containers along each path are copied, everything else is shared."""
    for op in ops:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        doc = _patched(doc, tokens, op)
    return doc


def _patched(node: Any, tokens: list[str], op: dict[str, Any]) -> Any:
    if not tokens:
        if op["op"] == "remove":
            raise ValueError("a patch cannot remove the whole document")
        return op["value"]
    head, rest = tokens[0], tokens[1:]
    if isinstance(node, list):
        node = list(node)
        if not rest and op["op"] == "add":
            node.insert(len(node) if head == "-" else int(head), op["value"])
        elif not rest and op["op"] == "remove":
            del node[int(head)]
        else:
            node[int(head)] = _patched(node[int(head)], rest, op)
        return node
    node = dict(node)
    if not rest and op["op"] == "remove":
        del node[head]
    else:
        node[head] = _patched(node[head], rest, op) if rest else op["value"]
    return node


def delta_message(base: int, version: int, ops_text: str) -> str:
    """``{"type": "delta", "base": B, "version": V, "patch": [...]}`` as text, the patch's
    operations (already JSON, without their brackets) put in as they are: what turns the
    view of version ``base`` into that of ``version``."""
    return f'{{"type":"delta","base":{base},"version":{version},"patch":[{ops_text}]}}'


def followed(view: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
    """The view a client has after ``message``, as the browser's client reads them
    (js/api.js): a state, an update or a refusal carries the whole view; a delta patches
    the view of its ``base`` (None when the client has another version: it asks for the
    whole view, ``{"type": "sync"}``); any other message leaves the view as it was."""
    kind = message.get("type")
    if kind == "delta":
        if view is not None and view.get("version") == message["base"]:
            patched: dict[str, Any] = patch(view, message["patch"])
            return patched
        return view if view is not None and view.get("version", -1) >= message["version"] else None
    state = message.get("state") if kind in ("state", "update", "error") else None
    if isinstance(state, dict) and (view is None or state["version"] >= view.get("version", -1)):
        return state
    return view
