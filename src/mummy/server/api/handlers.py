"""How the app answers what went wrong: a refusal of the service, a database that is
damaged or away, a request that does not fit its schema, a path or method the app does
not have, and a bug. Every answer is JSON in one shape, ``{"error": {"code", "message",
"rule", ...}}`` (``answers.ErrorAnswer``), so that a client reads any error one way; a bad
request and an HTTP error also keep FastAPI's ``detail``, which clients read before the
shape was one. Each carries the security headers.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DatabaseError, SQLAlchemyError
from starlette.exceptions import HTTPException

from mummy.server.admission.limits import SECURITY_HEADERS
from mummy.server.errors import ServiceError, error_body

log = logging.getLogger("mummy.server")
#: Fields at fault named in a bad request's message (``detail`` lists them all).
NAMED_FAULTS: Final = 3


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
    return JSONResponse(status_code=status, content=error_body(code, message))


def faults_said(errors: list[dict[str, Any]]) -> str:
    """A bad request's fields at fault in one line, for people (``loc: msg; ...``)."""
    said = [f"{'.'.join(str(part) for part in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
            for e in errors[:NAMED_FAULTS]]
    more = len(errors) - NAMED_FAULTS
    return "; ".join(said) + (f" (and {more} more)" if more > 0 else "") if said else "the request is malformed"


def invalid(_request: Request, exc: RequestValidationError) -> Response:
    """A request that fits no schema: ``bad_request`` with its faults in words, and
    FastAPI's ``detail`` with what it repeats of the input cut short, all written in ASCII
    so that an answer can always be encoded (a lone surrogate cannot be)."""
    errors = list(exc.errors())
    detail = [{**e, "input": _capped(e.get("input"))} for e in errors]
    body = json.dumps({**error_body("bad_request", faults_said(errors)), "detail": detail},
                      ensure_ascii=True, default=str)
    return Response(body, status_code=422, media_type="application/json")


def http_error(_request: Request, exc: HTTPException) -> Response:
    """An HTTP error of the framework (no such path, a method a path does not take): the
    status's name as the code (``not_found``, ``method_not_allowed``), its reason as the
    message and as ``detail``, with its headers (``Allow``)."""
    if exc.status_code in (204, 304):  # no body allowed (Starlette's own handler does the same)
        return Response(status_code=exc.status_code, headers=exc.headers)
    try:
        code = HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        code = f"http_{exc.status_code}"
    body = {**error_body(code, str(exc.detail)), "detail": exc.detail}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def crash(_request: Request, exc: Exception) -> JSONResponse:
    """A bug. Starlette answers an unhandled error outside every middleware: the security
    headers are set here too, as on every other answer."""
    return JSONResponse(status_code=500, headers=dict(SECURITY_HEADERS), content=error_body(
        "internal", f"the server failed ({type(exc).__name__}); this is a bug"))


def install(app: FastAPI) -> None:
    """Answer every failure of the app's routes as above."""
    app.exception_handler(ServiceError)(service_error)
    app.exception_handler(SQLAlchemyError)(database_error)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(HTTPException)(http_error)
    app.exception_handler(Exception)(crash)
