"""The routes' dependencies: what a route or a websocket needs of its app, fetched from
``app.state`` (where ``create_app`` puts it) and the request's own headers.

The functions are coroutines on purpose: FastAPI runs a plain function dependency in a
worker thread, a trip per request that a move's hot path cannot afford.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from mummy.server.admission.limits import Limits, address_group
from mummy.server.play.custom_maps import MapOwner
from mummy.server.play.hub import Hub
from mummy.server.play.play import Play
from mummy.server.play.service import GameService


def app_state(name: str) -> Callable[[HTTPConnection], Awaitable[Any]]:
    """A dependency that reads ``app.state.<name>``: the service (the rules of online
    play), the hub (the websockets), play (people's actions and views) or the content."""

    async def dependency(conn: HTTPConnection) -> Any:
        return getattr(conn.app.state, name)

    return dependency


async def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The seat token of ``Authorization: Bearer TOKEN``, if the request has one."""
    scheme, _, value = (authorization or "").partition(" ")
    if scheme.lower() == "bearer":
        return value.strip() or None
    return None


async def map_owner(conn: HTTPConnection) -> MapOwner:
    """Who stores a custom map, for its daily quota: the client's address group."""
    limits: Limits = conn.app.state.limits
    return MapOwner(address_group(conn.client.host if conn.client else None, limits.ipv6_prefix),
                    limits.maps_per_address_per_day)


ServiceDep = Annotated[GameService, Depends(app_state("service"))]
HubDep = Annotated[Hub, Depends(app_state("hub"))]
PlayDep = Annotated[Play, Depends(app_state("play"))]
#: The request's seat token (``Authorization: Bearer TOKEN``), or None.
TokenDep = Annotated[str | None, Depends(bearer_token)]
#: The client as the owner of the custom maps it stores (their quota).
OwnerDep = Annotated[MapOwner, Depends(map_owner)]
