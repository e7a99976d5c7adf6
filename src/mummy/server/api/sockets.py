"""The websocket endpoints: a game's live connection (``/ws/games/{game_id}``) and a bare
echo (``/ws/echo``). See docs/server.md §4 for the protocol.

Everything a connection is sent goes through its outbox (:class:`~mummy.server.play.hub.Connection`):
a client that does not read holds up nobody. The hub (``hub``) admits connections,
counts them and keeps each game's room; this module reads what a client sends and
answers it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from mummy.server.api.deps import HubDep, PlayDep
from mummy.server.errors import ServiceError
from mummy.server.play.hub import CLOSE_INTERNAL, CLOSE_POLICY, CLOSE_TRY_LATER, Connection, Hub
from mummy.server.play.play import Play
from mummy.server.play.wire import view_message

log = logging.getLogger("mummy.server")

router = APIRouter()


@router.websocket("/ws/echo")
async def echo(ws: WebSocket, hub: HubDep) -> None:
    """A bare echo, for measuring the websocket round trip itself (``make bench``).
    Admitted, read and answered by the same code as a game's socket, so it has the
    same caps, rate and size limits, and its answers the same bounded outbox."""
    conn = await hub.admit(ws)
    if conn is None:
        return
    try:
        while (text := await conn.receive()) is not None:
            conn.send_text(text)
    finally:
        await hub.leave(conn)


@router.websocket("/ws/games/{game_id}")
async def live(ws: WebSocket, game_id: str, hub: HubDep, play: PlayDep, token: str | None = None) -> None:
    """One connection per seat (with its token) or spectator (without): admitted, sent
    the game, then answered message by message until it ends."""
    # The process's and the address's caps first; under pressure the token is checked (a
    # made-up token must not take a seat's room nor shed a spectator).
    conn = await hub.admit(ws, token, None if token is None else functools.partial(play.holds_seat, game_id, token))
    if conn is None:
        return
    try:
        if await joined(conn, hub, play, game_id, token):
            await _serve(conn, play, game_id, token)
    except ServiceError as exc:  # the game went away under the connection
        conn.send({"type": "error", "error": exc.payload()})
        conn.close(CLOSE_POLICY)
    except Exception:  # a bug, or the database: one traceback, and a close that says so
        log.exception("websocket of game %s failed", game_id)
        conn.close(CLOSE_INTERNAL, "the server failed")
    finally:
        await hub.leave(conn)


async def joined(conn: Connection, hub: Hub, play: Play, game_id: str, token: str | None) -> bool:
    """Send the connection its view of the game, once it has a place in the game's room;
    whether it has. A token that holds no seat, a daily challenge not over for a
    spectator, or no room left closes it, with the reason."""
    try:
        version, text = await play.view_text(game_id, token)
    except ServiceError as exc:
        conn.send({"type": "error", "error": exc.payload()})
        conn.close(CLOSE_POLICY)
        return False
    refusal = hub.join(conn, game_id)
    if refusal is not None:
        conn.close(CLOSE_TRY_LATER, refusal)
        return False
    conn.send_state(version, view_message("state", version, text))
    # The view may have been made in a worker thread while a move was broadcast to the
    # room, which this connection was not in yet: it would stay a version behind until
    # the next move. Look again now that it is in (the same version costs nothing: a
    # view is encoded once per version); anything newer from here on reaches it.
    newer, text = await play.view_text(game_id, token)
    if newer > version:
        conn.send_state(newer, view_message("state", newer, text))
    return True


async def _serve(conn: Connection, play: Play, game_id: str, token: str | None) -> None:
    """Answer the client's messages until it leaves: actions and resyncs; any other type
    closes the connection (the hub's reader closes it for a broken limit)."""
    while (data := await conn.receive_object()) is not None:
        kind = data.get("type")
        if kind == "action":
            await _action(conn, play, game_id, token, data)
        elif kind == "sync":
            await _sync(conn, play, game_id, token, data)
        else:
            conn.close(CLOSE_POLICY, "unknown message type")


async def _action(conn: Connection, play: Play, game_id: str, token: str | None, data: dict[str, Any]) -> None:
    """A seat's action: its result to the sender, then everyone is told (committed first,
    told after; queued, so no wait on anyone). A refusal comes with the current state."""
    client_id, version, action = data.get("client_id"), data.get("version"), data.get("action")
    try:
        if token is None:
            raise ServiceError(403, "forbidden", "spectators cannot act")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError(422, "bad_request", "version is a whole number")
        result = await play.act(game_id, token, client_id, version, action)
    except ServiceError as exc:
        view = await play.view(game_id, token)
        conn.send({"type": "error", "client_id": client_id, "error": exc.payload(), "state": view})
        return
    conn.send({"type": "result", "client_id": client_id, "result": result})
    await play.told(game_id, result)


async def _sync(conn: Connection, play: Play, game_id: str, token: str | None, data: dict[str, Any]) -> None:
    """A resync: the current state, and a page of the log after the client's version
    (``"more"``: ask again from its last version); none for a spectator of a daily
    challenge before its day is over. Not answered while earlier messages are still
    unread: what is queued is on its way and every later move brings an update, so a
    client that asks again before reading costs nothing."""
    if conn.backlogged:
        return
    since = data.get("version")
    version, text = await play.view_text(game_id, token)
    extra: dict[str, Any] = {}
    if isinstance(since, int) and not isinstance(since, bool) and 0 <= since <= version:
        with contextlib.suppress(ServiceError):
            extra = await play.log_since(game_id, since, token)
    conn.send_state(version, view_message("state", version, text, extra))
