"""The live websockets of one server process: who may open one, what each may send, and
how every message to them goes out (docs/server.md §4, "Limits and close codes").

Why it is built this way: one client that never reads used to stall a whole
game. A send to it waited for room in a buffer that never drained, and so did the close
meant to drop it; the broadcast waited on that, the player's answer waited on the
broadcast, and the bots waited on the player. Here nothing waits on a client:

* every connection has a bounded outbox drained by its own sender task; a broadcast and a
  reply to the connection's own request only put a message in it, and return;
* a connection whose outbox is full is closed ("too slow to read"), whatever was queued
  is thrown away: a reconnect (or ``sync``) is sent the whole state, so it loses nothing;
* after a move, a connection is sent the patch from the version it was last sent to the
  new one (``wire.diff``), or the whole view when it has another version; patches not
  yet sent become one, an update with the whole view not yet sent gives way to the next;
* the states a connection is sent never go back a version, wherever they come from (a
  broadcast of this process's move or of another process's, heard by the relay; the
  answer to a resync; the state that comes with a refusal), though they are made in
  different tasks and threads and may finish in any order: each connection keeps the
  newest version it was given, and what is older is not sent (a refusal goes without
  its state);
* every send and every close has a deadline, and a connection that misses one is
  *aborted*: its transport is dropped at once, unsent bytes and all. ASGI has no abort,
  and a ``websocket.close`` is a message that must be written like any other (uvicorn
  waits for room in the buffer first), and a transport's ``close()`` waits to flush: for
  a peer that never reads, both wait for ever. :func:`transport_of` finds the transport
  under the ASGI server's ``receive``/``send`` to abort it.

Admission is counted here too: sockets per process and per client address (checked
before any other work; an IPv6 /64 is one address), and per game, connections per seat
and spectators per address. Seats come before spectators: spectators may not
take the last ``seats_reserved`` sockets, nor watch more than so many games from one
address, and a seat that finds the process full closes a spectator instead (the oldest
of the address that watches the most).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from mummy.server.admission.limits import SHUN_WINDOW, Shunned, address_group
from mummy.server.play.service import GameService
from mummy.server.play.wire import delta_message, encode, view_message

log = logging.getLogger("mummy.server.ws")

MAX_MESSAGE: Final = 4096  # bytes of one message a client sends
MAX_RATE: Final = 20  # messages a connection may send per second (a burst of this many, refilled)
MAX_DEPTH: Final = 8  # JSON nesting a message may have (the protocol's are flat objects)
MAX_SOCKETS: Final = 1024  # open websockets in the process (games and echo together)
MAX_PER_ADDRESS: Final = 32  # open websockets from one client address
MAX_PER_SEAT: Final = 4  # connections of one seat (its token) to its game
MAX_SPECTATORS: Final = 48  # spectators of one game
MAX_SPECTATORS_PER_ADDRESS: Final = 16  # spectators of one game from one address
#: Spectators from one address over all games: idle watchers from a few addresses filled
#: a process's sockets and locked players out of their own seats.
MAX_SPECTATING_PER_ADDRESS: Final = 24
#: Sockets of the process that only seats may take: spectators are admitted up to
#: ``sockets - seats_reserved``, and when a seat finds the process full a spectator is
#: shed (closed 1013) to make room for it.
SEATS_RESERVED: Final = 256
MAX_OUTBOX: Final = 256 * 1024  # characters waiting in one connection's outbox
SEND_TIMEOUT: Final = 2.0  # seconds a connection may take to accept one message, or its close
CLOSE_LINGER: Final = 15.0  # seconds after its end before a connection's transport is aborted
#: Addresses not counted per address: the machine itself. A reverse proxy on the same
#: host that does not pass on the client's address would otherwise put every player under
#: one address's cap (with ``X-Forwarded-For``, uvicorn puts the real address in its place).
UNMETERED: Final = frozenset({"127.0.0.1", "::1"})
# Close codes (RFC 6455 and the IANA registry).
CLOSE_NORMAL: Final = 1000
CLOSE_UNSUPPORTED: Final = 1003  # binary frames
CLOSE_INVALID: Final = 1007  # not JSON, not Unicode, or nested too deep
CLOSE_POLICY: Final = 1008  # unknown message type, flooding, bad token
CLOSE_TOO_BIG: Final = 1009
CLOSE_INTERNAL: Final = 1011  # the server failed
CLOSE_TRY_LATER: Final = 1013  # no room (a cap), or too slow to read

T = TypeVar("T")


@dataclass(frozen=True)
class SocketLimits:
    """The websocket limits of one app (``app.state.hub.limits``): the constants above
    unless a test or a deployment sets its own."""

    message: int = MAX_MESSAGE
    rate: int = MAX_RATE
    depth: int = MAX_DEPTH
    sockets: int = MAX_SOCKETS
    per_address: int = MAX_PER_ADDRESS
    per_seat: int = MAX_PER_SEAT
    spectators: int = MAX_SPECTATORS
    spectators_per_address: int = MAX_SPECTATORS_PER_ADDRESS
    spectating_per_address: int = MAX_SPECTATING_PER_ADDRESS
    seats_reserved: int = SEATS_RESERVED
    outbox: int = MAX_OUTBOX
    send_timeout: float = SEND_TIMEOUT
    linger: float = CLOSE_LINGER
    unmetered: frozenset[str] = UNMETERED
    #: IPv6 addresses of one /64 are one client (``limits.address_group``).
    ipv6_prefix: int = 64


class Runner(Protocol):
    """Where the hub computes views when the game is busy: the app's worker threads."""

    async def run(self, fn: Callable[..., T], *args: object) -> T: ...


class Transport(Protocol):
    """What the hub needs of an asyncio transport (uvloop's are not its subclasses)."""

    def abort(self) -> None: ...

    def is_closing(self) -> bool: ...


def transport_of(ws: WebSocket) -> Transport | None:
    """The transport under a websocket, to abort it; ``None`` where there is none (the
    test client).

    ASGI gives the application only ``receive`` and ``send``. With uvicorn (each of its
    websocket protocols) those are bound methods of its protocol object, which holds the
    transport; middleware may wrap ``send`` in closures. So: follow ``__self__`` and the
    closures' cells, a few steps at most, to an object with a ``transport`` that can
    abort."""
    todo: list[object] = [getattr(ws, "_receive", None), getattr(ws, "_send", None)]
    seen: set[int] = set()
    for _ in range(64):
        if not todo:
            break
        item = todo.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        transport = getattr(getattr(item, "__self__", None), "transport", None)
        if callable(getattr(transport, "abort", None)) and callable(getattr(transport, "is_closing", None)):
            return transport
        for cell in getattr(item, "__closure__", None) or ():
            with contextlib.suppress(ValueError):  # an empty cell
                if callable(cell.cell_contents):
                    todo.append(cell.cell_contents)
    return None


def _deeper(value: Any, limit: int) -> bool:
    """Whether JSON ``value`` nests deeper than ``limit`` (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class Connection:
    """One websocket: its game and seat (``token``; ``None`` for a spectator or the echo),
    its client's address, an allowance for what it sends, and an outbox that its own
    sender task drains, each send with a deadline.

    Nothing here waits on the client: :meth:`send` queues and returns, and :meth:`close`
    asks the sender to close after what is queued (or at once, dropping it)."""

    def __init__(self, ws: WebSocket, limits: SocketLimits, token: str | None = None) -> None:
        self.ws = ws
        self.limits = limits
        self.game_id: str | None = None  # once in a game's room
        self.token = token
        self.address = ws.client.host if ws.client else ""
        self.metered = self.address not in limits.unmetered
        #: Who the client is for the per-address caps: an IPv6 /64 is one client.
        self.group = address_group(self.address, limits.ipv6_prefix)
        self.counted = False  # in the hub's counts (admitted)
        self.seated = token is not None  # a seat's, not a spectator's (under pressure, checked: Hub.admit)
        self.gone = False  # the client left, or was aborted: nothing more goes out
        self._outbox: deque[str] = deque()
        self._queued = 0
        self._update_last = False  # whether the outbox's last message is a state update
        self._tail_patch: tuple[int, str] | None = None  # that update's (base, operations), if a patch
        #: The newest version of a state queued for this connection (an update, a state, a
        #: refusal's): nothing older goes after it, so the client never steps back.
        self._update_version = -1
        self._wake = asyncio.Event()
        self._close: tuple[int, str] | None = None
        self._close_by = math.inf  # the loop time by which the close must be out
        self._allowance, self._last = float(limits.rate), time.monotonic()
        self._sender = asyncio.get_running_loop().create_task(self._drain())

    @property
    def closing(self) -> bool:
        """Closed, closing or gone: the handler stops reading, the hub stops queueing."""
        return self._close is not None or self.gone

    @property
    def backlogged(self) -> bool:
        """Whether messages are still waiting to go out: the client has not read them yet."""
        return bool(self._outbox)

    def send(self, message: dict[str, Any]) -> bool:
        """Queue a message (a reply to this connection's own request). A message that
        carries a state (a refusal comes with the current one) counts as a state of its
        version: one older than a state already queued goes without it (the refusal still
        says what was refused; the client has a newer state), and updates older than it
        are not sent after it."""
        state = message.get("state")
        version = state.get("version") if isinstance(state, dict) else None
        if isinstance(version, int):
            if version < self._update_version:
                message = {k: v for k, v in message.items() if k != "state"}
            else:
                self._update_version = version
        return self.send_text(encode(message))

    def send_update(self, version: int, text: str) -> bool:
        """Queue a state update of ``version``, in place of an older one still waiting
        unsent at the end of the outbox: an update carries the whole view (with the log's
        last entries), so the older one says nothing the newer does not. A client slow for
        a moment gets the newest state sooner, and is not closed for a backlog of stale
        views. An update older than one already queued (two broadcasts finishing out of
        order) is dropped: the client keeps the newest view anyway."""
        if self._update_version > version:
            return False
        if self._update_last and self._outbox and not self.closing:
            self._queued -= len(self._outbox.pop())
        queued = self.send_text(text)
        self._update_last = queued
        self._update_version = version
        return queued

    @property
    def version(self) -> int:
        """The version of the newest state queued for the client (-1: none yet): what it
        will have once it has read everything queued, which a patch starts from."""
        return self._update_version

    def send_delta(self, base: int, version: int, ops: str, message: str | None = None) -> bool:
        """Queue the patch from ``base`` to ``version`` (``ops``: its operations as JSON
        text; ``message``: the whole message, ``wire.delta_message``, when the caller made
        it already). It follows the state of ``base``, queued before it. While the last
        message queued is a patch not yet sent, the two become one (the operations of
        both, in order): a client slow for a moment gets one message, and never a patch
        without the one before it."""
        if base != self._update_version:
            return False  # the client will not have the view this patch starts from
        if self._tail_patch is not None and self._update_last and self._outbox and not self.closing:
            first, earlier = self._tail_patch
            self._queued -= len(self._outbox.pop())
            base, ops = first, f"{earlier},{ops}" if earlier and ops else earlier or ops
            message = None
        queued = self.send_text(message or delta_message(base, version, ops))
        self._update_last = queued
        self._tail_patch = (base, ops) if queued else None
        self._update_version = version
        return queued

    def send_state(self, version: int, text: str) -> bool:
        """Queue a state of ``version`` (the answer to joining or to a resync): never
        replaced, and an update older than it, from a broadcast that finishes late, is not
        sent after it (the client would step back a version). A state older than one
        already queued (a resync's answer, made in a worker thread while a newer update
        went out) is not sent at all, for the same reason: ``False``. (The first state of
        a connection always goes: nothing is queued for it before.)"""
        if version < self._update_version:
            return False
        queued = self.send_text(text)
        self._update_version = version
        return queued

    def send_text(self, text: str) -> bool:
        """Queue text; ``False`` when it will not go out. A client whose outbox is full is
        not reading: it is closed, and what it had queued is dropped, not kept for it."""
        self._update_last = False
        self._tail_patch = None
        if self.closing:
            return False
        if self._outbox and self._queued + len(text) > self.limits.outbox:
            self.close(CLOSE_TRY_LATER, "too slow to read", flush=False)
            return False
        self._outbox.append(text)
        self._queued += len(text)
        self._wake.set()
        return True

    def close(self, code: int, reason: str = "", *, flush: bool = True) -> None:
        """Close after what is queued (``flush``), or at once; either way within
        ``send_timeout`` from now, or the transport is aborted. The first close wins."""
        if self.closing:
            return
        if code not in (CLOSE_NORMAL, CLOSE_POLICY) or reason:  # one line per connection at most
            log.info("websocket from %s closed: %d %s", self.address or "?", code, reason,
                     extra={"client": self.address, "code": code, "reason": reason})
        if not flush:
            self._outbox.clear()
            self._queued = 0
        self._close = (code, reason)
        self._close_by = asyncio.get_running_loop().time() + self.limits.send_timeout
        self._wake.set()

    def left(self) -> None:
        """The client went away (or the transport was aborted): nothing more to send."""
        self.gone = True
        self._outbox.clear()
        self._queued = 0
        self._wake.set()

    def abort(self) -> None:
        """Drop the connection now, unsent bytes and all."""
        self.left()
        transport = transport_of(self.ws)
        if transport is not None:
            transport.abort()

    async def _drain(self) -> None:
        """The sender: one message at a time, each within ``send_timeout`` (and all by the
        close's deadline once a close is asked for); a miss aborts the connection."""
        loop = asyncio.get_running_loop()
        try:
            while not self.gone:
                if self._outbox:
                    text = self._outbox.popleft()
                    self._queued -= len(text)
                    self._update_last = self._update_last and bool(self._outbox)
                    if not self._update_last:
                        self._tail_patch = None
                    async with asyncio.timeout_at(min(loop.time() + self.limits.send_timeout, self._close_by)):
                        await self.ws.send_text(text)
                elif self._close is not None:
                    code, reason = self._close
                    async with asyncio.timeout_at(self._close_by):
                        await self.ws.close(code, reason)
                    return
                else:
                    self._wake.clear()
                    await self._wake.wait()
        except TimeoutError:
            if self._close is None:
                log.info("websocket from %s aborted: too slow to read", self.address or "?",
                         extra={"client": self.address, "code": None, "reason": "too slow to read"})
            self.abort()
        except Exception:  # the client went away under a send (WebSocketDisconnect, OSError)
            self.left()

    async def receive(self) -> str | None:
        """The next text message, or ``None`` once the connection is over. A message that
        breaks a limit (rate, frame type, size) closes the connection with its code."""
        limits = self.limits
        while not self.closing:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                self.left()
                return None
            if self.closing:
                return None
            now = time.monotonic()
            self._allowance = min(float(limits.rate), self._allowance + (now - self._last) * limits.rate)
            self._last = now
            if self._allowance < 1:
                self.close(CLOSE_POLICY, "too many messages")
                return None
            self._allowance -= 1
            if message.get("bytes") is not None:
                self.close(CLOSE_UNSUPPORTED, "text frames only")
                return None
            text: str = message.get("text") or ""
            # (surrogatepass: a test client can hand over any str; orjson refuses it next)
            if len(text) > limits.message or len(text.encode("utf-8", "surrogatepass")) > limits.message:
                self.close(CLOSE_TOO_BIG, f"messages are at most {limits.message} bytes")
                return None
            return text
        return None

    async def receive_object(self) -> dict[str, Any] | None:
        """The next message as a JSON object, or ``None`` once the connection is over.
        Text that is not JSON, not whole Unicode (orjson refuses a lone surrogate, which
        could be neither stored nor sent back) or nested deeper than ``depth`` closes the
        connection with 1007; JSON that is not an object, with 1008."""
        text = await self.receive()
        if text is None:
            return None
        try:
            data = orjson.loads(text)
        except (ValueError, RecursionError):  # orjson.JSONDecodeError is a ValueError
            self.close(CLOSE_INVALID, "messages are JSON (whole Unicode)")
            return None
        if _deeper(data, self.limits.depth):
            self.close(CLOSE_INVALID, f"messages are JSON nested at most {self.limits.depth} deep")
            return None
        if not isinstance(data, dict):
            self.close(CLOSE_POLICY, "unknown message type")
            return None
        return data

    async def finish(self) -> None:
        """Wait for the sender to be done (bounded: each of its steps has a deadline), and
        make sure the transport is let go of even if the peer never reads: it is aborted
        ``linger`` seconds from now (nothing happens to one that is already closed)."""
        if not self.closing:
            self.close(CLOSE_NORMAL)
        done, _ = await asyncio.wait({self._sender}, timeout=self.limits.send_timeout + 1)
        if not done:
            self._sender.cancel()
            self.abort()
        transport = transport_of(self.ws)
        if transport is not None:
            asyncio.get_running_loop().call_later(self.limits.linger, transport.abort)


class Hub:
    """The live websockets of this process: the counts that admission checks, and each
    game's connections (its room), for broadcasting."""

    def __init__(self, workers: Runner, limits: SocketLimits | None = None) -> None:
        self.rooms: dict[str, dict[Connection, None]] = {}
        self.workers = workers
        self.limits = limits or SocketLimits()
        self.open = 0  # admitted websockets
        self.per_address: Counter[str] = Counter()  # by address group (limits.address_group)
        #: Admitted connections without a token (spectators, the echo), oldest first: shed
        #: when a seat finds the process full (:meth:`_shed`).
        self.watchers: dict[Connection, None] = {}
        self.watching_per_address: Counter[str] = Counter()
        #: The app's shunned addresses (``limits.Shunned``): a refusal for want of room
        #: counts there as a ``429`` does, so that a client that reconnects in a loop is
        #: closed at the socket, before a handshake is parsed (``app.state.shunned``).
        self.shunned: Shunned | None = None

    async def admit(self, ws: WebSocket, token: str | None = None,
                    holds_seat: Callable[[], Awaitable[bool]] | None = None) -> Connection | None:
        """Accept the websocket, then keep it if the process and its client's address
        have room: else close it with 1013 before any other work and return ``None``.
        A connection with a token is a seat's. Only a seat may take the sockets kept for
        seats or shed a spectator, so when it would (the spectators' share is taken),
        ``holds_seat`` checks the token first: a made-up one is then a spectator's (and is
        refused when it joins). The caller must :meth:`leave` a connection it got."""
        try:
            async with asyncio.timeout(self.limits.send_timeout):  # bounded, as every send
                await ws.accept()
        except TimeoutError:
            transport = transport_of(ws)
            if transport is not None:
                transport.abort()
            return None
        except (OSError, WebSocketDisconnect):  # the client left during the handshake
            return None
        conn = Connection(ws, self.limits, token)
        if conn.seated and holds_seat is not None and self.open >= self.limits.sockets - self.limits.seats_reserved:
            conn.seated = await holds_seat()  # only under pressure: the caps stay the first work
        refusal = self._refusal(conn)
        if refusal is None:
            conn.counted = True
            self.open += 1
            self.per_address[conn.group] += 1
            if not conn.seated:
                self.watchers[conn] = None
                self.watching_per_address[conn.group] += 1
            return conn
        conn.close(CLOSE_TRY_LATER, refusal)
        if conn.metered and self.shunned is not None:
            self.shunned.refused(conn.address, SHUN_WINDOW)
        await conn.finish()
        return None

    def _refusal(self, conn: Connection) -> str | None:
        """Why ``conn`` finds no room (None: it does). A seat (a token) may take the
        sockets kept for seats, and sheds the oldest spectator when the process is full;
        a spectator may not, and counts against its address's spectators of all games."""
        limits = self.limits
        if conn.metered and self.per_address[conn.group] >= limits.per_address:
            return "too many connections from your address"
        if not conn.seated:
            if self.open >= limits.sockets - limits.seats_reserved:
                return "too many connections on this server"
            if conn.metered and self.watching_per_address[conn.group] >= limits.spectating_per_address:
                return "too many games watched from your address"
            return None
        if self.open >= limits.sockets and not self._shed():
            return "too many connections on this server"
        return None

    def _shed(self) -> bool:
        """Close a spectator to make room for a seat; whether there was one: the oldest of
        the address that watches the most (the machine's own addresses, a proxy's, last),
        so that whoever filled the process pays for it, not a lone watcher. It is told why
        (1013, try later) and leaves the counts now, not when its close is out."""
        if not self.watchers:
            return False
        heaviest = max(self.watching_per_address,
                       key=lambda group: (group not in self.limits.unmetered, self.watching_per_address[group]))
        victim = next((c for c in self.watchers if c.group == heaviest), next(iter(self.watchers)))
        self._uncount(victim)
        victim.close(CLOSE_TRY_LATER, "the server needed room for a player; watch again later")
        return True

    def _uncount(self, conn: Connection) -> None:
        if not conn.counted:
            return
        conn.counted = False
        self.open -= 1
        self.per_address[conn.group] -= 1
        if self.per_address[conn.group] <= 0:
            del self.per_address[conn.group]
        if conn in self.watchers:
            del self.watchers[conn]
            self.watching_per_address[conn.group] -= 1
            if self.watching_per_address[conn.group] <= 0:
                del self.watching_per_address[conn.group]

    def join(self, conn: Connection, game_id: str) -> str | None:
        """Put the connection in its game's room, or say why there is no room for it. A
        seat has its own share (``per_seat``), so spectators never crowd seats out."""
        limits = self.limits
        room = self.rooms.get(game_id, {})
        if conn.token is not None:
            if sum(1 for c in room if c.token == conn.token) >= limits.per_seat:
                return f"at most {limits.per_seat} connections per seat"
        else:
            watching = [c for c in room if c.token is None]
            if len(watching) >= limits.spectators:
                return "too many spectators on this game"
            if conn.metered and sum(1 for c in watching if c.group == conn.group) >= limits.spectators_per_address:
                return "too many spectators of this game from your address"
        conn.game_id = game_id
        self.rooms.setdefault(game_id, {})[conn] = None
        return None

    async def leave(self, conn: Connection) -> None:
        """The connection's end: out of its room and the counts, closed (bounded)."""
        room = self.rooms.get(conn.game_id or "")
        if room is not None:
            room.pop(conn, None)
            if not room:
                self.rooms.pop(conn.game_id or "", None)
        self._uncount(conn)
        await conn.finish()

    async def broadcast(self, svc: GameService, game_id: str) -> None:
        """Queue for every connection of the game what changed in its view: the patch from
        the version it has to the new one, or, for a connection at another version, the
        whole view. Waits on no connection: it returns once every message is queued (a bot
        moves next). Each patch and view is made and encoded once per version
        (``LiveGame.update_for``)."""
        room = [(conn, conn.token, conn.version) for conn in self.rooms.get(game_id, ())]
        if not room:
            return
        wants = list(dict.fromkeys((token, have) for _, token, have in room))  # one per seat and version
        found = svc.updates_now(game_id, wants)  # on the loop when the game is free
        if found is None:
            found = await self.workers.run(svc.updates, game_id, wants)
        # Each message made once, for all the connections of a seat (or the spectators) at a version.
        answers = {want: (version, base, text, view_message("update", version, text) if base is None
                          else delta_message(base, version, text))
                   for want, (version, base, text) in zip(wants, found, strict=True)}
        behind = []
        for conn, token, have in room:
            version, base, text, message = answers[(token, have)]
            if base is None:
                conn.send_update(version, message)
            elif not conn.send_delta(base, version, text, message) and conn.version < version and not conn.closing:
                behind.append(conn)  # sent another version meanwhile (a resync): the whole view
        if behind:
            await self._send_whole(svc, game_id, behind)

    async def _send_whole(self, svc: GameService, game_id: str, conns: list[Connection]) -> None:
        tokens = list(dict.fromkeys(c.token for c in conns))
        views = svc.view_texts_now(game_id, tokens)
        if views is None:
            views = await self.workers.run(svc.view_texts, game_id, tokens)
        texts = dict(zip(tokens, views, strict=True))
        for conn in conns:
            version, text = texts[conn.token]
            conn.send_update(version, view_message("update", version, text))
