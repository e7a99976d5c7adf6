"""The service's refusals: what the routes turn into an HTTP error or a websocket message.

Its own module, below everything that raises it (the games in memory, the service, the
boards) and everything that answers it (the routes, the websocket), so that none of
those needs another to name it.
"""

from __future__ import annotations

from typing import Any

from mummy.games import KINDS, GameKind


class ServiceError(Exception):
    """A refusal with an HTTP-like status, a code, and the engine's rule when it has one."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None,
                 where: str | None = None, version: int | None = None, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds, for a 429 or 503 (the Retry-After header)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.where = where
        self.version = version

    def payload(self) -> dict[str, Any]:
        """The error as the wire carries it (``{"error": ...}`` over HTTP and websockets):
        :func:`error_of`'s shape, with the square and the version when they apply."""
        out = error_of(self.code, self.message, self.rule)
        if self.where:
            out["where"] = self.where
        if self.version is not None:
            out["version"] = self.version
        return out


def error_of(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """An error as every answer of the server carries it (``answers.Error``): ``rule`` is
    there, null unless a rule refused, so that a client reads each error one way."""
    return {"code": code, "message": message, "rule": rule or None}


def error_body(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """A whole error answer, ``{"error": ...}`` (``answers.ErrorAnswer``)."""
    return {"error": error_of(code, message, rule)}


def known_kind(name: str) -> GameKind:
    """The game called ``name``, or a refusal listing the games there are."""
    if name not in KINDS:
        raise ServiceError(422, "bad_request", f"unknown game {name!r}; games: {', '.join(KINDS)}")
    return KINDS[name]
