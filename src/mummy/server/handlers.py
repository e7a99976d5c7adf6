"""How the app answers what went wrong: a refusal of the service, a database that is
damaged or away, a request that does not fit its schema, and a bug. Every answer is JSON
(``{"error": {"code", "message", ...}}``, or FastAPI's ``{"detail": [...]}`` for a bad
request) and carries the security headers.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DatabaseError, SQLAlchemyError

from mummy.server.errors import ServiceError
from mummy.server.limits import SECURITY_HEADERS

log = logging.getLogger("mummy.server")


def _capped(value: Any) -> Any:
    """A validation error's echo of the input, cut short (never a whole body back)."""
    if isinstance(value, str) and len(value) > 80:
        return value[:80] + f"… ({len(value)} characters)"
    if isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=True)
        return value if len(text) <= 200 else text[:200] + f"… ({len(text)} characters)"
    return value


def database_fault(exc: SQLAlchemyError) -> tuple[int, str, str]:
    """Tell a damaged database file from one that is only busy or away: the first needs
    its operator, the second a retry. (status, code, message)"""
    text = str(getattr(exc, "orig", exc)).lower()
    if isinstance(exc, DatabaseError) and any(
            s in text for s in ("malformed", "not a database", "corrupt", "checksum", "invalid page")):
        return 500, "database_damaged", ("the database file is damaged (" + text[:120] + "); "
                                         "its operator must restore it from a backup")
    return 503, "unavailable", "the database is not answering; retry"


def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
    """A refusal of the service, with its status."""
    headers = {"retry-after": str(exc.retry_after)} if exc.retry_after is not None else None
    return JSONResponse(status_code=exc.status, content={"error": exc.payload()}, headers=headers)


def database_error(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
    """The database failed: 500 for a damaged file (logged for the operator), else 503."""
    status, code, message = database_fault(exc)
    if status == 500:
        log.error("database: %s", message)
    return JSONResponse(status_code=status, content={"error": {"code": code, "message": message}})


def invalid(_request: Request, exc: RequestValidationError) -> Response:
    """FastAPI's format, with what it repeats of the input cut short and written in
    ASCII, so that an answer can always be encoded (a lone surrogate cannot be)."""
    detail = [{**e, "input": _capped(e.get("input"))} for e in exc.errors()]
    body = json.dumps({"detail": detail}, ensure_ascii=True, default=str)
    return Response(body, status_code=422, media_type="application/json")


def crash(_request: Request, exc: Exception) -> JSONResponse:
    """A bug. Starlette answers an unhandled error outside every middleware: the security
    headers are set here too, as on every other answer."""
    return JSONResponse(status_code=500, headers=dict(SECURITY_HEADERS), content={"error": {
        "code": "internal", "message": f"the server failed ({type(exc).__name__}); this is a bug"}})


def install(app: FastAPI) -> None:
    """Answer every failure of the app's routes as above."""
    app.exception_handler(ServiceError)(service_error)
    app.exception_handler(SQLAlchemyError)(database_error)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(Exception)(crash)
