"""The routes' dependencies: what a route or a websocket needs of its app, fetched from
``app.state`` (where ``create_app`` puts it) and the request's own headers.

The functions are coroutines on purpose: FastAPI runs a plain function dependency in a
worker thread, a trip per request that a move's hot path cannot afford.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from mummy.server.hub import Hub
from mummy.server.play import Play
from mummy.server.service import GameService


@dataclass(frozen=True)
class Content:
    """The games' content for the browser (maps, tiles, sites, piles), made once per app."""

    tomb: dict[str, Any]
    treasure: dict[str, Any]


async def service_of(conn: HTTPConnection) -> GameService:
    """The app's game service."""
    service: GameService = conn.app.state.service
    return service


async def hub_of(conn: HTTPConnection) -> Hub:
    """The app's websockets (their rooms and counts)."""
    hub: Hub = conn.app.state.hub
    return hub


async def play_of(conn: HTTPConnection) -> Play:
    """People's actions and views, on the loop or in the app's worker threads."""
    play: Play = conn.app.state.play
    return play


async def content_of(conn: HTTPConnection) -> Content:
    """The games' content, as the app made it."""
    content: Content = conn.app.state.content
    return content


async def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The seat token of ``Authorization: Bearer TOKEN``, if the request has one."""
    scheme, _, value = (authorization or "").partition(" ")
    if scheme.lower() == "bearer":
        return value.strip() or None
    return None


ServiceDep = Annotated[GameService, Depends(service_of)]
HubDep = Annotated[Hub, Depends(hub_of)]
PlayDep = Annotated[Play, Depends(play_of)]
ContentDep = Annotated[Content, Depends(content_of)]
#: The request's seat token (``Authorization: Bearer TOKEN``), or None.
TokenDep = Annotated[str | None, Depends(bearer_token)]
