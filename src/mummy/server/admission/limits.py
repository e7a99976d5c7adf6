"""What one client may cost the server over HTTP, and the guards that hold it to that.

A hostile or broken client must not stall a game or exhaust the server (docs/server.md,
"Limits"). The websocket's own limits live with the websocket code; here are the HTTP
ones, each answered in words with the status a client library understands:

* a request's head (its headers) must arrive within a few seconds of the connection, and
  may hold at most so many headers and bytes: ``431``, or the connection is closed when
  the head alone would pass the parser's bound;
* a body is at most ``max_body`` bytes: ``413``, read no further;
* creating games and acting over HTTP are rate-limited per client address and for the
  whole server: ``429`` with ``Retry-After``;
* the ``Host`` header must name this server (when host names are configured): ``400``.

The rate limits use the ``limits`` library (a sliding window counter in memory: constant
work per request, keys that expire by themselves).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl

import h11
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from uvicorn.protocols.http.h11_impl import H11Protocol

from mummy.server.admission.declared import NAMED, Rated, rated_routes
from mummy.server.errors import error_body
from mummy.server.text import control_fault

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The most a request's head may take in the HTTP parser before the connection is
#: dropped: far above any honest request (a browser sends 1-2 KiB), far below what a
#: flood of headers would cost.
PARSER_HEAD_BYTES: Final = 64 * 1024

#: The pages load nothing from elsewhere: scripts, styles, images and sockets are ours.
CONTENT_SECURITY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'")
#: Sent with every answer, errors included.
SECURITY_HEADERS: Final = (
    ("content-security-policy", CONTENT_SECURITY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),  # invitation tokens stay in the page
)


@dataclass(frozen=True)
class Limits:
    """The server's HTTP limits; tests and the benchmark set their own.

    Rates are in the ``limits`` notation (``"30/minute"``). The defaults leave room for
    everything a person does (a few games an hour, an action a second) and for a family
    behind one address, and none for a script that creates games or undoes in a loop.
    """

    max_body: int = 64 * 1024
    max_headers: int = 100
    max_header_bytes: int = 16 * 1024
    #: Seconds a connection may take to send a whole request head: sockets that never
    #: finish one (half-open, or a header a byte at a time) are closed.
    request_head_timeout: float = 10.0
    games_per_address: str = "20/minute"
    games_overall: str = "600/minute"
    actions_per_address: str = "30/second"
    actions_overall: str = "3000/second"
    #: Previews of an action (the page asks as the pointer moves over the sheet, once per
    #: place and version): each costs about what a view does, a few legal-move listings.
    previews_per_address: str = "40/second"
    previews_overall: str = "2000/second"
    #: Websocket handshakes: a page opens one, and reconnects with a growing pause; a
    #: client that opens them in a loop was a log line each. Overall, only the
    #: handshakes without a seat's token (spectators) are counted: each costs about a
    #: millisecond of the event loop, and 1,200 idle spectators opened at once held the
    #: players' moves for a second (``make bench``); a player's own socket never waits
    #: behind them.
    sockets_per_address: str = "60/minute"
    sockets_overall: str = "20/second"
    #: Printable sheets (``/api/print/*.svg``): a Tomb sheet is 15-20 ms of drawing, the
    #: Treasure printout four pages; a person prints a few sheets at a time.
    prints_per_address: str = "30/minute"
    prints_overall: str = "600/minute"
    #: Refusals (429) within one ``Retry-After`` after which an address's
    #: connections are closed as they are made, until the window ends (:class:`Shunned`).
    shun_after: int = 20
    #: Host names the ``Host`` header may carry; empty: any (a library or a test).
    allowed_hosts: tuple[str, ...] = field(default=())
    #: The prefix length that makes one client among IPv6 addresses: a host (a home, a
    #: phone's network, a cloud machine) is given a whole /64, so every per-address limit
    #: counts the /64, not the address (:func:`address_group`).
    ipv6_prefix: int = 64
    #: Open TCP connections from one address (its IPv6 /64) to one process: a browser
    #: holds a few (its websocket, a page's requests); 1,500 idle connections from a few
    #: clients took every file descriptor and failed the health probes. The
    #: machine's own addresses are not counted (a reverse proxy: docs/deploy.md §6).
    connections_per_address: int = 64
    #: Seconds an idle kept-alive connection stays open between two requests.
    keep_alive_timeout: float = 5.0
    #: The proxies whose ``X-Forwarded-For`` names the client (uvicorn's
    #: ``forwarded_allow_ips``: addresses or networks, comma separated, ``*`` for any).
    #: The forwarded address decides who is who for every per-address limit, so only a
    #: proxy of yours may set it: by default one on this machine.
    forwarded_allow_ips: str = "127.0.0.1,::1"
    #: New custom maps one address may store a day (``POST /api/maps``, or a game's
    #: ``map_text`` the server has not seen): a designer saves a few dozen at most.
    maps_per_address_per_day: int = 50


@functools.lru_cache(maxsize=4096)  # on every rate-limited request: parsing is microseconds
def address_group(address: str | None, ipv6_prefix: int = Limits.ipv6_prefix) -> str:
    """Who a client is, for every per-address limit: an IPv4 address itself, an IPv6
    address's network of ``ipv6_prefix`` bits (``2001:db8:1:2::/64``), since one host
    holds a whole /64 and could otherwise spend the allowance of thousands of clients.
    An IPv4 address written as IPv6 (``::ffff:10.0.0.1``) is that IPv4 address; anything
    that is not an address (a test client's name, a Unix socket) is itself."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # (a zone index, fe80::1%eth0)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.is_loopback:
            return str(ip)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


class RateLimited(Exception):
    """Over a rate limit: what to tell the client, and when it may try again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


#: Addresses never shunned (:class:`Shunned`): the machine itself, where a reverse proxy
#: on the same host connects from.
NEVER_SHUNNED: Final = frozenset({"127.0.0.1", "::1"})
#: What each kind of limit counts, in a refusal's words.


class RateLimiter:
    """Per-address and overall limits on creating games and on HTTP actions."""

    def __init__(self, limits: Limits) -> None:
        self.ipv6_prefix = limits.ipv6_prefix
        self._storage = MemoryStorage()
        self._window = SlidingWindowCounterRateLimiter(self._storage)
        self._rules: dict[str, tuple[RateLimitItem, RateLimitItem]] = {
            "games": (parse(limits.games_per_address), parse(limits.games_overall)),
            "actions": (parse(limits.actions_per_address), parse(limits.actions_overall)),
            "previews": (parse(limits.previews_per_address), parse(limits.previews_overall)),
            "prints": (parse(limits.prints_per_address), parse(limits.prints_overall)),
            "sockets": (parse(limits.sockets_per_address), parse(limits.sockets_overall)),
        }

    def hit(self, what: str, address: str | None, per_address: bool = True, overall: bool = True) -> None:
        """Count one request of kind ``what`` from ``address``; raise :class:`RateLimited`
        when either its address's or the server's allowance is spent (each only when
        asked: ``per_address``, ``overall``). A refused request is not counted against the
        other allowance."""
        own, everyone = self._rules[what]
        rules = []
        if per_address:
            rules.append((own, address_group(address, self.ipv6_prefix), "from your address"))
        if overall:
            rules.append((everyone, "*", "on this server"))
        for item, key, whose in rules:
            if not self._window.hit(item, what, key):
                reset = self._window.get_window_stats(item, what, key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise RateLimited(f"too many {NAMED[what]} {whose} "
                                  f"(at most {item}); try again in {wait} s", wait)


async def _answer(send: Send, status: int, code: str, message: str,
                  extra: tuple[tuple[str, str], ...] = ()) -> None:
    body = json.dumps(error_body(code, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close"), *((k.encode(), v.encode()) for k, v in (*SECURITY_HEADERS, *extra))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


#: The key of a request's scope under which the guard hands its route the :class:`Charge`.
CHARGE: Final = "mummy.charge"


@dataclass(frozen=True)
class Charge:
    """A request's count against its kind of limit, made by its route once it knows the
    request costs what the limit is for. "Play today's challenge" a second time resumes
    today's game: a read, like loading a game, which must not spend the allowance of new
    games (nor be refused once it is spent); only a creation does. Calling it counts the
    request, or raises :class:`RateLimited` (counted towards shunning, as the guard's own
    refusals are); the route answers that with :func:`refusal`. It runs in the route's
    worker thread: the ``limits`` storage locks per key, and a refusal counted twice at
    once in :class:`Shunned` can at worst lose one count."""

    rates: RateLimiter
    shunned: Shunned
    what: str
    address: str | None

    def __call__(self) -> None:
        try:
            self.rates.hit(self.what, self.address)
        except RateLimited as exc:
            self.shunned.refused(self.address, exc.retry_after)
            raise


def refusal(exc: RateLimited) -> tuple[int, dict[str, Any], dict[str, str]]:
    """A rate limit's refusal as a route answers it: the status, the body and the headers
    the guard's own refusals have (``429 too_many_requests`` with ``Retry-After``)."""
    return 429, error_body("too_many_requests", exc.message), {"retry-after": str(exc.retry_after)}


#: Seconds over which refusals are counted towards shunning, and the least a client that
#: kept on is shunned for: a person's client backs off (the browser's pauses double from
#: a quarter of a second), and is refused a few times in this long, never ``shun_after``.
SHUN_WINDOW: Final = 10.0


class Shunned:
    """Client addresses that kept on after a ``429`` told them when to come back: their
    connections are closed as they are made, before a byte is parsed, until then.

    A refused request is cheap, but not free: a connection, the HTTP parser, the
    middleware and an answer. A script that ignores ``Retry-After`` and asks again as
    soon as it is answered took a fifth of the server's time with its refusals alone
    (the attack of ``make bench``), time the honest players' moves waited for. People
    and well-behaved scripts never see this: it takes ``shun_after`` refusals within one
    retry window. The machine's own addresses (a reverse proxy on the same host, which
    passes the real address on in ``X-Forwarded-For``) are never shunned at the socket,
    where only the proxy's address is known. At most ``capacity`` addresses are kept;
    the oldest go first.
    """

    def __init__(self, after: int = Limits.shun_after, capacity: int = 10_000,
                 clock: Callable[[], float] = time.monotonic, ipv6_prefix: int = Limits.ipv6_prefix) -> None:
        self.after = after
        self.capacity = capacity
        self.ipv6_prefix = ipv6_prefix
        self._clock = clock
        self._windows: dict[str, tuple[float, int]] = {}  # address -> (window's end, refusals in it)

    def refused(self, address: str | None, retry_after: float) -> None:
        """Count a 429 answered to ``address``, whose client was told to wait ``retry_after`` s."""
        if not address or address in NEVER_SHUNNED:
            return
        address = address_group(address, self.ipv6_prefix)  # a /64 is one client
        now = self._clock()
        until, count = self._windows.pop(address, (0.0, 0))
        if until <= now:
            # At least SHUN_WINDOW: a limit that resets every second (the spectators'
            # handshakes overall) would let a client that never waits back in each second.
            until, count = now + max(retry_after, SHUN_WINDOW), 0
        self._windows[address] = (until, count + 1)  # re-inserted: the newest last
        if len(self._windows) > self.capacity:
            self._windows.pop(next(iter(self._windows)))

    def shunned(self, address: str | None) -> bool:
        """Whether connections from ``address`` are closed at once now."""
        if not address or address in NEVER_SHUNNED:
            return False
        window = self._windows.get(address_group(address, self.ipv6_prefix))
        return window is not None and window[1] >= self.after and window[0] > self._clock()


class Guard:
    """Pure ASGI middleware, outermost of the app's own: the security headers on every
    answer, then the head bounds, the rate limits and the body bound, before any route
    sees the request (so that a refused request costs no parsing).

    The body is read here, up to the bound, and handed on whole: the routes' bodies are
    small JSON, and a client that sends more than the bound is answered at once without
    reading the rest (nothing of it is buffered)."""

    def __init__(self, app: ASGIApp, limits: Limits, shunned: Shunned | None = None) -> None:
        self.app = app
        self.limits = limits
        self.rates = RateLimiter(limits)
        self.shunned = shunned or Shunned(limits.shun_after, ipv6_prefix=limits.ipv6_prefix)
        self.rated: tuple[Rated, Rated] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self._malformed(scope)
        if refusal is not None:
            status, code, message = refusal
            if scope["type"] == "http":
                await _answer(send, status, code, message)
            else:
                await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        client = scope.get("client")
        if scope["type"] == "websocket":
            address = client[0] if client else None
            seat = any(key == "token" for key, _ in _query(scope))  # (a seat's claim: checked later, hub.admit)
            try:  # (the machine's own addresses are a proxy's: not counted per address, as in the hub)
                self.rates.hit("sockets", address, per_address=address not in NEVER_SHUNNED, overall=not seat)
            except RateLimited as exc:  # refused before the app: no work, no log line
                self.shunned.refused(address, exc.retry_after)
                await send({"type": "websocket.close", "code": 1013, "reason": exc.message[:120]})
                return
            await self.app(scope, receive, send)
            return
        if self.rated is None:  # the routes' declarations, read once the app has its routes
            self.rated = rated_routes(scope.get("app"))
        guarded, charged = self.rated
        for method, path, kind in charged:
            if scope["method"] == method and path.match(scope["path"]):
                scope[CHARGE] = Charge(self.rates, self.shunned, kind, client[0] if client else None)
        for method, path, kind in guarded:
            if scope["method"] == method and path.match(scope["path"]):
                try:
                    self.rates.hit(kind, client[0] if client else None)
                except RateLimited as exc:
                    self.shunned.refused(client[0] if client else None, exc.retry_after)
                    await _answer(send, 429, "too_many_requests", exc.message,
                                  (("retry-after", str(exc.retry_after)),))
                    return
                break
        bounded = await self._bounded_body(scope, receive, send)
        if bounded is None:
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k.encode(), v.encode()) for k, v in SECURITY_HEADERS
                                        if k.encode() not in present)]
            await send(message)

        await self.app(scope, bounded, secured)

    def _malformed(self, scope: Scope) -> tuple[int, str, str] | None:
        """Why a request is refused before anything else (status, code, message): too many
        or too large headers (431), a control character in its address (422: a NUL in a
        game's id or a board's map failed PostgreSQL); None when it is not."""
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        size = sum(len(k) + len(v) + 4 for k, v in headers)
        if len(headers) > self.limits.max_headers or size > self.limits.max_header_bytes:
            return 431, "headers_too_large", (f"a request has at most {self.limits.max_headers} headers "
                                              f"and {self.limits.max_header_bytes} bytes of them")
        fault = address_fault(scope)
        return None if fault is None else (422, "bad_request", fault)

    async def _bounded_body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """The request's body read whole, as a ``receive`` for the app; ``None`` when it
        was refused (413, or 408 when it does not come in time) or the client left."""
        limit = self.limits.max_body
        declared = dict(scope.get("headers", [])).get(b"content-length")
        too_big = f"a request body is at most {limit} bytes"
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _answer(send, 413, "too_large", too_big)
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.limits.request_head_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client went away
                        return None
                    size += len(message.get("body", b""))
                    if size > limit:
                        await _answer(send, 413, "too_large", too_big)
                        return None
                    chunks.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _answer(send, 408, "too_slow", f"a request body must arrive within "
                          f"{self.limits.request_head_timeout:g} s")
            return None
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the disconnect, when it comes

        return replay


def address_fault(scope: Scope) -> str | None:
    """A control character in the request's path or a query parameter, named (None: no
    such fault). Refused before any route sees it, the same on every database: a NUL
    reached PostgreSQL in a game's id and it answered an error."""
    fault = control_fault(scope.get("path", ""))
    if fault is not None:
        return f"the address: {fault}"
    for key, value in _query(scope):
        fault = control_fault(key) or control_fault(value)
        if fault is not None:
            return f"{key[:40]!r}: {fault}"
    return None


def _query(scope: Scope) -> list[tuple[str, str]]:
    """The request's query parameters, decoded."""
    query: bytes = scope.get("query_string", b"")
    return parse_qsl(query.decode("latin-1"), keep_blank_values=True) if query else []


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on every request head.

    uvicorn closes an idle kept-alive connection, but a connection that never sends a
    whole request (half-open, or a header a byte at a time) is held for ever, and a few
    thousand of them exhaust the server. Here a head must arrive within
    ``request_head_timeout`` seconds of the connection, or of the end of the previous
    answer; a websocket, once upgraded, is no longer this protocol's business.
    """

    head_timeout: float = Limits.request_head_timeout
    #: The app's shunned addresses (``app.state.shunned``): closed as they connect.
    shunned: Shunned | None = None
    #: Open connections per address group, shared by the protocol's connections (one
    #: counter per server: :func:`uvicorn_options`), and the most each may hold.
    open_connections: Counter[str] | None = None
    per_address: int = Limits.connections_per_address
    ipv6_prefix: int = Limits.ipv6_prefix

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None  # the address group this connection counts against

    #: Dropped as it was made (shunned, or its address over its share): nothing of the
    #: HTTP protocol was set up for it, and its end needs nothing either.
    _dropped: bool = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # Checked before uvicorn sets the connection up: a client that is refused at the
        # socket may connect thousands of times a second, and each costs the server only
        # this (56 us a connection here, 86 us after uvicorn's set-up and tear-down).
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) else None
        if self.shunned is not None and self.shunned.shunned(address):
            self._drop(transport)  # before a byte is read: it was told when to come back
            return
        group = None
        if self.open_connections is not None and address and address not in NEVER_SHUNNED:
            group = address_group(address, self.ipv6_prefix)
            if self.open_connections[group] >= self.per_address:
                self._drop(transport)  # its address holds its share of the process's descriptors
                return
        super().connection_made(transport)
        if group is not None and self.open_connections is not None:
            self.open_connections[group] += 1
            self._counted = group
        self._arm()

    def _drop(self, transport: asyncio.Transport) -> None:
        self._dropped = True
        transport.abort()

    def _release(self) -> None:
        """The connection's end: its address's count goes down (once)."""
        group, self._counted = self._counted, None
        if group is not None and self.open_connections is not None:
            self.open_connections[group] -= 1
            if self.open_connections[group] <= 0:
                del self.open_connections[group]

    def data_received(self, data: bytes) -> None:
        if self._dropped:  # (bytes read in the same turn as the abort)
            return
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # waiting for a head
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # a whole head came: the request is the app's now

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)
        # The transport now belongs to the websocket's protocol, whose end is this
        # connection's: it releases the address's count when it is lost.
        protocol = self.transport.get_protocol()
        lost = protocol.connection_lost

        def released(exc: Exception | None) -> None:
            self._release()
            lost(exc)

        protocol.connection_lost = released  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._dropped:
            return
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.head_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def uvicorn_options(limits: Limits, max_message: int, shunned: Shunned | None = None) -> dict[str, Any]:
    """The settings ``mummy serve`` gives uvicorn so that the limits hold at the socket:
    the guarded HTTP protocol (h11, which bounds a request head; the default parser does
    not) closing the app's ``shunned`` addresses as they connect and an address's
    connections beyond its share, idle kept-alive connections closed, forwarded
    addresses believed from the trusted proxies only, and websocket frames no larger than
    the largest message the game accepts."""
    protocol = type("GuardedHead", (GuardedH11Protocol,),
                    {"head_timeout": limits.request_head_timeout, "shunned": shunned,
                     "open_connections": Counter(), "per_address": limits.connections_per_address,
                     "ipv6_prefix": limits.ipv6_prefix})
    return {"http": protocol, "h11_max_incomplete_event_size": PARSER_HEAD_BYTES, "ws_max_size": max_message,
            "timeout_keep_alive": limits.keep_alive_timeout, "proxy_headers": True,
            "forwarded_allow_ips": limits.forwarded_allow_ips}
